import type { BookingResult, MyBooking } from '@parley/domain/booking';
import { STORAGE_KEYS } from '@parley/domain/constants';
import type { BookingItem, EventDetail, RecipientItem, SlotGroup } from '@parley/domain/events';
import { JOB_POLL_MS, type JobProgress } from '@parley/domain/jobs';
import type { PersonDetail } from '@parley/domain/people';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client';
import { reloadSession } from '../../lib/session';
import { EVENTS_TEXT } from '../../lib/ui-text';
import { renderAt } from '../../test-support/render-app';
import {
  adminUser,
  type Handler,
  json,
  type RecordedRequest,
  siteConfig,
  stubFetch,
} from '../../test-support/screen-fixtures';
import { ADMIN_BOOKING_TEXT } from './admin-booking';
import {
  booking,
  bookingsAnswer,
  directoryAnswer,
  eventDetail,
  graduation,
  graduationSlots,
  ptSlots,
  recipient,
  recipientCountsAnswer,
  recipients,
  recipientsAnswer,
  slotsAnswer,
} from './event-fixtures';

// The admin's booking tools on /events/view/{id} (issue 5) through the real router, guard, providers and
// API client; only fetch is faked.

let routes: Record<string, Handler>;
let requests: RecordedRequest[];
let current: EventDetail;
let recipientList: RecipientItem[];
let bookingList: BookingItem[];
let slotList: SlotGroup[];

const ROW = 'Actions for Ann Day · Jo Day, Thu 12 Mar 2026, 16:10';

const result = (message: string, bookings: Array<Partial<MyBooking>> = []): BookingResult => ({
  message,
  bookings: bookings as MyBooking[],
  created: [],
});

const person = (over: Partial<PersonDetail> & { id: number; name: string }): PersonDetail => ({
  firstName: over.name.split(' ')[0] ?? '',
  lastName: over.name.split(' ')[1] ?? '',
  title: null,
  email: `${over.name.split(' ')[0]?.toLowerCase()}@hill.test`,
  status: 1,
  statusLabel: 'Active',
  statusIcon: 'check_circle',
  userTypeId: 4,
  invitation: 'accepted',
  roles: ['parent'],
  subjects: [],
  children: [],
  parents: [],
  studies: [],
  videoConferenceUrl: null,
  ...over,
});

const posted = (path: string) =>
  requests
    .filter((request) => request.path === path && request.init.method === 'POST')
    .map((request) => JSON.parse(String(request.init.body)) as unknown);
const viewCalls = () => requests.filter((request) => request.path.startsWith('/api/events/view?')).length;

/** The snackbar with this text, and its colour (MUI's filled Alert class). */
async function snackbar(text: string, waitMs?: number) {
  const message = await screen.findByText(text, {}, waitMs ? { timeout: waitMs } : {});
  const alert = message.closest('.MuiAlert-root');
  return alert?.className.includes('MuiAlert-colorSuccess')
    ? 'success'
    : alert?.className.includes('MuiAlert-colorError')
      ? 'error'
      : '?';
}

async function openPage(event: EventDetail = eventDetail()) {
  current = event;
  renderAt(`/events/view/${event.id}`);
  return screen.findByRole('heading', { name: event.name });
}

async function openMenu(row = ROW) {
  fireEvent.click(await screen.findByRole('button', { name: row }));
  return screen.findByRole('menu');
}

function choose(scope: HTMLElement, label: RegExp, option: string | RegExp) {
  fireEvent.mouseDown(within(scope).getByRole('combobox', { name: label }));
  fireEvent.click(within(screen.getByRole('listbox')).getByRole('option', { name: option }));
}

beforeEach(() => {
  localStorage.clear();
  queryClient.clear();
  requests = [];
  current = eventDetail();
  recipientList = recipients();
  bookingList = [booking()];
  slotList = ptSlots();
  localStorage.setItem(STORAGE_KEYS.accessToken, 'tok-1');
  localStorage.setItem(STORAGE_KEYS.currentUser, JSON.stringify(adminUser));
  reloadSession();
  routes = {
    '/api/site/config': () => json(200, siteConfig),
    '/api/events/view': () => json(200, { event: current, eventTypes: [] }),
    '/api/events/recipients': (url) => json(200, recipientsAnswer(recipientList, url)),
    '/api/events/recipient-counts': () => json(200, recipientCountsAnswer(recipientList)),
    '/api/events/bookings': (url) => json(200, bookingsAnswer(bookingList, url)),
    '/api/events/slots': (url) => json(200, slotsAnswer(slotList, url)),
    '/api/jobs/of-event': () => json(200, { items: [] }),
    '/api/users/parents': (url) =>
      json(
        200,
        directoryAnswer(
          [
            { id: 40, name: 'Ann Day', email: 'ann@hill.test' },
            { id: 41, name: 'Ben Fox', email: 'ben@hill.test' },
            { id: 42, name: 'Ada Zed', email: 'ada@hill.test' },
          ],
          url,
        ),
      ),
    '/api/users/students': (url) =>
      json(200, directoryAnswer([{ id: 60, name: 'Cal Lee', email: 'cal@hill.test' }], url)),
  };
  stubFetch(
    (path) => routes[path],
    () => requests,
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
  reloadSession();
});

describe('move a booking', () => {
  it('offers the same teacher’s free times, sends update-slot-by-admin and reloads the event', async () => {
    routes['/api/events/update-slot-by-admin'] = () => json(200, result('Booking changed.'));
    await openPage();
    fireEvent.click(within(await openMenu()).getByRole('menuitem', { name: 'Move' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move booking' });
    expect(within(dialog).getByText('Now: Thu 12 Mar 2026, 16:10 with Mr Brown')).toBeTruthy();
    // The teacher's column is asked for as the dialog opens, and only his (decision 035).
    fireEvent.mouseDown(await within(dialog).findByRole('combobox', { name: /New time/ }));
    expect(requests.map((request) => request.path)).toContain('/api/events/slots?eventId=5&teacherIds=31');
    const options = within(screen.getByRole('listbox')).getAllByRole('option');
    // Mr Brown's 16:00 and 16:30 only: not his booked 16:10/16:20, not Ms Green's column.
    expect(options.map((option) => option.textContent)).toEqual(['16:00–16:10', '16:30–16:40']);
    expect(within(dialog).getByText('Thu 12 Mar 2026')).toBeTruthy();
    fireEvent.click(options[1] as HTMLElement);
    const before = viewCalls();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Move' }));
    expect(await snackbar('Booking changed.')).toBe('success');
    expect(posted('/api/events/update-slot-by-admin?id=5')).toEqual([
      { bookingId: 900, slotId: 103, studentId: 50, subjectId: 2, guests: 0, gownSize: null },
    ]);
    await waitFor(() => expect(viewCalls()).toBeGreaterThan(before));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Move booking' })).toBeNull());
  });

  it('shows a lost race (409) in red, keeps the dialog and reloads the grid', async () => {
    routes['/api/events/update-slot-by-admin'] = () =>
      json(409, {
        message: 'Sorry, that time has just been taken. The grid now shows the times still free.',
      });
    await openPage();
    fireEvent.click(within(await openMenu()).getByRole('menuitem', { name: 'Move' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move booking' });
    await within(dialog).findByRole('combobox', { name: /New time/ });
    choose(dialog, /New time/, '16:00–16:10');
    const before = viewCalls();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Move' }));
    expect(
      await snackbar('Sorry, that time has just been taken. The grid now shows the times still free.'),
    ).toBe('error');
    await waitFor(() => expect(viewCalls()).toBeGreaterThan(before));
    expect(screen.getByRole('dialog', { name: 'Move booking' })).toBeTruthy();
  });
});

describe('confirm a booking', () => {
  it('sends confirm-booking and marks the booking "Confirmed"', async () => {
    routes['/api/events/confirm-booking'] = () =>
      json(200, result('Booking confirmation sent.', [{ id: 900, confirmed: true }]));
    await openPage();
    expect(screen.queryByText('Confirmed')).toBeNull();
    fireEvent.click(within(await openMenu()).getByRole('menuitem', { name: 'Confirm' }));
    expect(await snackbar('Booking confirmation sent.')).toBe('success');
    expect(posted('/api/events/confirm-booking?eventId=5')).toEqual([{ bookingId: 900 }]);
    const table = screen.getByRole('table', { name: 'Bookings' });
    expect(await within(table).findByText('Confirmed')).toBeTruthy();
    fireEvent.click(within(await openMenu()).getByRole('menuitem', { name: 'Send confirmation again' }));
  });

  it('shows the server’s refusal in red', async () => {
    routes['/api/events/confirm-booking'] = () => json(404, { message: 'Booking not found.' });
    await openPage();
    fireEvent.click(within(await openMenu()).getByRole('menuitem', { name: 'Confirm' }));
    expect(await snackbar('Booking not found.')).toBe('error');
    expect(screen.queryByText('Confirmed')).toBeNull();
  });
});

describe('move a booking without a teacher', () => {
  it('says there is nowhere to move it, rather than looking for times', async () => {
    bookingList = [booking({ teacherId: null, teacherName: null })];
    await openPage();
    fireEvent.click(within(await openMenu()).getByRole('menuitem', { name: 'Move' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move booking' });
    expect(await within(dialog).findByText('There are no free times to move this booking to.')).toBeTruthy();
    expect(within(dialog).queryByText('Finding the free times…')).toBeNull();
  });
});

describe('remove a booking', () => {
  it('asks first; Cancel sends nothing, "Remove booking" sends remove-booking and reloads', async () => {
    routes['/api/events/remove-booking'] = () => json(200, result('Booking cancelled.'));
    await openPage();
    fireEvent.click(within(await openMenu()).getByRole('menuitem', { name: 'Remove' }));
    let dialog = await screen.findByRole('dialog', { name: 'Remove this booking?' });
    expect(
      within(dialog).getByText(
        'Ann Day · Jo Day, Thu 12 Mar 2026, 16:10 with Mr Brown. The family is told by email.',
      ),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Remove this booking?' })).toBeNull());
    expect(posted('/api/events/remove-booking?eventId=5')).toEqual([]);

    fireEvent.click(within(await openMenu()).getByRole('menuitem', { name: 'Remove' }));
    dialog = await screen.findByRole('dialog', { name: 'Remove this booking?' });
    const before = viewCalls();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove booking' }));
    expect(await snackbar('Booking cancelled.')).toBe('success');
    expect(posted('/api/events/remove-booking?eventId=5')).toEqual([{ bookingId: 900 }]);
    await waitFor(() => expect(viewCalls()).toBeGreaterThan(before));
  });

  it('keeps cancelled bookings out of the way until asked, and offers no actions on them', async () => {
    bookingList = [booking({ status: 'cancelled' })];
    await openPage();
    const toggle = await screen.findByRole('button', { name: 'Show cancelled (1)' });
    expect(screen.queryByText('Cancelled')).toBeNull();
    fireEvent.click(toggle);
    expect(await screen.findByText('Cancelled')).toBeTruthy();
    expect(screen.queryByRole('button', { name: ROW })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Hide cancelled' }));
    expect(screen.queryByText('Cancelled')).toBeNull();
  });
});

describe('the bookings list', () => {
  it('comes a page at a time, searched on the server; a search that matches nothing says so', async () => {
    bookingList = Array.from({ length: 75 }, (_, index) =>
      booking({ id: 2000 + index, parentName: `Pat Family${String(index).padStart(3, '0')}` }),
    );
    await openPage({ ...eventDetail(), bookingCountForEvent: 75 });
    expect(await screen.findByText('1–50 of 75')).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Bookings' });
    expect(within(table).getByText('Pat Family000')).toBeTruthy();
    // The recipients' pager is not shown (three recipients): this one is the bookings'.
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('51–75 of 75')).toBeTruthy();
    expect(within(table).getByText('Pat Family050')).toBeTruthy();
    expect(within(table).queryByText('Pat Family000')).toBeNull();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search by name' }), {
      target: { value: 'family06' },
    });
    await waitFor(() => expect(within(table).getAllByText(/Pat Family/)).toHaveLength(10));
    expect(screen.queryByRole('button', { name: 'Next page' })).toBeNull();
    expect(requests.map((request) => request.path)).toContain(
      '/api/events/bookings?eventId=5&q=family06&cancelled=0&page=1',
    );
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search by name' }), {
      target: { value: 'nobody' },
    });
    expect(await screen.findByText('No matching records found.')).toBeTruthy();
  });

  it('says "No bookings" when there are none', async () => {
    bookingList = [];
    await openPage({ ...eventDetail(), bookingCountForEvent: 0 });
    expect(await screen.findByText('No bookings yet.')).toBeTruthy();
    expect(screen.queryByRole('searchbox', { name: 'Search by name' })).toBeNull();
  });
});

describe('book for a family', () => {
  beforeEach(() => {
    routes['/api/users/view-parent-for-admin'] = () =>
      json(
        200,
        person({ id: 41, name: 'Ben Fox', children: [{ id: 51, name: 'Kit Fox', email: 'kit@hill.test' }] }),
      );
    routes['/api/users/view-student-for-admin'] = () =>
      json(
        200,
        person({
          id: 51,
          name: 'Kit Fox',
          roles: ['student'],
          studies: [{ subjectId: 7, subjectName: 'Science', teacherId: 32, teacherName: 'Ms Green' }],
        }),
      );
  });

  it('parent-teacher: parent, their child (chosen when only one), teacher, time, subject → update-slot-by-admin', async () => {
    routes['/api/events/update-slot-by-admin'] = () => json(200, result('Booking confirmed.'));
    await openPage();
    fireEvent.click(screen.getByRole('button', { name: 'Book for a family' }));
    const dialog = await screen.findByRole('dialog', { name: 'Book for a family' });

    // Nothing chosen: the form says what is missing and sends nothing.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Book' }));
    expect(await within(dialog).findByText('Choose a parent')).toBeTruthy();
    expect(within(dialog).getByText('Choose a teacher')).toBeTruthy();
    expect(within(dialog).getByText('Choose a time')).toBeTruthy();

    const parent = within(dialog).getByRole('combobox', { name: /^Parent/ });
    fireEvent.change(parent, { target: { value: 'Ben' } });
    const option = await screen.findByRole('option', { name: /Ben Fox/ });
    expect(option.textContent).toContain('not booked yet');
    fireEvent.click(option);

    await waitFor(() =>
      expect(within(dialog).getByRole('combobox', { name: /Child/ }).textContent).toBe('Kit Fox'),
    );
    // Kit's own teacher comes first, with the subject (once Kit's record is in: the open list follows it;
    // the field is found first, as an open list hides the dialog from the accessibility tree).
    const teacher = within(dialog).getByRole('combobox', { name: /Teacher/ });
    await waitFor(() => {
      fireEvent.mouseDown(teacher);
      expect(
        within(screen.getByRole('listbox'))
          .getAllByRole('option')
          .map((item) => item.textContent),
      ).toEqual(['Ms Green — Science', 'Mr Brown']);
    });
    fireEvent.click(within(screen.getByRole('listbox')).getByRole('option', { name: 'Ms Green — Science' }));
    // Her column is asked for once she is chosen (decision 035).
    await waitFor(() =>
      expect(
        within(dialog).getByRole('combobox', { name: /^Time/ }).getAttribute('aria-disabled'),
      ).toBeNull(),
    );
    expect(requests.map((request) => request.path)).toContain('/api/events/slots?eventId=5&teacherIds=32');
    choose(dialog, /^Time/, '16:10–16:20');
    choose(dialog, /Subject/, 'Science');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Book' }));

    expect(await snackbar('Booking confirmed.')).toBe('success');
    expect(posted('/api/events/update-slot-by-admin?id=5')).toEqual([
      { slotId: 201, parentId: 41, studentId: 51, subjectId: 7 },
    ]);
    expect(requests.some((request) => request.path === '/api/users/view-parent-for-admin?id=41')).toBe(true);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Book for a family' })).toBeNull());
  });

  it('offers the school’s other parents the directory finds for what is typed (decision 035)', async () => {
    await openPage();
    fireEvent.click(screen.getByRole('button', { name: 'Book for a family' }));
    const dialog = await screen.findByRole('dialog', { name: 'Book for a family' });
    const parent = within(dialog).getByRole('combobox', { name: /^Parent/ });
    parent.focus(); // as a person typing: the picker keeps the text of a focused field
    fireEvent.change(parent, { target: { value: 'zed' } });
    await waitFor(() =>
      expect(requests.map((request) => request.path)).toContain('/api/users/parents?q=zed&pageSize=25'),
    );
    const option = await screen.findByRole('option', { name: /Ada Zed/ });
    expect(option.closest('ul')?.parentElement?.textContent).toContain(ADMIN_BOOKING_TEXT.otherParents);
    expect(requests.some((request) => request.path.startsWith('/api/events/get-all'))).toBe(false);
  });

  it('graduation: a student, a slot with places, guests and gown; a 409 stays open in red', async () => {
    routes['/api/events/update-slot-by-admin'] = () =>
      json(409, { message: 'That time overlaps another appointment for you or your child.' });
    slotList = graduationSlots();
    await openPage(graduation());
    fireEvent.click(screen.getByRole('button', { name: 'Book for a family' }));
    const dialog = await screen.findByRole('dialog', { name: 'Book for a family' });
    fireEvent.change(within(dialog).getByRole('combobox', { name: /Parent or student/ }), {
      target: { value: 'Cal' },
    });
    fireEvent.click(await screen.findByRole('option', { name: /Cal Lee/ }));
    expect(within(dialog).queryByRole('combobox', { name: /Child/ })).toBeNull();
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: /^Time/ }));
    // The full 20:00 slot is not offered.
    expect(
      within(screen.getByRole('listbox'))
        .getAllByRole('option')
        .map((item) => item.textContent),
    ).toEqual(['18:00–20:00 · 1 place left']);
    fireEvent.click(within(screen.getByRole('listbox')).getByRole('option'));
    choose(dialog, /Guests/, '2');
    choose(dialog, /Gown size/, 'M');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Book' }));
    expect(await snackbar('That time overlaps another appointment for you or your child.')).toBe('error');
    expect(posted('/api/events/update-slot-by-admin?id=6')).toEqual([
      { slotId: 300, studentId: 60, guests: 2, gownSize: 'M' },
    ]);
    expect(screen.getByRole('dialog', { name: 'Book for a family' })).toBeTruthy();
  });
});

describe('recipients: not booked yet', () => {
  it('"Not booked yet (N families)" shows only the recipients without a booking, and back', async () => {
    await openPage();
    const table = await screen.findByRole('table', { name: 'Recipients' });
    expect(await within(table).findByText('Ann Day')).toBeTruthy();
    const chip = await screen.findByRole('button', { name: 'Not booked yet (2 families)' });
    expect(chip.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(chip);
    expect(chip.getAttribute('aria-pressed')).toBe('true');
    // Asked of the server: the filter, the first page.
    await waitFor(() => expect(within(table).queryByText('Ann Day')).toBeNull());
    expect(requests.map((request) => request.path)).toContain(
      '/api/events/recipients?eventId=5&q=&notBooked=1&page=1',
    );
    expect(within(table).getByText('Ben Fox')).toBeTruthy();
    expect(within(table).getByText('Cal Lee')).toBeTruthy();
    fireEvent.click(chip);
    expect(await within(table).findByText('Ann Day')).toBeTruthy();
  });

  it('comes a page at a time, and the search asks the server', async () => {
    recipientList = Array.from({ length: 120 }, (_, index) =>
      recipient({ id: 1000 + index, name: `Pat Family${String(index).padStart(3, '0')}` }),
    );
    current = { ...eventDetail(), recipientCount: 120 };
    await openPage();
    expect(await screen.findByText('1–50 of 120')).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Recipients' });
    expect(within(table).getByText('Pat Family000')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('51–100 of 120')).toBeTruthy();
    expect(within(table).getByText('Pat Family050')).toBeTruthy();
    expect(within(table).queryByText('Pat Family000')).toBeNull();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search' }), { target: { value: 'family11' } });
    // Ten matches: one page, no pager; asked of the server from the first page.
    await waitFor(() => expect(within(table).getAllByText(/Pat Family/)).toHaveLength(10));
    expect(within(table).getAllByText(/Pat Family11\d/)).toHaveLength(10);
    expect(screen.queryByRole('button', { name: 'Next page' })).toBeNull();
    expect(requests.map((request) => request.path)).toContain(
      '/api/events/recipients?eventId=5&q=family11&notBooked=0&page=1',
    );
  });

  it('says so when everyone has booked', async () => {
    recipientList = recipients().map((item) => ({ ...item, booked: true }));
    await openPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Not booked yet (0 families)' }));
    expect(await screen.findByText('Everyone on the list has booked.')).toBeTruthy();
  });
});

describe('recipients: pick people (decision 035)', () => {
  it('finds parents and students by what is typed, and previews adding the ones picked', async () => {
    routes['/api/events/add-recipients'] = () =>
      json(200, { toAdd: [], toAddCount: 0, alreadyAdded: [], alreadyAddedCount: 0, added: 0, message: '' });
    await openPage();
    fireEvent.click(await screen.findByRole('button', { name: EVENTS_TEXT.pickPeople }));
    const dialog = await screen.findByRole('dialog', { name: EVENTS_TEXT.pickPeople });
    const picker = within(dialog).getByRole('combobox', { name: EVENTS_TEXT.pickLabel });
    picker.focus(); // as a person typing: the picker keeps the text of a focused field
    fireEvent.change(picker, { target: { value: 'cal' } });
    await waitFor(() =>
      expect(requests.map((request) => request.path)).toContain('/api/users/students?q=cal&pageSize=25'),
    );
    expect(requests.map((request) => request.path)).toContain('/api/users/parents?q=cal&pageSize=25');
    fireEvent.click(await screen.findByRole('option', { name: /Cal Lee/ }));
    expect(screen.queryByRole('option', { name: /Ann Day/ })).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: EVENTS_TEXT.preview }));
    await waitFor(() =>
      expect(requests.some((request) => request.path.startsWith('/api/events/add-recipients'))).toBe(true),
    );
    const sent = requests.find((request) => request.path.startsWith('/api/events/add-recipients'));
    expect(JSON.parse(String(sent?.init.body))).toEqual({ userIds: [60] });
  });
});

describe('recipients: all the parents of a district (decision 035)', () => {
  it('counts everyone, names the first of them and says how many more', async () => {
    const named = Array.from({ length: 50 }, (_, index) => ({
      id: 1000 + index,
      name: `Parent ${index + 1}`,
      email: `p${index + 1}@hill.test`,
    }));
    routes['/api/events/add-recipients'] = () =>
      json(200, {
        toAdd: named,
        toAddCount: 20000,
        alreadyAdded: [],
        alreadyAddedCount: 1200,
        added: 0,
        message: '20000 to add, 1200 already added.',
      });
    await openPage();
    fireEvent.click(await screen.findByRole('button', { name: EVENTS_TEXT.addAllParents }));
    const dialog = await screen.findByRole('dialog', { name: EVENTS_TEXT.previewTitle });
    expect(
      within(dialog).getByText(/20,000 people will be added\. 1,200 already on the list\./),
    ).toBeTruthy();
    expect(within(dialog).getByText(/^Parent 1, Parent 2, .* Parent 50 and 19,950 more\.$/)).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Add 20,000' })).toBeTruthy();
  });
});

describe('messages: a district’s message goes on after the answer (decision 037)', () => {
  const job = (over: Partial<JobProgress>): JobProgress => ({
    id: 77,
    kind: 'event-message',
    status: 'running',
    done: 2000,
    total: 4000,
    message: 'Sending reminder: 2,000 of 4,000 recipients.',
    createdAt: '2026-12-07T10:00:00.000Z',
    ...over,
  });

  it('shows how far it has got, and says so when it is done', async () => {
    let progress: JobProgress[] = [];
    routes['/api/jobs/of-event'] = () => json(200, { items: progress });
    routes['/api/message-types/send'] = () => {
      progress = [job({})];
      return json(200, { sent: 2000, message: progress[0]?.message, job: progress[0] });
    };
    await openPage();
    choose(document.body, /^Message/, EVENTS_TEXT.reminder);
    fireEvent.click(screen.getByRole('button', { name: EVENTS_TEXT.send }));
    const dialog = await screen.findByRole('dialog', { name: EVENTS_TEXT.sendTitle });
    fireEvent.click(within(dialog).getByRole('button', { name: EVENTS_TEXT.send }));
    const bar = await screen.findByRole('progressbar', { name: EVENTS_TEXT.sendingProgress });
    expect(bar.getAttribute('aria-valuenow')).toBe('50');
    expect(screen.getByText(EVENTS_TEXT.sendingGoesOn)).toBeTruthy();
    // The card asks again while it runs; once done, the bar goes and the snackbar says what was sent.
    progress = [job({ status: 'done', done: 4000, message: 'Reminder sent to 4,000 recipients.' })];
    // Asked again by the card's own timer (JOB_POLL_MS): waited for with room for a loaded machine.
    expect(await snackbar('Reminder sent to 4,000 recipients.', 10 * JOB_POLL_MS)).toBe('success');
    await waitFor(() =>
      expect(screen.queryByRole('progressbar', { name: EVENTS_TEXT.sendingProgress })).toBeNull(),
    );
  });

  it('warns of a message that stopped', async () => {
    routes['/api/jobs/of-event'] = () =>
      json(200, {
        items: [job({ status: 'failed', message: 'Reminder stopped after 2,000 of 4,000 recipients.' })],
      });
    await openPage();
    expect(await screen.findByText('Reminder stopped after 2,000 of 4,000 recipients.')).toBeTruthy();
  });
});
