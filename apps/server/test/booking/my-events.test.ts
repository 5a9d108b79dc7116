import { MY_EVENTS_TEXT, type OpenEventSummaryItem } from '@parley/domain/booking';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, type Member } from '../directory/directory-helpers';
import { daysAhead, eventSchool, wallTime } from '../events/events-helpers';
import { createTestApp, type TestApp } from '../test-app';
import {
  addRecipients,
  booked,
  bookingPage,
  type Evening,
  evening,
  freeSlots,
  home,
  kindEvent,
  quickMember,
} from './booking-helpers';

// Home "My Events" (spec §2 Home, §3 Open event summary item): GET site/index gives every user the open
// events of each role they hold — teacher (events they take appointments at), parent and student (events
// they are invited to or have bookings at) — with the links, labels and counts the home lists show.

let t: TestApp;
let e: Evening;
beforeAll(async () => {
  t = await createTestApp();
  e = await evening(t, { quick: true });
});
afterAll(() => t.close());

const only = (items: OpenEventSummaryItem[], id: number) => items.filter((item) => item.id === id);
const ids = (items: OpenEventSummaryItem[]) => items.map((item) => item.id);
const teacher = (i: number) => e.teachers[i] ?? e.teachers[0] ?? e.parent;
const child = (i: number) => e.children[i] ?? e.otherChild;

describe('site/index My Events for a teacher', () => {
  it('lists the event a teacher takes appointments at, with the spec fields and "No bookings found."', async () => {
    const body = await home(e, teacher(0).token);
    expect(body.viewAsSelectorItems).toEqual([{ value: 'teacher', label: 'Teacher' }]);
    expect(body.teacherEventsCount).toBe(1);
    expect(body.parentOpenEventsSummary).toEqual([]);
    expect(body.studentOpenEventsSummary).toEqual([]);
    const [item] = body.teacherOpenEventsSummary;
    expect(item).toEqual({
      id: e.eventId,
      name: 'Year 9 consultations',
      subscriber: 'Booking Academy',
      statusLabel: { text: 'Enabled', color: 'success' },
      link: `/event/details-teacher?eventId=${e.eventId}`,
      bookingLink: `/book/ptevent/${e.code}`,
      enableTicket: false,
      eventTypeGroupInt: 1,
      iCanScan: false,
      isActive: true,
      isEnabled: true,
      eventDate: expect.any(String),
      eventDetails: expect.stringMatching(/^\w{3} \d{1,2} \w{3} \d{4}, 16:00 – 18:00$/),
      location: 'Main hall',
      calendarStatus: 'notAdded',
      teacherBookingDetails: MY_EVENTS_TEXT.noBookings,
      parentBookingDetails: null,
      studentBookingDetails: null,
      bookingDetails: MY_EVENTS_TEXT.noBookings,
      teacherBookingsCountForEvent: 0,
      parentTimeToBooking: null,
      studentTimeToBooking: null,
      lateNotes: [],
    });
    // The first section's start, in the school's zone (Europe/London by default).
    expect(wallTime(item?.eventDate ?? '', 'Europe/London')).toBe('16:00');
    expect(item?.eventDate?.slice(0, 10)).toBe(e.date);
  });

  it('gives a teacher who is in no section an empty list', async () => {
    const outsider = await quickMember(t, e.admin.token, 'teacher');
    const body = await home(e, outsider.token);
    expect(body.viewAsSelectorItems).toEqual([{ value: 'teacher', label: 'Teacher' }]);
    expect(body.teacherOpenEventsSummary).toEqual([]);
    expect(body.teacherEventsCount).toBe(0);
  });
});

describe('site/index My Events for parents and students', () => {
  let ticketed: { eventId: number; code: string };
  let graduation: { eventId: number; code: string };
  let general: { eventId: number; code: string };
  beforeAll(async () => {
    const section = (days: number, location: string | null) => ({
      date: daysAhead(days),
      start: '18:00',
      end: '20:00',
      location,
    });
    ticketed = await kindEvent(t, e, 'ticketed', 'Summer concert', { usersPerSlot: 100 }, [
      section(9, 'Theatre'),
    ]);
    graduation = await kindEvent(t, e, 'graduation', 'Graduation', { usersPerSlot: 100 }, [
      section(12, null),
    ]);
    general = await kindEvent(t, e, 'booking', 'Open morning', { usersPerSlot: 5, slotMinutes: 30 }, [
      section(10, 'Reception'),
    ]);
  });

  it('shows a parent nothing until they are invited or book', async () => {
    const body = await home(e, e.parent.token);
    expect(body.viewAsSelectorItems).toEqual([{ value: 'parent', label: 'Parent' }]);
    expect(body.parentOpenEventsSummary).toEqual([]);
    expect(body.parentEventsCount).toBe(0);
    expect(body.teacherOpenEventsSummary).toEqual([]);
  });

  it('lists an event a parent is a recipient of, with the booking page link and the time to the event', async () => {
    await addRecipients(e, ticketed.eventId, [e.otherParent.id]);
    const body = await home(e, e.otherParent.token);
    expect(ids(body.parentOpenEventsSummary)).toEqual([ticketed.eventId]);
    expect(body.parentOpenEventsSummary[0]).toMatchObject({
      name: 'Summer concert',
      link: `/event/details-parent?eventId=${ticketed.eventId}`,
      bookingLink: `/book/event/${ticketed.code}`,
      enableTicket: true,
      eventTypeGroupInt: 2,
      iCanScan: false,
      isActive: true,
      isEnabled: true,
      location: 'Theatre',
      parentBookingDetails: MY_EVENTS_TEXT.noBookings,
      teacherBookingDetails: null,
      studentBookingDetails: null,
      teacherBookingsCountForEvent: 0,
      studentTimeToBooking: null,
    });
    // Nine days ahead at 18:00 in London: a week and some, from whatever time the test runs.
    expect(body.parentOpenEventsSummary[0]?.parentTimeToBooking).toBe('in 1 week');
  });

  it('lists a parent-teacher event once the parent has booked, counting their bookings; the teacher sees the count', async () => {
    const grid = (await bookingPage(e, e.parent.token, e.code)).grid;
    const [first, second] = freeSlots(grid, teacher(0).id);
    await booked(e, e.parent.token, [
      { slotId: first ?? 0, studentId: child(0).id, subjectId: e.subjects[0] },
    ]);
    await booked(e, e.otherParent.token, [{ slotId: second ?? 0, studentId: e.otherChild.id }]);
    const englishSlot = freeSlots(grid, teacher(1).id)[4] ?? 0;
    await booked(e, e.parent.token, [{ slotId: englishSlot, studentId: child(0).id }]);

    const parent = await home(e, e.parent.token);
    expect(ids(parent.parentOpenEventsSummary)).toEqual([e.eventId]);
    expect(parent.parentOpenEventsSummary[0]).toMatchObject({
      link: `/event/details-parent?eventId=${e.eventId}`,
      bookingLink: `/book/ptevent/${e.code}`,
      enableTicket: false,
      parentBookingDetails: '2 bookings made',
      bookingDetails: '2 bookings made',
      parentTimeToBooking: expect.stringMatching(/^in (6 days|1 week)$/),
    });

    const maths = await home(e, teacher(0).token);
    expect(maths.teacherOpenEventsSummary[0]).toMatchObject({
      teacherBookingDetails: '2 appointments booked',
      bookingDetails: '2 appointments booked',
      teacherBookingsCountForEvent: 2,
    });
    const english = await home(e, teacher(1).token);
    expect(english.teacherOpenEventsSummary[0]).toMatchObject({
      teacherBookingDetails: '1 appointment booked',
      teacherBookingsCountForEvent: 1,
    });
    const science = await home(e, teacher(2).token);
    expect(science.teacherOpenEventsSummary[0]?.teacherBookingDetails).toBe(MY_EVENTS_TEXT.noBookings);
  });

  it('drops a cancelled booking from the counts and the list', async () => {
    const mine = (await bookingPage(e, e.otherParent.token, e.code)).bookings;
    expect(mine).toHaveLength(1);
    expectStatus(
      await e.http.post(`events/remove-booking?eventId=${e.eventId}`, e.otherParent.token, {
        bookingId: mine[0]?.id,
      }),
      200,
    );
    const other = await home(e, e.otherParent.token);
    // Still invited to the concert; no longer involved in the evening.
    expect(ids(other.parentOpenEventsSummary)).toEqual([ticketed.eventId]);
    const maths = await home(e, teacher(0).token);
    expect(maths.teacherOpenEventsSummary[0]?.teacherBookingDetails).toBe('1 appointment booked');
  });

  it('lists a student’s events: those booked for them, and invitations; tickets for groups 2 and 3 only', async () => {
    await addRecipients(e, ticketed.eventId, [child(0).id]);
    await addRecipients(e, graduation.eventId, [child(0).id]);
    await addRecipients(e, general.eventId, [child(0).id]);
    const body = await home(e, child(0).token);
    expect(body.viewAsSelectorItems).toEqual([{ value: 'student', label: 'Student' }]);
    expect(body.parentOpenEventsSummary).toEqual([]);
    // In time order: the evening (7 days), the concert (9), the open morning (10), the graduation (12).
    expect(ids(body.studentOpenEventsSummary)).toEqual([
      e.eventId,
      ticketed.eventId,
      general.eventId,
      graduation.eventId,
    ]);
    expect(body.studentEventsCount).toBe(4);
    const [pt, concert, morning, ceremony] = body.studentOpenEventsSummary;
    // The parent's bookings for the child count as the child's.
    expect(pt).toMatchObject({
      link: `/event/details-student?eventId=${e.eventId}`,
      studentBookingDetails: '2 bookings made',
      parentBookingDetails: null,
      studentTimeToBooking: expect.stringMatching(/^in (6 days|1 week)$/),
      parentTimeToBooking: null,
      enableTicket: false,
    });
    expect(concert).toMatchObject({ enableTicket: true, eventTypeGroupInt: 2, iCanScan: false });
    expect(morning).toMatchObject({
      enableTicket: false,
      eventTypeGroupInt: 4,
      bookingLink: `/book/event/${general.code}`,
    });
    expect(ceremony).toMatchObject({
      enableTicket: true,
      eventTypeGroupInt: 3,
      location: null,
      studentBookingDetails: MY_EVENTS_TEXT.noBookings,
    });
  });

  it('marks iCanScan on the events a student scans tickets at', async () => {
    expectStatus(
      await e.http.post(`events/update-can-scan-user-ids?id=${ticketed.eventId}`, e.admin.token, {
        canScanUserIds: [child(0).id],
      }),
      200,
    );
    const body = await home(e, child(0).token);
    const scanning = body.studentOpenEventsSummary.filter((item) => item.iCanScan).map((item) => item.id);
    // Listed because they scan there, even without an invitation or a booking.
    expect(scanning).toEqual([ticketed.eventId]);
    // Another student invited to the same concert does not scan.
    await addRecipients(e, ticketed.eventId, [child(1).id]);
    const sibling = await home(e, child(1).token);
    expect(only(sibling.studentOpenEventsSummary, ticketed.eventId)[0]?.iCanScan).toBe(false);
  });

  it('lists the events a teacher scans tickets at, marked iCanScan, though they teach no section there', async () => {
    const teacher = e.teachers[3] as Member;
    expect(only((await home(e, teacher.token)).teacherOpenEventsSummary, ticketed.eventId)).toEqual([]);
    expectStatus(
      await e.http.post(`events/update-can-scan-user-ids?id=${ticketed.eventId}`, e.admin.token, {
        canScanUserIds: [teacher.id],
      }),
      200,
    );
    const body = await home(e, teacher.token);
    expect(only(body.teacherOpenEventsSummary, ticketed.eventId)[0]).toMatchObject({ iCanScan: true });
    expectStatus(
      await e.http.post(`events/update-can-scan-user-ids?id=${ticketed.eventId}`, e.admin.token, {
        canScanUserIds: [],
      }),
      200,
    );
  });

  it('shows a disabled event with isEnabled false and the Disabled label', async () => {
    expectStatus(await e.http.post(`events/update?id=${general.eventId}`, e.admin.token, { status: 0 }), 200);
    const body = await home(e, child(0).token);
    expect(only(body.studentOpenEventsSummary, general.eventId)[0]).toMatchObject({
      isEnabled: false,
      statusLabel: { text: 'Disabled', color: 'error' },
    });
    expectStatus(await e.http.post(`events/update?id=${general.eventId}`, e.admin.token, { status: 1 }), 200);
  });

  it('marks an event whose booking window has not opened as not active', async () => {
    const inADay = new Date(Date.now() + 86_400_000).toISOString();
    expectStatus(
      await e.http.post(`events/update?id=${graduation.eventId}`, e.admin.token, { opensAt: inADay }),
      200,
    );
    const body = await home(e, child(0).token);
    expect(only(body.studentOpenEventsSummary, graduation.eventId)[0]).toMatchObject({
      isActive: false,
      isEnabled: true,
    });
    const others = body.studentOpenEventsSummary.filter((item) => item.id !== graduation.eventId);
    expect(others.every((item) => item.isActive)).toBe(true);
  });
});

describe('site/index My Events for a person with several roles', () => {
  it('offers View as for each role (never Admin) and fills each role’s list', async () => {
    // The Art teacher is also a parent (same email, a second role) invited to a booking event.
    const art = teacher(3);
    expectStatus(
      await e.http.post('users/create-parent', e.admin.token, {
        email: art.email,
        firstName: art.firstName,
        lastName: art.lastName,
        sendInvite: false,
      }),
      200,
    );
    const tours = await kindEvent(t, e, 'booking', 'Tours', { usersPerSlot: 3, slotMinutes: 30 }, [
      { date: daysAhead(15), start: '09:00', end: '10:00', location: 'Reception' },
    ]);
    await addRecipients(e, tours.eventId, [art.id]);
    const body = await home(e, art.token);
    expect(body.viewAsSelectorItems).toEqual([
      { value: 'teacher', label: 'Teacher' },
      { value: 'parent', label: 'Parent' },
    ]);
    expect(ids(body.teacherOpenEventsSummary)).toEqual([e.eventId]);
    expect(body.teacherOpenEventsSummary[0]?.link).toBe(`/event/details-teacher?eventId=${e.eventId}`);
    expect(ids(body.parentOpenEventsSummary)).toEqual([tours.eventId]);
    expect(body.parentOpenEventsSummary[0]?.link).toBe(`/event/details-parent?eventId=${tours.eventId}`);
    expect(body.studentOpenEventsSummary).toEqual([]);
    expect([body.teacherEventsCount, body.parentEventsCount, body.studentEventsCount]).toEqual([1, 1, 0]);

    // The school's admin who also teaches: View as offers Teacher only, next to the admin's tiles.
    expectStatus(
      await e.http.post('users/create-teacher', e.admin.token, {
        email: e.admin.email,
        firstName: 'Ada',
        lastName: 'Lovelace',
        sendInvite: false,
      }),
      200,
    );
    const admin = await home(e, e.admin.token);
    expect(admin.viewAsSelectorItems).toEqual([{ value: 'teacher', label: 'Teacher' }]);
    expect(admin.eventsCount).toBeGreaterThan(0);
    expect(admin.teacherOpenEventsSummary).toEqual([]);
  });
});

describe('site/index My Events leaves out', () => {
  it('events that have ended', async () => {
    const past = await kindEvent(t, e, 'parentTeacher', 'Last term evening', { slotMinutes: 10 }, [
      {
        date: daysAhead(2),
        start: '16:00',
        end: '17:00',
        location: 'Main hall',
        teachers: [{ teacherId: teacher(2).id }],
      },
    ]);
    await addRecipients(e, past.eventId, [e.parent.id]);
    const before = await home(e, teacher(2).token);
    expect(ids(before.teacherOpenEventsSummary)).toContain(past.eventId);
    // Move the evening into the past (the API only makes sections ahead).
    for (const table of ['sections', 'slots'] as const) {
      await t.db
        .updateTable(table)
        .set({
          starts_at: sql`starts_at - interval '30 days'`,
          ends_at: sql`ends_at - interval '30 days'`,
        })
        .where('event_id', '=', past.eventId)
        .execute();
    }
    const after = await home(e, teacher(2).token);
    expect(ids(after.teacherOpenEventsSummary)).toEqual([e.eventId]);
    const parent = await home(e, e.parent.token);
    expect(ids(parent.parentOpenEventsSummary)).not.toContain(past.eventId);
  });

  it('events of other schools, while their own people see them', async () => {
    const other = await eventSchool(t, 'Other Academy');
    const http = e.http;
    const otherTeacher = await quickMember(t, other.admin.token, 'teacher');
    const otherParent = await quickMember(t, other.admin.token, 'parent');
    const theirs = await kindEvent(
      t,
      { ...other, http },
      'parentTeacher',
      'Their evening',
      { slotMinutes: 10 },
      [{ date: daysAhead(7), start: '16:00', end: '17:00', teachers: [{ teacherId: otherTeacher.id }] }],
    );
    await addRecipients({ http, admin: other.admin }, theirs.eventId, [otherParent.id]);
    const theirTeacher = await home(e, otherTeacher.token);
    expect(ids(theirTeacher.teacherOpenEventsSummary)).toEqual([theirs.eventId]);
    expect(theirTeacher.teacherOpenEventsSummary[0]?.subscriber).toBe('Other Academy');
    const theirParent = await home(e, otherParent.token);
    expect(ids(theirParent.parentOpenEventsSummary)).toEqual([theirs.eventId]);
    for (const member of [teacher(0), e.parent, child(0)]) {
      const body = await home(e, member.token);
      const all = [
        ...body.teacherOpenEventsSummary,
        ...body.parentOpenEventsSummary,
        ...body.studentOpenEventsSummary,
      ];
      expect(all.every((item) => item.subscriber === 'Booking Academy')).toBe(true);
      expect(ids(all)).not.toContain(theirs.eventId);
    }
  });
});

describe('site/index My Events edge cases', () => {
  // An enabled event with no sections yet, that a parent is invited to: nothing says when it is, but it
  // is not disabled.
  it('does not call an enabled event without sections disabled', async () => {
    const draft = await kindEvent(t, e, 'booking', 'Draft tours', {}, []);
    await addRecipients(e, draft.eventId, [e.otherParent.id]);
    const body = await home(e, e.otherParent.token);
    const item = only(body.parentOpenEventsSummary, draft.eventId)[0];
    expect(item).toMatchObject({ isEnabled: true, statusLabel: { text: 'Enabled', color: 'success' } });
    expect(item?.eventDetails).toBe(MY_EVENTS_TEXT.datesToCome);
  });
});
