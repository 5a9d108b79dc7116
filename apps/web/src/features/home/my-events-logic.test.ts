import type { OpenEventSummaryItem } from '@parley/domain/booking';
import { describe, expect, it } from 'vitest';
import {
  CALENDAR_ALERT_MINUTES,
  calendarAdded,
  calendarPayload,
  defaultViewAs,
  familyBookingLine,
  isInternalLink,
  isTicketed,
  itemActions,
  openEventsFor,
  parseCalendarEntries,
  roleMissing,
  showsViewAsSelector,
  teacherBookingLine,
  viewAsOptions,
  withCalendarEntry,
} from './my-events-logic';

const item = (over: Partial<OpenEventSummaryItem> = {}): OpenEventSummaryItem => ({
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
});

const TEACHER = { value: 'teacher' as const, label: 'Teacher' };
const PARENT = { value: 'parent' as const, label: 'Parent' };
const STUDENT = { value: 'student' as const, label: 'Student' };

describe('View as (spec §2 Home)', () => {
  it('offers the server items without Admin, else the non-admin roles the user holds', () => {
    expect(viewAsOptions([{ value: 'admin', label: 'Admin' }, PARENT, TEACHER], ['admin'])).toEqual([
      PARENT,
      TEACHER,
    ]);
    expect(viewAsOptions([], ['admin', 'student', 'teacher'])).toEqual([TEACHER, STUDENT]);
    expect(viewAsOptions(undefined, ['admin'])).toEqual([]);
  });

  it('appears only when more than one role applies', () => {
    expect(showsViewAsSelector([])).toBe(false);
    expect(showsViewAsSelector([PARENT])).toBe(false);
    expect(showsViewAsSelector([PARENT, STUDENT])).toBe(true);
  });

  it('defaults to the remembered choice when still offered, else the first entry', () => {
    const options = [TEACHER, PARENT, STUDENT];
    expect(defaultViewAs(options, 'student')).toBe('student');
    expect(defaultViewAs(options, null)).toBe('teacher');
    expect(defaultViewAs([PARENT, STUDENT], 'teacher')).toBe('parent');
    expect(defaultViewAs(options, 'admin')).toBe('teacher');
    expect(defaultViewAs([], 'parent')).toBeNull();
  });

  it('flags a role the user does not hold ("Some user details missing…")', () => {
    expect(roleMissing('teacher', ['admin', 'teacher'])).toBe(false);
    expect(roleMissing('parent', ['admin', 'teacher'])).toBe(true);
  });

  it("picks the role's list", () => {
    const lists = {
      teacherEventsCount: 1,
      parentEventsCount: 1,
      studentEventsCount: 1,
      teacherOpenEventsSummary: [item({ id: 1 })],
      parentOpenEventsSummary: [item({ id: 2 })],
      studentOpenEventsSummary: [item({ id: 3 })],
    };
    expect(openEventsFor(lists, 'teacher').map((event) => event.id)).toEqual([1]);
    expect(openEventsFor(lists, 'parent').map((event) => event.id)).toEqual([2]);
    expect(openEventsFor(lists, 'student').map((event) => event.id)).toEqual([3]);
  });
});

describe('which buttons show (spec §2, §4, §5, §6)', () => {
  const none = { updateBooking: false, showTicket: false, scanTickets: false, addToCalendar: false };

  it('counts groups 2 and 3 with tickets on as ticketed', () => {
    expect(isTicketed({ enableTicket: true, eventTypeGroupInt: 2 })).toBe(true);
    expect(isTicketed({ enableTicket: true, eventTypeGroupInt: 3 })).toBe(true);
    expect(isTicketed({ enableTicket: true, eventTypeGroupInt: 1 })).toBe(false);
    expect(isTicketed({ enableTicket: false, eventTypeGroupInt: 2 })).toBe(false);
  });

  it('teacher: none of the family buttons; Scan Tickets as a scanner of a ticketed event', () => {
    expect(itemActions('teacher', item({ enableTicket: true, eventTypeGroupInt: 2 }))).toEqual(none);
    expect(itemActions('teacher', item({ iCanScan: true }))).toEqual(none);
    expect(
      itemActions('teacher', item({ enableTicket: true, eventTypeGroupInt: 2, iCanScan: true })),
    ).toEqual({ ...none, scanTickets: true });
  });

  it('parent: Update booking while enabled and active; Show Ticket for ticketed events', () => {
    expect(itemActions('parent', item())).toEqual({ ...none, updateBooking: true });
    expect(itemActions('parent', item({ isActive: false }))).toEqual(none);
    expect(itemActions('parent', item({ isEnabled: false }))).toEqual(none);
    expect(itemActions('parent', item({ enableTicket: true, eventTypeGroupInt: 2 }))).toEqual({
      ...none,
      updateBooking: true,
      showTicket: true,
    });
  });

  it('student: Update booking, Show Ticket and Add to Calendar need isEnabled and isActive', () => {
    expect(itemActions('student', item())).toEqual({ ...none, updateBooking: true, addToCalendar: true });
    const ticketed = { enableTicket: true, eventTypeGroupInt: 3 };
    expect(itemActions('student', item(ticketed))).toEqual({
      updateBooking: true,
      showTicket: true,
      scanTickets: false,
      addToCalendar: true,
    });
    expect(itemActions('student', item({ ...ticketed, isActive: false }))).toEqual(none);
    expect(itemActions('student', item({ ...ticketed, isEnabled: false }))).toEqual(none);
  });

  it('student: Scan Tickets only with iCanScan on a ticketed event', () => {
    expect(itemActions('student', item({ iCanScan: true })).scanTickets).toBe(false);
    expect(
      itemActions('student', item({ iCanScan: true, enableTicket: true, eventTypeGroupInt: 2 })).scanTickets,
    ).toBe(true);
    expect(
      itemActions(
        'student',
        item({ iCanScan: true, enableTicket: true, eventTypeGroupInt: 2, isActive: false }),
      ).scanTickets,
    ).toBe(true);
  });

  it('booking lines: the role’s own summary, else the general one', () => {
    expect(teacherBookingLine(item())).toBe('No bookings found.');
    expect(teacherBookingLine(item({ teacherBookingDetails: '4 of 12 times booked' }))).toBe(
      '4 of 12 times booked',
    );
    expect(familyBookingLine('parent', item({ parentBookingDetails: '2 appointments booked' }))).toBe(
      '2 appointments booked',
    );
    expect(familyBookingLine('student', item({ parentBookingDetails: '2 appointments booked' }))).toBe(
      'No bookings found.',
    );
  });

  it('keeps app paths in the router and anything else as a plain link', () => {
    expect(isInternalLink('/book/ptevent/ABC')).toBe(true);
    expect(isInternalLink('https://parley.test/book/ptevent/ABC')).toBe(false);
    expect(isInternalLink('//evil.test/x')).toBe(false);
  });
});

describe('calendar (spec §3 calendarEvents, §4, §9)', () => {
  it('reads the stored list, ignoring anything malformed', () => {
    expect(parseCalendarEntries(null)).toEqual([]);
    expect(parseCalendarEntries('x')).toEqual([]);
    expect(parseCalendarEntries([{ id: 3, name: 'A' }, { id: 'x' }, null, { id: 4 }])).toEqual([
      { id: 3, name: 'A' },
      { id: 4, name: '' },
    ]);
  });

  it('adds an event once', () => {
    const once = withCalendarEntry([], { id: 5, name: 'Spring evening' });
    expect(withCalendarEntry(once, { id: 5, name: 'Spring evening' })).toEqual([
      { id: 5, name: 'Spring evening' },
    ]);
  });

  it('is added when the server says so or this device added it', () => {
    expect(calendarAdded(item(), [])).toBe(false);
    expect(calendarAdded(item({ calendarStatus: 'added' }), [])).toBe(true);
    expect(calendarAdded(item(), [{ id: 5, name: 'Spring evening' }])).toBe(true);
    expect(calendarAdded(item(), [{ id: 6, name: 'Other' }])).toBe(false);
  });

  it('builds a 2-hour event with a reminder 1 day before, "School" by default', () => {
    const start = Date.parse('2026-03-12T16:00:00.000Z');
    expect(calendarPayload(item())).toEqual({
      title: 'Spring evening',
      location: 'Main hall',
      notes: 'School meeting event: Spring evening',
      startDate: start,
      endDate: start + 2 * 3600_000,
      isAllDay: false,
      alertOffsetInMinutes: [1440],
    });
    expect(CALENDAR_ALERT_MINUTES).toBe(24 * 60);
    expect(calendarPayload(item({ location: null }))?.location).toBe('School');
    expect(calendarPayload(item({ eventDate: null }))).toBeNull();
  });
});
