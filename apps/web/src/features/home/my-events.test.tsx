import type { CurrentUser } from '@parley/domain/auth';
import type { OpenEventSummaryItem } from '@parley/domain/booking';
import { PAGE_ELEMENT_IDS, STORAGE_KEYS } from '@parley/domain/constants';
import type { HomeData } from '@parley/domain/home';
import type { Role } from '@parley/domain/roles';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetFirstAnswers } from '../../lib/first-answers';
import { queryClient } from '../../lib/query-client';
import { reloadSession } from '../../lib/session';
import { renderAt } from '../../test-support/render-app';
import {
  adminUser,
  emptyHomeData,
  type Handler,
  json,
  type RecordedRequest,
  siteConfig,
  stubFetch,
} from '../../test-support/screen-fixtures';

// Home "My Events" (spec §2 Home) through the real router, guard, providers and API client; only fetch
// is faked.

const LABELS: Record<Role, string> = {
  admin: 'Admin',
  teacher: 'Teacher',
  parent: 'Parent',
  student: 'Student',
};

function userWith(roles: Role[]): CurrentUser {
  const primary = roles[0] ?? null;
  return {
    ...adminUser,
    id: 21,
    firstName: 'Tom',
    lastName: 'Reed',
    fullName: 'Tom Reed',
    email: 'tom@hill.test',
    role: primary,
    roles,
    clickRole: primary,
    iAmAdmin: roles.includes('admin'),
    isAdmin: roles.includes('admin'),
    isTeacher: roles.includes('teacher'),
    isParent: roles.includes('parent'),
    isStudent: roles.includes('student'),
    loginCount: 9,
  };
}

function item(over: Partial<OpenEventSummaryItem> = {}): OpenEventSummaryItem {
  return {
    id: 5,
    name: 'Spring evening',
    subscriber: 'Hill School',
    statusLabel: { text: 'Enabled', color: 'success' },
    link: '/event/details-parent?eventId=5',
    bookingLink: '/book/ptevent/ABC123',
    enableTicket: false,
    eventTypeGroupInt: 1,
    iCanScan: false,
    isActive: true,
    isEnabled: true,
    eventDate: '2026-03-12T16:00:00.000Z',
    eventDetails: 'Thu 12 Mar 2026, 16:00 – 19:00',
    location: 'Main hall',
    calendarStatus: 'notAdded',
    teacherBookingDetails: null,
    parentBookingDetails: null,
    studentBookingDetails: null,
    bookingDetails: 'No bookings found.',
    teacherBookingsCountForEvent: 0,
    parentTimeToBooking: null,
    studentTimeToBooking: null,
    lateNotes: [],
    ...over,
  };
}

function home(roles: Role[], lists: Partial<HomeData> = {}): HomeData {
  return {
    ...emptyHomeData,
    viewAsSelectorItems: roles
      .filter((role) => role !== 'admin')
      .map((role) => ({ value: role, label: LABELS[role] })),
    ...lists,
  };
}

let routes: Record<string, Handler>;
let requests: RecordedRequest[];

function signIn(user: CurrentUser) {
  localStorage.setItem(STORAGE_KEYS.accessToken, 'tok-1');
  localStorage.setItem(STORAGE_KEYS.currentUser, JSON.stringify(user));
  reloadSession();
}

function openHome(user: CurrentUser, data: HomeData) {
  routes['/api/site/index'] = () => json(200, data);
  signIn(user);
  return renderAt('/home');
}

const myEvents = () => screen.getByRole('region', { name: 'My Events' });
const viewAs = () => within(myEvents()).queryByRole('combobox', { name: 'View as' });

async function chooseRole(label: string) {
  const select = viewAs();
  if (!select) throw new Error('no View as selector');
  fireEvent.mouseDown(select);
  fireEvent.click(await screen.findByRole('option', { name: label }));
}

beforeEach(() => {
  localStorage.clear();
  queryClient.clear();
  requests = [];
  routes = { '/api/site/config': () => json(200, siteConfig) };
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

describe('My Events: View as (spec §2 Home)', () => {
  it('shows no selector for one role, and no My Events for an admin only', async () => {
    openHome(userWith(['parent']), home(['parent']));
    expect(await screen.findByText('There are no open parent events')).toBeTruthy();
    expect(viewAs()).toBeNull();
    cleanup();
    queryClient.clear();
    localStorage.clear();
    openHome(userWith(['admin']), home(['admin']));
    expect(await screen.findByRole('list', { name: 'Counts' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'My Events' })).toBeNull();
  });

  it('offers the roles (never Admin), defaults to the first and remembers the choice', async () => {
    const roles: Role[] = ['admin', 'teacher', 'parent', 'student'];
    openHome(userWith(roles), home(roles));
    expect(await screen.findByText('There are no open teacher events')).toBeTruthy();
    // Admins still see their tiles above.
    expect(screen.getByRole('list', { name: 'Counts' })).toBeTruthy();
    expect(viewAs()?.textContent).toBe('Teacher');
    fireEvent.mouseDown(viewAs() as HTMLElement);
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['Teacher', 'Parent', 'Student']);
    fireEvent.click(screen.getByRole('option', { name: 'Student' }));
    expect(await screen.findByText('There are no open student events')).toBeTruthy();
    expect(localStorage.getItem(STORAGE_KEYS.lastViewAsRole)).toBe('student');

    cleanup();
    renderAt('/home');
    expect(await screen.findByText('There are no open student events')).toBeTruthy();
    expect(viewAs()?.textContent).toBe('Student');
  });

  it('falls back to the first entry when the remembered role is not offered', async () => {
    localStorage.setItem(STORAGE_KEYS.lastViewAsRole, 'teacher');
    openHome(userWith(['parent', 'student']), home(['parent', 'student']));
    expect(await screen.findByText('There are no open parent events')).toBeTruthy();
    await chooseRole('Student');
    expect(await screen.findByText('There are no open student events')).toBeTruthy();
  });

  it('says "Some user details missing. Hit the refresh button." for a role the user does not hold', async () => {
    // The stored user predates the teacher role the server now lists.
    const fresh = userWith(['parent', 'teacher']);
    routes['/api/users/data'] = () => json(200, fresh);
    openHome(userWith(['parent']), home(['teacher', 'parent']));
    expect(await screen.findByText('Some user details missing. Hit the refresh button.')).toBeTruthy();
    fireEvent.click(within(myEvents()).getByRole('button', { name: 'Refresh My Events' }));
    expect(await screen.findByText('There are no open teacher events', {}, { timeout: 4000 })).toBeTruthy();
    expect(requests.some((request) => request.path === '/api/site/index?forceRefresh=1')).toBe(true);
  });
});

describe('My Events: the lists (spec §2 Home)', () => {
  it('teacher: status chip, name, subscriber, booking details, View bookings, tap → event.details-teacher', async () => {
    openHome(
      userWith(['teacher']),
      home(['teacher'], {
        teacherOpenEventsSummary: [
          item({ id: 5, teacherBookingDetails: '4 of 12 times booked' }),
          item({ id: 6, name: 'Year 9 evening', statusLabel: { text: 'Disabled', color: 'error' } }),
        ],
      }),
    );
    const list = await screen.findByRole('list', { name: 'Teacher events' });
    const cards = within(list).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    const [first, second] = cards as [HTMLElement, HTMLElement];
    expect(within(first).getByText('Enabled')).toBeTruthy();
    expect(within(first).getByText('Hill School')).toBeTruthy();
    expect(within(first).getByText('4 of 12 times booked')).toBeTruthy();
    expect(within(first).getByRole('link', { name: 'Spring evening' }).getAttribute('href')).toBe(
      '/event/details-teacher?eventId=5',
    );
    expect(within(first).getByRole('link', { name: 'View bookings' }).getAttribute('href')).toBe(
      '/event/details-teacher?eventId=5',
    );
    expect(within(second).getByText('Disabled')).toBeTruthy();
    expect(within(second).getByText('No bookings found.')).toBeTruthy();
    expect(within(list).queryByRole('link', { name: 'Update booking' })).toBeNull();
    expect(within(list).queryByRole('link', { name: 'Open the door page' })).toBeNull();
  });

  it('teacher named as a scanner of a ticketed event: Scan Tickets and a link to its door page (issue 36)', async () => {
    openHome(
      userWith(['teacher']),
      home(['teacher'], {
        teacherOpenEventsSummary: [
          item({ id: 6, name: 'Summer concert', enableTicket: true, eventTypeGroupInt: 2, iCanScan: true }),
          item({ id: 7, name: 'Prom', enableTicket: true, eventTypeGroupInt: 2, iCanScan: false }),
        ],
      }),
    );
    const list = await screen.findByRole('list', { name: 'Teacher events' });
    const [concert, prom] = within(list).getAllByRole('listitem') as [HTMLElement, HTMLElement];
    expect(within(concert).getByRole('button', { name: 'Scan Tickets' })).toBeTruthy();
    expect(within(concert).getByRole('link', { name: 'Open the door page' }).getAttribute('href')).toBe(
      '/events/door/6',
    );
    expect(within(prom).queryByRole('link', { name: 'Open the door page' })).toBeNull();
  });

  it('parent: Update booking while enabled and active, Show Ticket for ticketed, tap → details-parent', async () => {
    openHome(
      userWith(['parent']),
      home(['parent'], {
        parentOpenEventsSummary: [
          item({ id: 5, parentBookingDetails: '2 appointments booked', parentTimeToBooking: 'in 3 days' }),
          item({ id: 6, name: 'Summer concert', enableTicket: true, eventTypeGroupInt: 2 }),
          item({ id: 7, name: 'Closed evening', isActive: false }),
        ],
      }),
    );
    const list = await screen.findByRole('list', { name: 'Parent events' });
    const [spring, concert, closed] = within(list).getAllByRole('listitem') as [
      HTMLElement,
      HTMLElement,
      HTMLElement,
    ];
    expect(within(spring).getByText('2 appointments booked')).toBeTruthy();
    expect(within(spring).getByText('in 3 days')).toBeTruthy();
    expect(within(spring).queryByText('Enabled')).toBeNull();
    expect(within(spring).getByRole('link', { name: 'Spring evening' }).getAttribute('href')).toBe(
      '/event/details-parent?eventId=5',
    );
    expect(within(spring).getByRole('link', { name: 'Update booking' }).getAttribute('href')).toBe(
      '/book/ptevent/ABC123',
    );
    expect(within(spring).queryByRole('button', { name: 'Show Ticket' })).toBeNull();
    const ticket = within(concert).getByRole('button', { name: 'Show Ticket' }) as HTMLButtonElement;
    expect(ticket.disabled).toBe(false);
    expect(within(closed).queryByRole('link', { name: 'Update booking' })).toBeNull();
    expect(within(list).queryByRole('button', { name: 'Add to Calendar' })).toBeNull();
    expect(within(list).queryByRole('button', { name: 'Scan Tickets' })).toBeNull();
  });

  it('student: Update booking, Show Ticket, Scan Tickets and Add to Calendar by their rules', async () => {
    openHome(
      userWith(['student']),
      home(['student'], {
        studentOpenEventsSummary: [
          item({ id: 5 }),
          item({ id: 6, name: 'Prom', enableTicket: true, eventTypeGroupInt: 3, iCanScan: true }),
          item({ id: 7, name: 'Disabled evening', isEnabled: false }),
        ],
      }),
    );
    const list = await screen.findByRole('list', { name: 'Student events' });
    const [spring, prom, disabled] = within(list).getAllByRole('listitem') as [
      HTMLElement,
      HTMLElement,
      HTMLElement,
    ];
    const names = (card: HTMLElement) =>
      Array.from(
        card.querySelectorAll('a, button'),
        (element) => element.getAttribute('aria-label') ?? element.textContent,
      );
    expect(within(spring).getByRole('link', { name: 'Spring evening' }).getAttribute('href')).toBe(
      '/event/details-student?eventId=5',
    );
    expect(names(spring)).toEqual(['Spring evening', 'Update booking', 'Add to Calendar']);
    expect(names(prom)).toEqual([
      'Prom',
      'Update booking',
      'Show Ticket',
      'Scan Tickets',
      'Open the door page',
      'Add to Calendar',
    ]);
    expect(within(prom).getByRole('link', { name: 'Open the door page' }).getAttribute('href')).toBe(
      '/events/door/6',
    );
    expect((within(prom).getByRole('button', { name: 'Scan Tickets' }) as HTMLButtonElement).disabled).toBe(
      false,
    );
    expect(names(disabled)).toEqual(['Disabled evening']);
  });

  it('Add to Calendar: confirmation with name, date and reminder; downloads the .ics and marks it added', async () => {
    const ics = 'BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n';
    routes['/api/events/calendar-file'] = () =>
      new Response(ics, {
        status: 200,
        headers: {
          'Content-Type': 'text/calendar',
          'Content-Disposition': 'attachment; filename="spring.ics"',
        },
      });
    const createObjectURL = vi.fn(() => 'blob:calendar');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    openHome(userWith(['student']), home(['student'], { studentOpenEventsSummary: [item({ id: 5 })] }));

    fireEvent.click(await screen.findByRole('button', { name: 'Add to Calendar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add to Calendar' });
    expect(within(dialog).getByText('Spring evening')).toBeTruthy();
    expect(within(dialog).getByText('Thu 12 Mar 2026, 16:00 – 19:00')).toBeTruthy();
    expect(within(dialog).getByText('Reminder: 1 day before')).toBeTruthy();
    // In a browser (spec §8): the device calendar is for mobile devices; the event comes as a file.
    expect(within(dialog).getByText('Calendar access is only available on mobile devices.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));

    expect(await screen.findByRole('button', { name: 'Added to Calendar' })).toBeTruthy();
    expect(requests.some((request) => request.path === '/api/events/calendar-file?eventId=5')).toBe(true);
    expect(click).toHaveBeenCalled();
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.calendarEvents) ?? '[]')).toEqual([
      { id: 5, name: 'Spring evening' },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add to Calendar' })).toBeNull());
    click.mockRestore();
  });

  it('Add to Calendar: a failed download says "Failed to add event to calendar" and marks nothing', async () => {
    routes['/api/events/calendar-file'] = () => json(500, {});
    openHome(userWith(['student']), home(['student'], { studentOpenEventsSummary: [item({ id: 5 })] }));
    fireEvent.click(await screen.findByRole('button', { name: 'Add to Calendar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add to Calendar' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Failed to add event to calendar')).toBeTruthy();
    expect(localStorage.getItem(STORAGE_KEYS.calendarEvents)).toBeNull();
  });

  it('an event the server or this device already has in the calendar shows "Added to Calendar"', async () => {
    localStorage.setItem(STORAGE_KEYS.calendarEvents, JSON.stringify([{ id: 6, name: 'Prom' }]));
    openHome(
      userWith(['student']),
      home(['student'], {
        studentOpenEventsSummary: [
          item({ id: 5, calendarStatus: 'added' }),
          item({ id: 6, name: 'Prom' }),
          item({ id: 7, name: 'Fair' }),
        ],
      }),
    );
    const list = await screen.findByRole('list', { name: 'Student events' });
    expect(within(list).getAllByRole('button', { name: 'Added to Calendar' })).toHaveLength(2);
    expect(within(list).getAllByRole('button', { name: 'Add to Calendar' })).toHaveLength(1);
  });

  it('a tap opens the details page', async () => {
    routes['/api/events/details-teacher'] = () => json(404, { message: 'Event not found.' });
    const router = openHome(userWith(['teacher']), home(['teacher'], { teacherOpenEventsSummary: [item()] }));
    fireEvent.click(await screen.findByRole('link', { name: 'Spring evening' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/event/details-teacher'));
    expect(router.state.location.search).toBe('?eventId=5');
  });
});

describe('My Events: tickets (issue 10)', () => {
  const concert = item({ id: 6, name: 'Summer concert', enableTicket: true, eventTypeGroupInt: 2 });
  const ticketAnswer = (userId: number, userName: string) => ({
    data: {
      success: true,
      ticket: {
        ticketId: `Ticket${userId}`,
        eventId: 6,
        userId,
        scannedBy: null,
        scannedByName: null,
        qrCodeUrl: `http://localhost:3000/t/Ticket${userId}`,
        scanned: false,
        scannedDate: null,
        userName,
        userEmail: 'x@hill.test',
        eventName: 'Summer concert',
        guestIndex: 0,
        eventDateLabel: null,
        location: null,
      },
      tickets: [],
    },
  });
  const booked = (studentId: number | null, studentName: string | null) => ({
    studentId,
    studentName,
    parentId: 21,
    parentName: 'Tom Reed',
    status: 'booked',
  });
  const ticketRequests = () =>
    requests.filter((request) => request.path.startsWith('/api/tickets/get-event-ticket')).map((r) => r.path);

  beforeEach(() => {
    routes['/api/tickets/get-event-ticket'] = (url) => {
      const userId = Number(url.searchParams.get('userId'));
      return json(200, ticketAnswer(userId, userId === 21 ? 'Tom Reed' : `Child ${userId}`));
    };
  });

  it('student: "Show Ticket" opens "Your Ticket" with their own ticket', async () => {
    openHome(userWith(['student']), home(['student'], { studentOpenEventsSummary: [concert] }));
    fireEvent.click(await screen.findByRole('button', { name: 'Show Ticket' }));
    const dialog = await screen.findByRole('dialog', { name: 'Your Ticket' });
    expect(await within(dialog).findByText('Ready to Scan')).toBeTruthy();
    expect(ticketRequests()).toEqual(['/api/tickets/get-event-ticket?eventId=6&userId=21']);
  });

  it('parent: the ticket of the child they booked', async () => {
    routes['/api/events/booking-view'] = () => json(200, { bookings: [booked(50, 'Jo Reed')] });
    openHome(userWith(['parent']), home(['parent'], { parentOpenEventsSummary: [concert] }));
    fireEvent.click(await screen.findByRole('button', { name: 'Show Ticket' }));
    const dialog = await screen.findByRole('dialog', { name: 'Your Ticket' });
    expect(await within(dialog).findByText('Child 50')).toBeTruthy();
    expect(ticketRequests()).toEqual(['/api/tickets/get-event-ticket?eventId=6&userId=50']);
    expect(requests.some((request) => request.path === '/api/events/booking-view?eventId=6')).toBe(true);
  });

  it('parent: their own ticket when they booked for themselves', async () => {
    routes['/api/events/booking-view'] = () => json(200, { bookings: [booked(null, null)] });
    openHome(userWith(['parent']), home(['parent'], { parentOpenEventsSummary: [concert] }));
    fireEvent.click(await screen.findByRole('button', { name: 'Show Ticket' }));
    await screen.findByRole('dialog', { name: 'Your Ticket' });
    await waitFor(() =>
      expect(ticketRequests()).toEqual(['/api/tickets/get-event-ticket?eventId=6&userId=21']),
    );
  });

  it('parent: several people booked → choose whose ticket', async () => {
    routes['/api/events/booking-view'] = () =>
      json(200, { bookings: [booked(50, 'Jo Reed'), booked(51, 'Kim Reed')] });
    openHome(userWith(['parent']), home(['parent'], { parentOpenEventsSummary: [concert] }));
    fireEvent.click(await screen.findByRole('button', { name: 'Show Ticket' }));
    const menu = await screen.findByRole('menu', { name: 'Whose ticket?' });
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((entry) => entry.textContent),
    ).toEqual(['Jo Reed', 'Kim Reed']);
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Kim Reed' }));
    const dialog = await screen.findByRole('dialog', { name: 'Your Ticket' });
    expect(await within(dialog).findByText('Child 51')).toBeTruthy();
    expect(ticketRequests()).toEqual(['/api/tickets/get-event-ticket?eventId=6&userId=51']);
  });

  it('"Scan Tickets" on a desktop opens "Mobile Device Required"', async () => {
    openHome(
      userWith(['student']),
      home(['student'], { studentOpenEventsSummary: [{ ...concert, iCanScan: true }] }),
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Scan Tickets' }));
    expect(await screen.findByRole('dialog', { name: 'Mobile Device Required' })).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Scan Ticket' })).toBeNull();
  });

  it('"Scan Tickets" on a phone opens the scanner', async () => {
    Object.defineProperty(navigator, 'mediaDevices', {
      configurable: true,
      value: { getUserMedia: () => new Promise(() => {}) },
    });
    Object.defineProperty(navigator, 'maxTouchPoints', { configurable: true, value: 5 });
    try {
      openHome(
        userWith(['teacher']),
        home(['teacher'], { teacherOpenEventsSummary: [{ ...concert, iCanScan: true }] }),
      );
      fireEvent.click(await screen.findByRole('button', { name: 'Scan Tickets' }));
      const dialog = await screen.findByRole('dialog', { name: 'Scan Ticket' });
      expect(within(dialog).getByText('Starting camera...')).toBeTruthy();
    } finally {
      Reflect.deleteProperty(navigator, 'mediaDevices');
      Reflect.deleteProperty(navigator, 'maxTouchPoints');
    }
  });
});

describe("home: the answers a signed-in visitor's page arrives with (decision 028)", () => {
  /** The block the server puts in the page of the page cookie's user (apps/server/src/plugins/web-app.ts). */
  function arriveWith(visitor: number, data: HomeData) {
    const block = document.createElement('script');
    block.type = 'application/json';
    block.id = PAGE_ELEMENT_IDS.firstAnswers;
    block.textContent = JSON.stringify({ at: Date.now(), visitor, siteConfig, home: data });
    document.body.append(block);
  }
  const never: Handler = () => new Promise(() => {});
  beforeEach(resetFirstAnswers);
  afterEach(() => document.getElementById(PAGE_ELEMENT_IDS.firstAnswers)?.remove());

  it("shows the visitor's home at once from them, without asking the API for it", async () => {
    const user = userWith(['parent']);
    routes['/api/site/index'] = never;
    arriveWith(
      user.id,
      home(['parent'], { parentOpenEventsSummary: [item({ name: 'Evening from the page' })] }),
    );
    signIn(user);
    renderAt('/home');
    expect(await screen.findByText('Evening from the page')).toBeTruthy();
    expect(document.getElementById(PAGE_ELEMENT_IDS.firstAnswers)).toBeNull();
    expect(requests.filter((request) => request.path === '/api/site/index')).toHaveLength(0);
  });

  it("asks the API as always when the page was rendered for another user than this browser's", async () => {
    const user = userWith(['parent']);
    arriveWith(user.id + 1, home(['parent'], { parentOpenEventsSummary: [item({ name: 'Not yours' })] }));
    openHome(user, home(['parent'], { parentOpenEventsSummary: [item({ name: 'Your own evening' })] }));
    expect(await screen.findByText('Your own evening')).toBeTruthy();
    expect(screen.queryByText('Not yours')).toBeNull();
    expect(requests.filter((request) => request.path === '/api/site/index')).toHaveLength(1);
  });
});
