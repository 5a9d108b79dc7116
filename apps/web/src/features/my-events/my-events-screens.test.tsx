import type { CurrentUser } from '@parley/domain/auth';
import type { BookingPage, MyBooking, TeacherSchedule } from '@parley/domain/booking';
import { STORAGE_KEYS } from '@parley/domain/constants';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
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
import { teacherScheduleQuery } from './api';
import { NO_ANSWER_TEXT } from './my-events-text';

// The teacher's schedule and the family's bookings pages through the real router, guard, providers and
// API client; only fetch is faked.

const family: CurrentUser = {
  ...adminUser,
  id: 30,
  firstName: 'Pat',
  lastName: 'Lee',
  fullName: 'Pat Lee',
  email: 'pat@hill.test',
  userTypeId: 4,
  userTypeName: 'Parent',
  userTypes: [{ id: 4, name: 'Parent' }],
  role: 'parent',
  roles: ['parent', 'teacher'],
  clickRole: 'parent',
  iAmAdmin: false,
  isAdmin: false,
  isParent: true,
  isTeacher: true,
};

const schedule = (over: Partial<TeacherSchedule> = {}): TeacherSchedule => ({
  event: {
    id: 5,
    name: 'Spring evening',
    subscriberName: 'Hill School',
    timeZone: 'Europe/London',
    sectionTimeLabels: ['Thu 12 Mar 2026, 16:00 – 19:00'],
    status: 1,
    meetingMode: 'inPerson',
  },
  teacher: { id: 30, name: 'Pat Lee', videoUrl: 'https://meet.test/pat' },
  days: [
    {
      sectionId: 1,
      dateLabel: 'Thu 12 Mar 2026',
      rows: [
        {
          slotId: 100,
          sectionId: 1,
          startsAt: '2026-03-12T16:00:00.000Z',
          endsAt: '2026-03-12T16:10:00.000Z',
          time: '16:00',
          endTime: '16:10',
          location: 'Room 4',
          bookings: [
            {
              bookingId: 900,
              parentName: 'Ann Day',
              parentEmail: 'ann@hill.test',
              studentName: 'Jo Day',
              subjectName: 'Maths',
            },
          ],
        },
        {
          slotId: 101,
          sectionId: 1,
          startsAt: '2026-03-12T16:10:00.000Z',
          endsAt: '2026-03-12T16:20:00.000Z',
          time: '16:10',
          endTime: '16:20',
          location: 'Room 4',
          bookings: [],
        },
      ],
    },
  ],
  bookedCount: 1,
  lateMinutes: 0,
  asOf: '2026-03-12T09:05:07.000Z',
  ...over,
});

const booking = (over: Partial<MyBooking> = {}): MyBooking => ({
  id: 700,
  slotId: 100,
  sectionId: 1,
  startsAt: '2026-03-12T16:00:00.000Z',
  endsAt: '2026-03-12T16:10:00.000Z',
  timeLabel: 'Thu 12 Mar 2026, 16:00 – 16:10',
  time: '16:00',
  endTime: '16:10',
  teacherId: 3,
  teacherName: 'Mr Brown',
  videoUrl: null,
  studentId: 8,
  studentName: 'Sam Lee',
  parentId: 30,
  parentName: 'Pat Lee',
  subjectId: 2,
  subjectName: 'Maths',
  location: 'Room 4',
  guests: 0,
  gownSize: null,
  status: 'booked',
  confirmed: true,
  ...over,
});

const bookingView = (bookings: MyBooking[], isOpen = true): BookingPage => ({
  event: {
    id: 5,
    name: 'Spring evening',
    code: 'ABC123',
    eventTypeName: 'Parent teacher',
    eventTypeGroupInt: 1,
    status: 1,
    statusLabel: { text: 'Enabled', color: 'success' },
    subscriberName: 'Hill School',
    bookingPageMessage: null,
    timeZone: 'Europe/London',
    opensAt: null,
    closesAt: null,
    opensAtLabel: null,
    closesAtLabel: null,
    isOpen,
    closedReason: isOpen ? null : 'Bookings for this event are closed.',
    options: {
      slotMinutes: 10,
      breakMinutes: 0,
      travelMinutes: 0,
      usersPerSlot: 1,
      guestAllowance: 0,
      gownSizes: [],
      maxAppointmentsPerChild: null,
    },
    guestCountOptions: [],
    gownOptions: [],
    sections: [
      {
        id: 1,
        date: '2026-03-12',
        start: '16:00',
        end: '19:00',
        startsAt: '2026-03-12T16:00:00.000Z',
        endsAt: '2026-03-12T19:00:00.000Z',
        location: 'Main hall',
        label: 'Thu 12 Mar 2026, 16:00 – 19:00',
      },
    ],
    sectionTimeLabels: ['Thu 12 Mar 2026, 16:00 – 19:00'],
    bookingPath: '/book/ptevent/ABC123',
    meetingMode: 'inPerson',
  },
  studentId: null,
  viewer: { userId: 30, name: 'Pat Lee', email: 'pat@hill.test', bookAs: 'parent', viaLink: false },
  children: [],
  teachers: [],
  grid: [],
  bookings,
  lateNotes: [],
});

let routes: Record<string, Handler>;
let requests: RecordedRequest[];

function signIn(user: CurrentUser = family) {
  localStorage.setItem(STORAGE_KEYS.accessToken, 'tok-1');
  localStorage.setItem(STORAGE_KEYS.currentUser, JSON.stringify(user));
  reloadSession();
}

const called = (path: string) => requests.filter((request) => request.path === path);

beforeEach(() => {
  localStorage.clear();
  queryClient.clear();
  requests = [];
  routes = { '/api/site/config': () => json(200, siteConfig) };
  stubFetch(
    (path) => routes[path],
    () => requests,
  );
  signIn();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
  reloadSession();
});

describe('teacher schedule (/event/details-teacher)', () => {
  it('lists each time with family, child, subject and location; free times muted; video link', async () => {
    routes['/api/events/details-teacher'] = () => json(200, schedule());
    renderAt('/event/details-teacher?eventId=5');
    expect(await screen.findByRole('heading', { name: 'Spring evening', level: 1 })).toBeTruthy();
    expect(called('/api/events/details-teacher?eventId=5')).toHaveLength(1);
    expect(screen.getByRole('heading', { name: 'Thu 12 Mar 2026', level: 2 })).toBeTruthy();
    const rows = within(screen.getByRole('table')).getAllByRole('row');
    expect(rows.map((row) => Array.from(row.children, (cell) => cell.textContent))).toEqual([
      ['Time', 'Family', 'Child', 'Subject', 'Location'],
      ['16:00–16:10', 'Ann Day', 'Jo Day', 'Maths', 'Room 4'],
      ['16:10–16:20', 'Free', 'Room 4'],
    ]);
    expect(rows[2]?.getAttribute('data-free')).toBe('true');
    expect(screen.getByRole('link', { name: 'https://meet.test/pat' }).getAttribute('href')).toBe(
      'https://meet.test/pat',
    );
    expect(screen.getByText('Updated 09:05:07')).toBeTruthy();
    expect(screen.getByText('Updating live as bookings arrive')).toBeTruthy();
    expect(screen.getByText('1 appointment booked')).toBeTruthy();
    // Opened, it becomes the current event (an effect's work: in the task after the render).
    await waitFor(() =>
      expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.currentEvent) ?? 'null')).toEqual({
        id: 5,
        name: 'Spring evening',
      }),
    );
  });

  it('links each booked time to its call when the evening is held by video', async () => {
    const base = schedule();
    routes['/api/events/details-teacher'] = () =>
      json(200, { ...base, event: { ...base.event, meetingMode: 'video' } });
    renderAt('/event/details-teacher?eventId=5');
    const row = within(await screen.findByRole('table')).getAllByRole('row')[1] as HTMLElement;
    expect(within(row).getByRole('link', { name: 'Join the call' }).getAttribute('href')).toBe('/call/900');
    expect(screen.getAllByRole('link', { name: 'Join the call' })).toHaveLength(1);
  });

  it('prints with window.print', async () => {
    routes['/api/events/details-teacher'] = () => json(200, schedule());
    const print = vi.fn();
    vi.stubGlobal('print', print);
    renderAt('/event/details-teacher?eventId=5');
    fireEvent.click(await screen.findByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledTimes(1);
  });

  it('refreshes itself every 15 s and on focus', () => {
    const options = teacherScheduleQuery(5);
    expect(options.refetchInterval).toBe(15_000);
    expect(options.refetchOnWindowFocus).toBe('always');
  });

  it('shows a fresh booking after the next refresh', async () => {
    let answer = schedule({
      days: [{ sectionId: 1, dateLabel: 'Thu 12 Mar 2026', rows: [] }],
      bookedCount: 0,
    });
    routes['/api/events/details-teacher'] = () => json(200, answer);
    renderAt('/events/view-teacher-event/5');
    expect(await screen.findByText('You have no times at this event.')).toBeTruthy();
    answer = schedule({ asOf: '2026-03-12T09:05:22.000Z' });
    await queryClient.refetchQueries({ queryKey: ['my-events', 'teacher-schedule', 5] });
    expect(await screen.findByText('Ann Day')).toBeTruthy();
    expect(screen.getByText('Updated 09:05:22')).toBeTruthy();
  });

  it('falls back to the stored current event, and says so when there is none', async () => {
    routes['/api/events/details-teacher'] = () => json(200, schedule());
    localStorage.setItem(STORAGE_KEYS.currentEvent, JSON.stringify({ id: 5, name: 'Spring evening' }));
    renderAt('/event/details-teacher');
    expect(await screen.findByRole('heading', { name: 'Spring evening', level: 1 })).toBeTruthy();
    expect(called('/api/events/details-teacher?eventId=5')).toHaveLength(1);
    cleanup();
    localStorage.removeItem(STORAGE_KEYS.currentEvent);
    renderAt('/event/details-teacher');
    expect(await screen.findByText('No event chosen. Open an event from Home.')).toBeTruthy();
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'Home' }).getAttribute('href')).toBe(
      '/home',
    );
  });

  it("shows the server's message when the schedule cannot be loaded", async () => {
    routes['/api/events/details-teacher'] = () => json(404, { message: 'Event not found.' });
    renderAt('/event/details-teacher?eventId=77');
    expect(await screen.findByText('Event not found.')).toBeTruthy();
  });
});

describe('my bookings (/event/details-parent, /event/details-student)', () => {
  it('shows the event header and each booking with Change and Cancel while open', async () => {
    routes['/api/events/booking-view'] = () =>
      json(
        200,
        bookingView([
          booking({
            id: 701,
            startsAt: '2026-03-12T16:30:00.000Z',
            timeLabel: 'Thu 12 Mar 2026, 16:30 – 16:40',
            teacherName: 'Ms Green',
            videoUrl: 'https://meet.test/green',
          }),
          booking(),
          booking({ id: 702, status: 'cancelled', teacherName: 'Mr Gone' }),
        ]),
      );
    renderAt('/event/details-parent?eventId=5');
    expect(await screen.findByRole('heading', { name: 'Spring evening', level: 1 })).toBeTruthy();
    expect(called('/api/events/booking-view?eventId=5')).toHaveLength(1);
    const main = within(screen.getByRole('main'));
    expect(main.getByText('Hill School')).toBeTruthy();
    expect(main.getByText('Thu 12 Mar 2026, 16:00 – 19:00')).toBeTruthy();
    expect(main.getByText('Main hall')).toBeTruthy();
    const list = screen.getByRole('list', { name: 'My bookings' });
    const cards = within(list).getAllByRole('listitem');
    expect(cards.map((card) => within(card).getByRole('heading').textContent)).toEqual([
      'Thu 12 Mar 2026, 16:00 – 16:10',
      'Thu 12 Mar 2026, 16:30 – 16:40',
    ]);
    const [first, second] = cards as [HTMLElement, HTMLElement];
    expect(within(first).getByText('Mr Brown')).toBeTruthy();
    expect(within(first).getByText('Sam Lee')).toBeTruthy();
    expect(within(first).getByText('Maths')).toBeTruthy();
    expect(within(first).getByText('Room 4')).toBeTruthy();
    expect(within(first).getByRole('link', { name: 'Change' }).getAttribute('href')).toBe(
      '/book/ptevent/ABC123',
    );
    expect(within(first).getByRole('button', { name: 'Cancel' })).toBeTruthy();
    expect(within(second).getByRole('link', { name: 'Join video call' }).getAttribute('href')).toBe(
      'https://meet.test/green',
    );
    expect(screen.queryByText('Mr Gone')).toBeNull();
  });

  it('offers each booking’s call when the evening is held by video, and none in person', async () => {
    const view = bookingView([booking()]);
    routes['/api/events/booking-view'] = () =>
      json(200, { ...view, event: { ...view.event, meetingMode: 'video' } });
    renderAt('/event/details-parent?eventId=5');
    const join = await screen.findByRole('link', { name: 'Join the video call' });
    expect(join.getAttribute('href')).toBe(`/call/${booking().id}`);
    cleanup();
    queryClient.clear();
    routes['/api/events/booking-view'] = () => json(200, view);
    renderAt('/event/details-parent?eventId=5');
    expect(await screen.findByRole('heading', { name: 'Spring evening', level: 1 })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Join the video call' })).toBeNull();
  });

  it('cancels after confirmation, then reloads the bookings', async () => {
    let bookings = [booking()];
    routes['/api/events/booking-view'] = () => json(200, bookingView(bookings));
    routes['/api/events/remove-booking'] = () => {
      bookings = [];
      return json(200, { message: 'Booking cancelled.', bookings: [], created: [] });
    };
    renderAt('/event/details-student?eventId=5');
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this booking?' });
    expect(within(dialog).getByText(/Thu 12 Mar 2026, 16:00 – 16:10 with Mr Brown/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel booking' }));
    expect(await screen.findByText('Booking cancelled.')).toBeTruthy();
    expect(await screen.findByText('No bookings found.')).toBeTruthy();
    const removal = called('/api/events/remove-booking?eventId=5');
    expect(removal).toHaveLength(1);
    expect(removal[0]?.init.method).toBe('POST');
    expect(JSON.parse(String(removal[0]?.init.body))).toEqual({ bookingId: 700 });
    expect(called('/api/events/booking-view?eventId=5')).toHaveLength(2);
  });

  it('keeps the booking when the dialog is dismissed, and shows a failed cancel', async () => {
    routes['/api/events/booking-view'] = () => json(200, bookingView([booking()]));
    routes['/api/events/remove-booking'] = () =>
      json(409, { message: 'Bookings for this event are closed.' });
    renderAt('/event/details-parent?eventId=5');
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    let dialog = await screen.findByRole('dialog', { name: 'Cancel this booking?' });
    // Issue 36 (8): the two buttons cannot be mistaken for one another.
    expect(
      within(dialog)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Keep booking', 'Cancel booking']);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep booking' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(called('/api/events/remove-booking?eventId=5')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    dialog = await screen.findByRole('dialog', { name: 'Cancel this booking?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel booking' }));
    expect(await screen.findByText('Bookings for this event are closed.')).toBeTruthy();
    expect(screen.getByText('Mr Brown')).toBeTruthy();
  });

  it('says the family is offline when no answer comes, not only that the bookings could not load', async () => {
    routes['/api/events/booking-view'] = () => Promise.reject(new TypeError('Failed to fetch'));
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const defaults = queryClient.getDefaultOptions();
    queryClient.setDefaultOptions({ ...defaults, queries: { ...defaults.queries, retry: false } });
    try {
      renderAt('/event/details-parent?eventId=5');
      expect(await screen.findByText(NO_ANSWER_TEXT)).toBeTruthy();
      expect(screen.getByText(/You are offline/)).toBeTruthy();
    } finally {
      queryClient.setDefaultOptions(defaults);
    }
  });

  it('says "No bookings found." with a Book now button to the booking page', async () => {
    routes['/api/events/booking-view'] = () => json(200, bookingView([]));
    renderAt('/events/view-parent-event/5');
    expect(await screen.findByText('No bookings found.')).toBeTruthy();
    expect(called('/api/events/booking-view?eventId=5')).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Book now' }).getAttribute('href')).toBe('/book/ptevent/ABC123');
  });

  it('offers no Change, Cancel or Book now once bookings are closed, and says why', async () => {
    routes['/api/events/booking-view'] = () => json(200, bookingView([booking()], false));
    renderAt('/events/view-student-event/5');
    expect(await screen.findByText('Bookings for this event are closed.')).toBeTruthy();
    expect(screen.getByText('Mr Brown')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Change' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
    cleanup();
    queryClient.clear();
    routes['/api/events/booking-view'] = () => json(200, bookingView([], false));
    renderAt('/events/view-student-event/5');
    expect(await screen.findByText('No bookings found.')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Book now' })).toBeNull();
  });
});
