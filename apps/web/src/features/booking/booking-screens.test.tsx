import {
  BOOKING_STATE_TEXT,
  BOOKING_TEXT,
  type BookingPage,
  type BookingResult,
  type MyBooking,
} from '@parley/domain/booking';
import { PAGE_ELEMENT_IDS, STORAGE_KEYS } from '@parley/domain/constants';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetFirstAnswers } from '../../lib/first-answers';
import { queryClient } from '../../lib/query-client';
import { reloadSession } from '../../lib/session';
import { renderAt } from '../../test-support/render-app';
import {
  adminUser,
  type Handler,
  json,
  type RecordedRequest,
  siteConfig,
  stubFetch,
} from '../../test-support/screen-fixtures';
import {
  ALICE,
  BEN,
  booking,
  parentViewer,
  ptEvent,
  ptPage,
  slotId,
  TEACHERS,
  teacherGroup,
} from './test-fixtures';

// The booking pages through the real router, guard, providers and API client; only fetch is faked.

const parentUser = {
  ...adminUser,
  id: 31,
  firstName: 'Pat',
  lastName: 'Park',
  fullName: 'Pat Park',
  email: 'pat@park.test',
  userTypeId: 4,
  userTypeName: 'Parent',
  userTypes: [{ id: 4, name: 'Parent' }],
  role: 'parent',
  roles: ['parent'],
  clickRole: 'parent',
  iAmAdmin: false,
  isAdmin: false,
  isParent: true,
};

let routes: Record<string, Handler>;
let requests: RecordedRequest[];
let bookings: MyBooking[];
let page: BookingPage;
let grid: BookingPage['grid'];

const never = () => new Promise<Response>(() => {});

function signIn() {
  localStorage.setItem(STORAGE_KEYS.accessToken, 'tok-1');
  localStorage.setItem(STORAGE_KEYS.currentUser, JSON.stringify(parentUser));
  reloadSession();
}

const bodyOf = (request: RecordedRequest | undefined) => JSON.parse(String(request?.init.body ?? '{}'));
const calls = (path: string) => requests.filter((request) => request.path.startsWith(`/api/events/${path}`));
const header = (request: RecordedRequest, name: string) => new Headers(request.init.headers).get(name);
const result = (message: string, created: number[] = []): BookingResult => ({ message, bookings, created });

function serve(overrides: Partial<BookingPage> = {}) {
  page = ptPage(overrides);
  bookings = [...page.bookings];
  routes['/api/events/book-event'] = () => json(200, { ...page, bookings });
  routes['/api/events/user-slots-for-pt'] = () => json(200, { grid, bookings });
}

const proposed = (
  teacherId: number,
  teacherName: string,
  studentId: number,
  subjectId: number,
  time: string,
  endTime: string,
) => ({
  slotId: slotId(teacherId, time as '16:00'),
  studentId,
  teacherId,
  subjectId,
  teacherName,
  startsAt: '',
  time,
  endTime,
});

const cell = (name: string) => screen.findByRole('button', { name: new RegExp(`^${name}`) });

async function toTimes() {
  fireEvent.click(await screen.findByRole('button', { name: 'Next' })); // children → teachers
  fireEvent.click(await screen.findByRole('button', { name: 'Next' })); // teachers → times
  await screen.findByRole('tab', { name: 'Arrange for me' });
}

async function toPickTimes() {
  await toTimes();
  fireEvent.click(screen.getByRole('tab', { name: 'Pick times' }));
  await screen.findByRole('table', { name: 'Times on Thu 12 Mar 2026' });
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  reloadSession();
  queryClient.clear();
  requests = [];
  grid = [teacherGroup(TEACHERS.smith), teacherGroup(TEACHERS.jones), teacherGroup(TEACHERS.brown)];
  routes = { '/api/site/config': () => json(200, siteConfig) };
  // Anything else (the home page's data after a redirect) never answers: no stray snackbars.
  stubFetch(
    (path) => routes[path] ?? never,
    () => requests,
  );
});

afterEach(() => {
  cleanup();
  document.getElementById(PAGE_ELEMENT_IDS.firstAnswers)?.remove();
  resetFirstAnswers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  localStorage.clear();
  sessionStorage.clear();
});

describe('booking page: loading (spec §4, §8)', () => {
  it('shows the server message in an error snackbar and goes home for a bad code', async () => {
    signIn();
    routes['/api/events/book-event'] = () => json(404, { message: BOOKING_TEXT.badCode });
    const router = renderAt('/book/ptevent/NOPE');
    expect(await screen.findByText(BOOKING_TEXT.badCode)).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    expect(calls('book-event')[0]?.path).toBe('/api/events/book-event?code=NOPE');
  });

  it('goes home with the message for a disabled event too (409)', async () => {
    signIn();
    routes['/api/events/book-event'] = () => json(409, { message: 'This event is not taking bookings.' });
    const router = renderAt('/book/event/OFF');
    expect(await screen.findByText('This event is not taking bookings.')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
  });

  it('shows a visitor who is not logged in the event, its dates and how to book', async () => {
    serve({ viewer: null, children: [], teachers: [] });
    renderAt('/book/ptevent/SPRING');
    expect(await screen.findByRole('heading', { name: 'Spring parents evening' })).toBeTruthy();
    expect(screen.getByText('Hill School')).toBeTruthy();
    expect(screen.getByText('Thu 12 Mar 2026, 16:00 – 16:40')).toBeTruthy();
    expect(screen.getByText('Please arrive five minutes early.')).toBeTruthy();
    expect(screen.getByText('Times are in Europe/London')).toBeTruthy();
    expect(screen.getByText('Bookings close Wed 11 Mar 2026, 18:00')).toBeTruthy();
    expect(screen.getByText(BOOKING_TEXT.loginToBook)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe(
      '/auth/login?returnTo=%2Fbook%2Fptevent%2FSPRING',
    );
    expect(screen.queryByLabelText('Booking steps')).toBeNull();
    expect(screen.queryByText('My bookings')).toBeNull();
  });

  it('keeps the personal link for the tab, takes it out of the address and sends it on every call', async () => {
    serve({ viewer: { ...parentViewer, viaLink: true } });
    const router = renderAt('/book/ptevent/SPRING?link=tok-abc');
    await screen.findByText('Booking as Pat Park (from your invitation link)');
    expect(sessionStorage.getItem('bookingLink:SPRING')).toBe('tok-abc');
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(router.state.location.pathname).toBe('/book/ptevent/SPRING');
    await toTimes();
    await waitFor(() => expect(calls('user-slots-for-pt')).toHaveLength(1));
    const bookingCalls = requests.filter((request) => request.path.startsWith('/api/events/'));
    expect(bookingCalls.length).toBeGreaterThanOrEqual(2);
    for (const request of bookingCalls) expect(header(request, 'X-Booking-Link')).toBe('tok-abc');
    expect(header(bookingCalls[0] as RecordedRequest, 'Authorization')).toBeNull();
  });
});

describe('booking page: the answers a booking link arrives with (decision 019)', () => {
  /** The block the server puts in a booking link's page (apps/server/src/plugins/web-app.ts). */
  function arriveWith(code: string, link: string | null, answer: BookingPage) {
    const block = document.createElement('script');
    block.type = 'application/json';
    block.id = PAGE_ELEMENT_IDS.firstAnswers;
    block.textContent = JSON.stringify({
      at: Date.now(),
      siteConfig: { ...siteConfig, appName: 'Parley at Hill' },
      bookingPage: { code, link, answer },
    });
    document.body.append(block);
  }

  it('shows the page at once from them, asking the API for neither', async () => {
    serve({ viewer: { ...parentViewer, viaLink: true } });
    routes['/api/events/book-event'] = never;
    routes['/api/site/config'] = never;
    arriveWith('SPRING', 'tok-abc', { ...page, bookings });
    renderAt('/book/ptevent/SPRING?link=tok-abc');
    expect(await screen.findByText('Booking as Pat Park (from your invitation link)')).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Alice Park' })).toBeTruthy();
    expect(document.getElementById(PAGE_ELEMENT_IDS.firstAnswers)).toBeNull();
    expect(calls('book-event')).toHaveLength(0);
    expect(requests.filter((request) => request.path === '/api/site/config')).toHaveLength(0);
    // The link is still kept and sent on the calls that follow.
    await toTimes();
    await waitFor(() => expect(calls('user-slots-for-pt')).toHaveLength(1));
    expect(header(calls('user-slots-for-pt')[0] as RecordedRequest, 'X-Booking-Link')).toBe('tok-abc');
  });

  it('asks the API as always for another code or link, or for a visitor with a session of their own', async () => {
    serve({ viewer: { ...parentViewer, viaLink: true } });
    arriveWith('SPRING', 'someone-else', { ...page, viewer: null });
    renderAt('/book/ptevent/SPRING?link=tok-abc');
    await screen.findByText('Booking as Pat Park (from your invitation link)');
    expect(calls('book-event')).toHaveLength(1);
    cleanup();
    resetFirstAnswers();
    queryClient.clear();
    signIn();
    arriveWith('SPRING', 'tok-abc', { ...page, viewer: null });
    renderAt('/book/ptevent/SPRING?link=tok-abc');
    await screen.findByText('Booking as Pat Park (from your invitation link)');
    expect(calls('book-event')).toHaveLength(2);
  });
});

describe('parent-teacher booking', () => {
  beforeEach(signIn);

  it('chooses children and teachers, arranges, books and confirms', async () => {
    serve();
    routes['/api/events/arrange-slots'] = () =>
      json(200, {
        message: BOOKING_TEXT.arranged,
        items: [
          proposed(11, 'Mr Smith', ALICE, 1, '16:00', '16:10'),
          proposed(12, 'Ms Jones', ALICE, 2, '16:10', '16:20'),
          proposed(13, 'Dr Brown', BEN, 3, '16:20', '16:30'),
        ],
      });
    routes['/api/events/update-slot-for-booking'] = () => {
      bookings = [
        booking(801, TEACHERS.smith, ALICE, '16:00'),
        booking(802, TEACHERS.smith, BEN, '16:00'),
        booking(803, TEACHERS.jones, ALICE, '16:10'),
        booking(804, TEACHERS.brown, BEN, '16:20', { videoUrl: 'https://meet.test/brown' }),
      ];
      return json(200, result(BOOKING_TEXT.booked, [801, 802, 803, 804]));
    };
    renderAt('/book/ptevent/SPRING');

    // Step 1: both children ticked.
    const alice = await screen.findByRole('checkbox', { name: 'Alice Park' });
    expect((alice as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('checkbox', { name: 'Ben Park' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));

    // Step 2: pre-filled; Mr Grey is not at this event.
    const aliceTeachers = within(await screen.findByRole('region', { name: 'Teachers: Alice Park' }));
    expect((aliceTeachers.getByRole('checkbox', { name: /Mr Smith/ }) as HTMLInputElement).checked).toBe(
      true,
    );
    const grey = aliceTeachers.getByRole('checkbox', { name: /Mr Grey/ }) as HTMLInputElement;
    expect(grey.checked).toBe(false);
    expect(grey.disabled).toBe(true);
    expect(aliceTeachers.getByText('French · Not at this event')).toBeTruthy();
    expect(aliceTeachers.getByLabelText('Add a teacher')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));

    // Step 3: arrange for me between 16:00 and 17:00.
    fireEvent.change(await screen.findByLabelText('Earliest'), { target: { value: '16:00' } });
    fireEvent.change(screen.getByLabelText('Latest'), { target: { value: '17:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Find times' }));
    const proposal = within(await screen.findByRole('list', { name: 'Proposed times' }));
    expect(proposal.getAllByRole('listitem')).toHaveLength(3);
    // Siblings see Mr Smith together: one appointment for both.
    expect(proposal.getByText('Mr Smith · Alice Park, Maths · Ben Park, Maths')).toBeTruthy();
    expect(proposal.getByText('Dr Brown · Ben Park, Science')).toBeTruthy();
    expect(bodyOf(calls('arrange-slots')[0])).toEqual({
      items: [
        { studentId: ALICE, teacherId: 11, subjectId: 1 },
        { studentId: ALICE, teacherId: 12, subjectId: 2 },
        { studentId: BEN, teacherId: 13, subjectId: 3 },
      ],
      earliest: '16:00',
      latest: '17:00',
      sectionId: null,
    });
    expect(calls('arrange-slots')[0]?.path).toBe('/api/events/arrange-slots?eventId=5');
    const grid = calls('user-slots-for-pt')[0]?.path ?? '';
    expect(JSON.parse(new URL(grid, 'http://x').searchParams.get('subjectTeacherData') ?? '')).toEqual([
      { studentId: ALICE, teacherId: 11, subjectId: 1 },
      { studentId: ALICE, teacherId: 12, subjectId: 2 },
      { studentId: BEN, teacherId: 11, subjectId: 1 },
      { studentId: BEN, teacherId: 13, subjectId: 3 },
    ]);

    fireEvent.click(screen.getByRole('button', { name: 'Book these times' }));

    // Step 4: confirmation.
    expect(await screen.findByText(BOOKING_TEXT.booked)).toBeTruthy();
    const sent = bodyOf(calls('update-slot-for-booking')[0]);
    expect(calls('update-slot-for-booking')[0]?.path).toBe('/api/events/update-slot-for-booking?id=5');
    expect(sent.items).toEqual([
      { slotId: slotId(11, '16:00'), studentId: ALICE, subjectId: 1 },
      { slotId: slotId(11, '16:00'), studentId: BEN, subjectId: 1 },
      { slotId: slotId(12, '16:10'), studentId: ALICE, subjectId: 2 },
      { slotId: slotId(13, '16:20'), studentId: BEN, subjectId: 3 },
    ]);
    expect(sent.cancelBookingIds).toEqual([]);
    expect(sent.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(
      screen.getByText('A confirmation email with a calendar file has been sent to pat@park.test.'),
    ).toBeTruthy();
    const confirmed = screen.getAllByRole('list', { name: 'My bookings' })[0] as HTMLElement;
    expect(within(confirmed).getAllByText('New')).toHaveLength(4);
    expect(within(confirmed).getByText('Thu 12 Mar 2026, 16:20 – 16:30')).toBeTruthy();
    expect(within(confirmed).getByRole('link', { name: 'Video link' }).getAttribute('href')).toBe(
      'https://meet.test/brown',
    );
  });

  it('shows a lost race’s message and the fresh grid, never an error page', async () => {
    serve();
    const fresh = [
      teacherGroup(TEACHERS.smith, { free: { '16:00': 0 } }),
      teacherGroup(TEACHERS.jones),
      teacherGroup(TEACHERS.brown),
    ];
    routes['/api/events/update-slot-for-booking'] = () =>
      json(409, { message: BOOKING_TEXT.slotTaken, grid: fresh, bookings: [] });
    renderAt('/book/ptevent/SPRING');
    await toPickTimes();
    fireEvent.click(await cell('16:00 Mr Smith for Alice Park and Ben Park: free'));
    expect(await cell('16:00 Mr Smith for Alice Park and Ben Park: selected')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Book 1 time' }));

    expect((await screen.findByRole('alert')).textContent).toBe(BOOKING_TEXT.slotTaken);
    const taken = (await cell('16:00 Mr Smith for Alice Park and Ben Park: taken')) as HTMLButtonElement;
    expect(taken.disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Book times' }) as HTMLButtonElement).disabled).toBe(true);
    // Still the times step, with the other times free to choose.
    expect(await cell('16:10 Mr Smith for Alice Park and Ben Park: free')).toBeTruthy();
    expect(calls('user-slots-for-pt')).toHaveLength(1);
  });

  it('shows the field messages of a 422', async () => {
    serve();
    routes['/api/events/update-slot-for-booking'] = () =>
      json(422, { message: 'Please check the booking.', errors: { items: [BOOKING_TEXT.overlap] } });
    renderAt('/book/ptevent/SPRING');
    await toPickTimes();
    fireEvent.click(await cell('16:00 Ms Jones for Alice Park: free'));
    fireEvent.click(screen.getByRole('button', { name: 'Book 1 time' }));
    expect((await screen.findByRole('alert')).textContent).toBe(BOOKING_TEXT.overlap);
  });

  it('retries after a network failure with the same idempotency key, and a new action gets a new one', async () => {
    serve();
    let fail = true;
    routes['/api/events/update-slot-for-booking'] = () => {
      if (fail) {
        fail = false;
        throw new TypeError('Failed to fetch');
      }
      bookings = [booking(811, TEACHERS.jones, ALICE, '16:00')];
      return json(200, result(BOOKING_TEXT.booked, [811]));
    };
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderAt('/book/ptevent/SPRING');
    await toPickTimes();
    fireEvent.click(await cell('16:00 Ms Jones for Alice Park: free'));
    fireEvent.click(screen.getByRole('button', { name: 'Book 1 time' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Could not reach the server. Check your connection and try again.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Book 1 time' }));
    expect(await screen.findByText(BOOKING_TEXT.booked)).toBeTruthy();
    const [first, second] = calls('update-slot-for-booking').map(bodyOf);
    expect(second.idempotencyKey).toBe(first.idempotencyKey);

    routes['/api/events/update-slot-for-booking'] = () => json(200, result(BOOKING_TEXT.booked, []));
    fireEvent.click(screen.getByRole('button', { name: 'Change bookings' }));
    fireEvent.click(await cell('16:10 Mr Smith for Alice Park and Ben Park: free'));
    fireEvent.click(screen.getByRole('button', { name: 'Book 1 time' }));
    await waitFor(() => expect(calls('update-slot-for-booking')).toHaveLength(3));
    const third = bodyOf(calls('update-slot-for-booking')[2]);
    expect(third.idempotencyKey).not.toBe(first.idempotencyKey);
  });

  it('changes a time with one call that books the new slot and cancels the old one', async () => {
    serve({ bookings: [booking(900, TEACHERS.smith, ALICE, '16:20')] });
    routes['/api/events/update-slot-for-booking'] = () => {
      bookings = [booking(901, TEACHERS.smith, ALICE, '16:30')];
      return json(200, result(BOOKING_TEXT.changed, [901]));
    };
    renderAt('/book/ptevent/SPRING');
    const mine = within(await screen.findByRole('list', { name: 'My bookings' }));
    expect(mine.getByText('Thu 12 Mar 2026, 16:20 – 16:30')).toBeTruthy();
    fireEvent.click(mine.getByRole('button', { name: 'Change' }));

    expect(await screen.findByText('Choose a new time with Mr Smith.')).toBeTruthy();
    expect(await cell('16:20 Mr Smith for Alice Park and Ben Park: booked for you')).toBeTruthy();
    fireEvent.click(await cell('16:30 Mr Smith for Alice Park and Ben Park: free'));
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText(BOOKING_TEXT.changed)).toBeTruthy();
    const sent = bodyOf(calls('update-slot-for-booking')[0]);
    // The appointment moves for both children who see Mr Smith; the old time goes in the same call.
    expect(sent.items).toEqual([
      { slotId: slotId(11, '16:30'), studentId: ALICE, subjectId: 1 },
      { slotId: slotId(11, '16:30'), studentId: BEN, subjectId: 1 },
    ]);
    expect(sent.cancelBookingIds).toEqual([900]);
  });

  it('cancels a booking after asking', async () => {
    serve({ bookings: [booking(900, TEACHERS.smith, ALICE, '16:20')] });
    routes['/api/events/remove-booking'] = () => {
      bookings = [];
      return json(200, result(BOOKING_TEXT.cancelled));
    };
    renderAt('/book/ptevent/SPRING');
    const mine = within(await screen.findByRole('list', { name: 'My bookings' }));
    fireEvent.click(mine.getByRole('button', { name: 'Cancel' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Cancel this booking?' }));
    expect(dialog.getByText(/Thu 12 Mar 2026, 16:20 – 16:30, Mr Smith · Alice Park · Maths/)).toBeTruthy();
    // Issue 36 (8): the dismiss button keeps the booking, in words unlike "Cancel booking".
    expect(dialog.getAllByRole('button').map((button) => button.textContent)).toEqual([
      'Keep booking',
      'Cancel booking',
    ]);
    expect(calls('remove-booking')).toHaveLength(0);
    fireEvent.click(dialog.getByRole('button', { name: 'Cancel booking' }));

    expect(await screen.findByText(BOOKING_TEXT.cancelled)).toBeTruthy();
    expect(calls('remove-booking')[0]?.path).toBe('/api/events/remove-booking?eventId=5');
    expect(bodyOf(calls('remove-booking')[0])).toEqual({ bookingId: 900 });
    expect(await screen.findByText('No bookings yet.')).toBeTruthy();
  });

  it('shows the bookings as they are when the booking was cancelled meanwhile (404)', async () => {
    serve({ bookings: [booking(900, TEACHERS.smith, ALICE, '16:20')] });
    routes['/api/events/remove-booking'] = () => {
      bookings = []; // the other parent cancelled it first
      return json(404, { message: BOOKING_STATE_TEXT.alreadyCancelled });
    };
    renderAt('/book/ptevent/SPRING');
    const mine = within(await screen.findByRole('list', { name: 'My bookings' }));
    fireEvent.click(mine.getByRole('button', { name: 'Cancel' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Cancel this booking?' }));
    fireEvent.click(dialog.getByRole('button', { name: 'Cancel booking' }));

    expect(await screen.findByText(BOOKING_STATE_TEXT.alreadyCancelled)).toBeTruthy();
    expect(await screen.findByText('No bookings yet.')).toBeTruthy();
  });

  it('shows why a closed event takes no bookings and lists existing ones without controls', async () => {
    serve({
      event: ptEvent({ isOpen: false, closedReason: BOOKING_TEXT.closed }),
      bookings: [booking(900, TEACHERS.smith, ALICE, '16:20')],
    });
    renderAt('/book/ptevent/SPRING');
    expect(await screen.findByText(BOOKING_TEXT.closed)).toBeTruthy();
    const mine = within(screen.getByRole('list', { name: 'My bookings' }));
    expect(mine.getByText('Thu 12 Mar 2026, 16:20 – 16:30')).toBeTruthy();
    expect(mine.queryByRole('button')).toBeNull();
    expect(screen.queryByLabelText('Booking steps')).toBeNull();
    expect(screen.queryByText('Bookings close Wed 11 Mar 2026, 18:00')).toBeNull();
  });
});

describe('graduation booking (places, guests, gown)', () => {
  beforeEach(signIn);

  const graduation = () =>
    ptPage({
      event: ptEvent({
        id: 8,
        name: 'Graduation 2026',
        code: 'GRAD',
        eventTypeName: 'Graduation',
        eventTypeGroupInt: 3,
        guestCountOptions: [0, 1, 2],
        gownOptions: [
          { id: 'S', name: 'Small' },
          { id: 'M', name: 'Medium' },
        ],
        bookingPath: '/book/event/GRAD',
      }),
      children: [{ id: ALICE, name: 'Alice Park', teachers: [] }],
      teachers: [],
      grid: [
        {
          sectionId: 4,
          dateLabel: 'Fri 3 Jul 2026',
          teacherId: null,
          teacherName: null,
          subjects: [],
          location: 'Great hall',
          slots: [
            {
              id: 70,
              startsAt: '2026-07-03T17:00:00.000Z',
              endsAt: '2026-07-03T20:00:00.000Z',
              time: '18:00',
              endTime: '21:00',
              free: 150,
              capacity: 200,
              myBookingId: null,
              location: null,
            },
          ],
        },
      ],
    });

  it('books a place with guests and a gown size', async () => {
    page = graduation();
    bookings = [];
    routes['/api/events/book-event'] = () => json(200, { ...page, bookings });
    routes['/api/events/update-slot-for-booking'] = () => {
      bookings = [
        booking(950, TEACHERS.smith, ALICE, '16:00', {
          teacherId: null,
          teacherName: null,
          subjectName: null,
          slotId: 70,
          guests: 2,
          gownSize: 'M',
          timeLabel: 'Fri 3 Jul 2026, 18:00 – 21:00',
        }),
      ];
      return json(200, result(BOOKING_TEXT.booked, [950]));
    };
    renderAt('/book/event/GRAD');
    const only = (await screen.findByRole('radio', {
      name: /18:00 – 21:00 · 150 places left/,
    })) as HTMLInputElement;
    expect(only.checked).toBe(true);
    const book = screen.getByRole('button', { name: 'Book' }) as HTMLButtonElement;
    expect(book.disabled).toBe(true); // a gown size is needed
    fireEvent.change(screen.getByLabelText('Guests'), { target: { value: '2' } });
    fireEvent.change(screen.getByLabelText('Gown size'), { target: { value: 'M' } });
    fireEvent.click(book);
    expect(await screen.findByText(BOOKING_TEXT.booked)).toBeTruthy();
    expect(bodyOf(calls('update-slot-for-booking')[0]).items).toEqual([
      { slotId: 70, studentId: ALICE, subjectId: null, guests: 2, gownSize: 'M' },
    ]);
    // The confirmation shows the new booking once, with its guests and gown, and how to change it.
    expect(await screen.findByText('New')).toBeTruthy();
    expect(screen.queryByText('You have booked Fri 3 Jul 2026, 18:00 – 21:00.')).toBeNull();
    expect(screen.getAllByText('2 guests · Gown size: M').length).toBeGreaterThan(0);
    expect(screen.getAllByRole('button', { name: 'Change' }).length).toBe(2);
  });

  it('changes only the gown size with update-gown-size', async () => {
    page = graduation();
    bookings = [
      booking(950, TEACHERS.smith, ALICE, '16:00', {
        teacherId: null,
        teacherName: null,
        subjectName: null,
        slotId: 70,
        guests: 2,
        gownSize: 'M',
        timeLabel: 'Fri 3 Jul 2026, 18:00 – 21:00',
      }),
    ];
    routes['/api/events/book-event'] = () => json(200, { ...page, bookings });
    routes['/api/events/update-gown-size'] = () => {
      bookings = [{ ...(bookings[0] as MyBooking), gownSize: 'S' }];
      return json(200, result(BOOKING_TEXT.gownSaved));
    };
    renderAt('/book/event/GRAD');
    await screen.findByText('You have booked Fri 3 Jul 2026, 18:00 – 21:00.');
    expect(screen.getAllByText('2 guests · Gown size: M').length).toBeGreaterThan(0);
    const card = within(
      screen.getByText('You have booked Fri 3 Jul 2026, 18:00 – 21:00.').parentElement as HTMLElement,
    );
    fireEvent.click(card.getByRole('button', { name: 'Change' }));
    fireEvent.change(await screen.findByLabelText('Gown size'), { target: { value: 'S' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save change' }));
    expect(await screen.findByText(BOOKING_TEXT.gownSaved)).toBeTruthy();
    expect(calls('update-gown-size')[0]?.path).toBe(
      '/api/events/update-gown-size?eventId=8&studentId=21&gownSizeId=S&userSlotId=950',
    );
    expect(calls('update-slot-for-booking')).toHaveLength(0);
  });
});

describe('on a phone', () => {
  beforeEach(() => {
    signIn();
    vi.stubGlobal(
      'matchMedia',
      (query: string) =>
        ({
          matches: query.includes('max-width'),
          media: query,
          onchange: null,
          addEventListener: () => {},
          removeEventListener: () => {},
          addListener: () => {},
          removeListener: () => {},
          dispatchEvent: () => false,
        }) as MediaQueryList,
    );
  });

  it('shows one teacher at a time, chosen with a selector', async () => {
    serve();
    renderAt('/book/ptevent/SPRING');
    await toTimes();
    fireEvent.click(screen.getByRole('tab', { name: 'Pick times' }));
    const select = await screen.findByLabelText('Teacher');
    expect(screen.queryByRole('table')).toBeNull();
    expect(await cell('16:00 Mr Smith for Alice Park and Ben Park: free')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^16:00 Ms Jones/ })).toBeNull();
    fireEvent.change(select, { target: { value: 'teacher-12' } });
    expect(await cell('16:00 Ms Jones for Alice Park: free')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^16:00 Mr Smith/ })).toBeNull();
  });
});

describe('booking event (sections and slots)', () => {
  beforeEach(signIn);

  it('changes a booked slot with one call that books the new one and cancels the old one', async () => {
    const slot = (id: number, time: string, endTime: string, free: number) => ({
      id,
      startsAt: `2026-05-02T${time}:00.000Z`,
      endsAt: `2026-05-02T${endTime}:00.000Z`,
      time,
      endTime,
      free,
      capacity: 4,
      myBookingId: null,
      location: null,
    });
    page = ptPage({
      event: ptEvent({
        id: 9,
        name: 'Open morning',
        code: 'OPEN',
        eventTypeGroupInt: 4,
        bookingPath: '/book/event/OPEN',
      }),
      children: [{ id: ALICE, name: 'Alice Park', teachers: [] }],
      teachers: [],
      grid: [
        {
          sectionId: 6,
          dateLabel: 'Sat 2 May 2026',
          teacherId: null,
          teacherName: null,
          subjects: [],
          location: 'Reception',
          slots: [
            slot(60, '09:00', '09:30', 0),
            slot(61, '09:30', '10:00', 2),
            slot(62, '10:00', '10:30', 0),
          ],
        },
      ],
    });
    bookings = [
      booking(970, TEACHERS.smith, ALICE, '16:00', {
        teacherId: null,
        teacherName: null,
        subjectName: null,
        slotId: 60,
        timeLabel: 'Sat 2 May 2026, 09:00 – 09:30',
      }),
    ];
    routes['/api/events/book-event'] = () => json(200, { ...page, bookings });
    routes['/api/events/update-slot-for-booking'] = () => json(200, result(BOOKING_TEXT.changed, [971]));
    renderAt('/book/event/OPEN');
    const mine = within(await screen.findByRole('list', { name: 'My bookings' }));
    fireEvent.click(mine.getByRole('button', { name: 'Change' }));
    // The booked slot is full but stays selectable as "Booked"; another full slot is not.
    expect(
      ((await screen.findByRole('radio', { name: /09:00 – 09:30 · Booked/ })) as HTMLInputElement).checked,
    ).toBe(true);
    expect((screen.getByRole('radio', { name: /10:00 – 10:30 · Full/ }) as HTMLInputElement).disabled).toBe(
      true,
    );
    expect(screen.queryByLabelText('Guests')).toBeNull();
    fireEvent.click(screen.getByRole('radio', { name: /09:30 – 10:00 · 2 places left/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Save change' }));
    expect(await screen.findByText(BOOKING_TEXT.changed)).toBeTruthy();
    expect(bodyOf(calls('update-slot-for-booking')[0])).toMatchObject({
      items: [{ slotId: 61, studentId: ALICE, subjectId: null, guests: 0, gownSize: null }],
      cancelBookingIds: [970],
    });
  });
});
