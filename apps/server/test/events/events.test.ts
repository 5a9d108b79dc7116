import type { EventListItem, EventTypeItem } from '@parley/domain/events';
import { formatLocalDateTime } from '@parley/domain/time-zone';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, addPerson, api, expectStatus } from '../directory/directory-helpers';
import { createTestApp, type TestApp } from '../test-app';
import {
  createEvent,
  createSection,
  daysAhead,
  type EventSchool,
  eventSchool,
  insertBooking,
  mailsTo,
  viewEvent,
} from './events-helpers';

// Spec §2 Events list and Home (admin part), §3 Event, Home data, §4 event status, §5 event validation,
// §7 events/index, create, view, update, update-booking-notification-status, delete, view?id=current.

let t: TestApp;
let http: Api;
let school: EventSchool;

beforeAll(async () => {
  t = await createTestApp();
  http = api(t.app);
  school = await eventSchool(t, 'Events Academy');
});
afterAll(() => t.close());

const index = async (token = school.admin.token) =>
  expectStatus<{ events: EventListItem[]; eventTypes: EventTypeItem[]; message: string }>(
    await http.get('events/index', token),
    200,
  );

describe('a new school', () => {
  it('has the four event types and one disabled sample event of each, a few weeks ahead', async () => {
    const fresh = await eventSchool(t, 'Sample School');
    const list = await index(fresh.admin.token);
    expect(list.eventTypes).toEqual([
      { id: expect.any(Number), name: 'Parent teacher', groupInt: 1 },
      { id: expect.any(Number), name: 'Booking event', groupInt: 4 },
      { id: expect.any(Number), name: 'Ticketed event', groupInt: 2 },
      { id: expect.any(Number), name: 'Graduation', groupInt: 3 },
    ]);
    expect(list.events).toHaveLength(4);
    expect(list.events.map((event) => event.eventTypeGroupInt).sort()).toEqual([1, 2, 3, 4]);
    for (const event of list.events) {
      expect(event.status).toBe(0);
      expect(event.statusLabel).toEqual({ text: 'Disabled', color: 'error' });
      expect(event.sections).toHaveLength(1);
      const days = (new Date(event.sections[0]?.startsAt ?? 0).getTime() - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(20);
      expect(days).toBeLessThan(60);
    }
    // The parent-teacher sample waits for its teachers; the others can already be booked once enabled.
    const pt = list.events.find((event) => event.eventTypeGroupInt === 1);
    const detail = await viewEvent(http, fresh.admin.token, pt?.id ?? 0);
    expect(detail.sections[0]?.teachers).toEqual([]);
    expect(detail.slots).toEqual([]);
    expect(detail.disabledNotice).toBe(
      'This event is currently disabled. Review settings and enable to allow bookings.',
    );
    const tours = list.events.find((event) => event.eventTypeGroupInt === 4);
    expect((await viewEvent(http, fresh.admin.token, tours?.id ?? 0)).slots[0]?.slots.length).toBeGreaterThan(
      1,
    );
    // Samples are ordinary events: the admin can delete them.
    expectStatus(await http.post(`events/delete?id=${tours?.id}`, fresh.admin.token), 200);
    expect((await index(fresh.admin.token)).events).toHaveLength(3);
  });
});

describe('events/create', () => {
  it('creates an enabled event with an unguessable code and answers its id and a message', async () => {
    const res = await http.post('events/create', school.admin.token, {
      name: '  Year 9 Parents Evening ',
      eventTypeId: school.types.parentTeacher,
    });
    const created = expectStatus<{ id: number; message: string }>(res, 200);
    expect(created.message).toBe('Event created.');
    const event = await viewEvent(http, school.admin.token, created.id);
    expect(event).toMatchObject({
      name: 'Year 9 Parents Evening',
      eventTypeId: school.types.parentTeacher,
      eventTypeName: 'Parent teacher',
      eventTypeGroupInt: 1,
      status: 0,
      statusLabel: { text: 'Disabled', color: 'error' },
      disabledNotice: 'This event is currently disabled. Review settings and enable to allow bookings.',
      subscriberName: 'Events Academy',
      timeZone: 'Europe/London',
      bookingPath: `/book/ptevent/${event.code}`,
      bookingUrl: `http://parley.test/book/ptevent/${event.code}`,
      sections: [],
      recipientCount: 0,
      canScanUserIds: [],
      bookingCountForEvent: 0,
      createdAtHuman: 'just now',
    });
    expect(event.code).toMatch(/^[a-z2-9]{10}$/);
    const other = await createEvent(http, school.admin.token, 'Open day', school.types.booking);
    const second = await viewEvent(http, school.admin.token, other);
    expect(second.code).not.toBe(event.code);
    expect(second.bookingPath).toBe(`/book/event/${second.code}`);
  });

  it('says the spec §5 texts for a missing or long name and a missing event type', async () => {
    const cases: Array<[unknown, Record<string, string[]>]> = [
      [{ eventTypeId: school.types.booking }, { name: ['Name is required'] }],
      [{ name: '   ', eventTypeId: school.types.booking }, { name: ['Name is required'] }],
      [
        { name: 'x'.repeat(61), eventTypeId: school.types.booking },
        { name: ['Name must be less than 60 characters'] },
      ],
      [{ name: 'Concert' }, { eventTypeId: ['Event type is required'] }],
      [{ name: 'Concert', eventTypeId: '' }, { eventTypeId: ['Event type is required'] }],
      [{ name: 'Concert', eventTypeId: null }, { eventTypeId: ['Event type is required'] }],
      [{}, { name: ['Name is required'], eventTypeId: ['Event type is required'] }],
    ];
    for (const [body, errors] of cases) {
      const res = await http.post('events/create', school.admin.token, body);
      expect(expectStatus(res, 422)).toEqual({ message: 'Please correct the highlighted fields.', errors });
    }
    const sixty = await http.post('events/create', school.admin.token, {
      name: 'x'.repeat(60),
      eventTypeId: school.types.booking,
    });
    expectStatus(sixty, 200);
  });

  it("refuses an event type that is not the school's", async () => {
    const other = await eventSchool(t, 'Other Types School');
    const res = await http.post('events/create', school.admin.token, {
      name: 'Borrowed type',
      eventTypeId: other.types.parentTeacher,
    });
    expect(expectStatus(res, 422).errors).toEqual({ eventTypeId: ['Unknown event type.'] });
  });
});

describe('events/index', () => {
  it('lists events by name with type, status label, code, section labels in the school zone and booking counts', async () => {
    const s = await eventSchool(t, 'Index School', 'America/New_York');
    const teacher = await addPerson(t, s.admin.token, 'teacher');
    const parent = await addPerson(t, s.admin.token, 'parent');
    // Two families: one parent never holds two slots of the same teacher (bookings_parent_teacher_once).
    const otherParent = await addPerson(t, s.admin.token, 'parent');
    const id = await createEvent(http, s.admin.token, 'Autumn consultations', s.types.parentTeacher);
    await createSection(http, s.admin.token, id, {
      date: '2026-03-12',
      start: '16:00',
      end: '17:00',
      location: 'Hall',
      teachers: [{ teacherId: teacher.id }],
    });
    const slots = (await viewEvent(http, s.admin.token, id)).slots[0]?.slots ?? [];
    await insertBooking(t.db, slots[0]?.id ?? 0, { parentId: parent.id });
    await insertBooking(t.db, slots[1]?.id ?? 0, { parentId: otherParent.id });
    const list = await index(s.admin.token);
    expect(list.message).toBe('Events loaded.');
    const names = list.events.map((event) => event.name);
    expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    const item = list.events.find((event) => event.id === id);
    expect(item).toEqual({
      id,
      name: 'Autumn consultations',
      eventTypeId: s.types.parentTeacher,
      eventTypeName: 'Parent teacher',
      eventTypeGroupInt: 1,
      status: 1,
      statusLabel: { text: 'Enabled', color: 'success' },
      code: expect.stringMatching(/^[a-z2-9]{10}$/),
      sections: [
        {
          id: expect.any(Number),
          date: '2026-03-12',
          start: '16:00',
          end: '17:00',
          // 16:00 in New York on 12 March 2026 (EDT since 8 March) is 20:00 UTC.
          startsAt: '2026-03-12T20:00:00.000Z',
          endsAt: '2026-03-12T21:00:00.000Z',
          location: 'Hall',
          label: 'Thu 12 Mar 2026, 16:00 – 17:00',
        },
      ],
      sectionTimeLabels: ['Thu 12 Mar 2026, 16:00 – 17:00'],
      bookingCountForEvent: 2,
      createdAt: expect.any(String),
      createdAtHuman: 'just now',
      // On the school's clock (New York), in the app's style (issue 36).
      createdAtLabel: formatLocalDateTime(new Date(item?.createdAt ?? ''), 'America/New_York'),
    });
    // The app's forced-refresh flag is accepted.
    expectStatus(await http.get('events/index?forceRefresh=1', s.admin.token), 200);
  });

  it('says how long ago each event was created', async () => {
    const id = await createEvent(http, school.admin.token, 'Old event', school.types.ticketed);
    await sql`update events set created_at = now() - interval '3 days 1 minute' where id = ${id}`.execute(
      t.db,
    );
    const item = (await index()).events.find((event) => event.id === id);
    expect(item?.createdAtHuman).toBe('3 days ago');
  });
});

describe('events/update', () => {
  it('changes only what is sent: name, status, message, window, options', async () => {
    const id = await createEvent(http, school.admin.token, 'Graduation 2026', school.types.graduation);
    const res = await http.post(`events/update?id=${id}`, school.admin.token, {
      name: 'Graduation Day',
      status: 0,
      bookingPageMessage: 'Bring your gown receipt.',
      opensAt: '2026-05-01T09:00',
      closesAt: '2026-06-01T17:00:00Z',
      guestAllowance: 3,
      gownSizes: ['S', 'M', 'M', 'L'],
      travelMinutes: 5,
      maxAppointmentsPerChild: 2,
    });
    expect(expectStatus(res, 200)).toEqual({ id, message: 'Event saved.' });
    const event = await viewEvent(http, school.admin.token, id);
    expect(event).toMatchObject({
      name: 'Graduation Day',
      status: 0,
      statusLabel: { text: 'Disabled', color: 'error' },
      disabledNotice: 'This event is currently disabled. Review settings and enable to allow bookings.',
      bookingPageMessage: 'Bring your gown receipt.',
      // A wall time is read in the school's zone (London, BST in May); an instant stays as sent.
      opensAt: '2026-05-01T08:00:00.000Z',
      opensAtLocal: '2026-05-01T09:00',
      opensAtLabel: 'Fri 1 May 2026, 09:00',
      closesAt: '2026-06-01T17:00:00.000Z',
      closesAtLocal: '2026-06-01T18:00',
      guestCountOptions: [0, 1, 2, 3],
      gownOptions: [
        { id: 'S', name: 'S' },
        { id: 'M', name: 'M' },
        { id: 'L', name: 'L' },
      ],
      options: {
        slotMinutes: 10,
        breakMinutes: 0,
        travelMinutes: 5,
        usersPerSlot: 200,
        guestAllowance: 3,
        gownSizes: ['S', 'M', 'L'],
        maxAppointmentsPerChild: 2,
      },
    });
    expectStatus(
      await http.post(`events/update?id=${id}`, school.admin.token, { status: 1, opensAt: null }),
      200,
    );
    const again = await viewEvent(http, school.admin.token, id);
    expect(again).toMatchObject({ status: 1, disabledNotice: null, opensAt: null, name: 'Graduation Day' });
  });

  it('refuses a window that closes before it opens, bad values and the spec §5 name texts', async () => {
    const id = await createEvent(http, school.admin.token, 'Window test', school.types.booking);
    const backwards = await http.post(`events/update?id=${id}`, school.admin.token, {
      opensAt: '2026-05-02T09:00',
      closesAt: '2026-05-01T09:00',
    });
    expect(expectStatus(backwards, 422).errors).toEqual({
      closesAt: ['Bookings must open before they close'],
    });
    const garbled = await http.post(`events/update?id=${id}`, school.admin.token, { opensAt: 'tomorrow' });
    expect(expectStatus(garbled, 422).errors).toEqual({ opensAt: ['Enter a date and time'] });
    const impossible = await http.post(`events/update?id=${id}`, school.admin.token, {
      opensAt: '2026-02-30T09:00',
    });
    expect(expectStatus(impossible, 422).errors).toEqual({ opensAt: ['Enter a date and time'] });
    const name = await http.post(`events/update?id=${id}`, school.admin.token, { name: '' });
    expect(expectStatus(name, 422).errors).toEqual({ name: ['Name is required'] });
    const long = await http.post(`events/update?id=${id}`, school.admin.token, { name: 'y'.repeat(61) });
    expect(expectStatus(long, 422).errors).toEqual({ name: ['Name must be less than 60 characters'] });
    const type = await http.post(`events/update?id=${id}`, school.admin.token, { eventTypeId: 0 });
    expect(expectStatus(type, 422).errors).toEqual({ eventTypeId: ['Event type is required'] });
    const status = await http.post(`events/update?id=${id}`, school.admin.token, { status: 2 });
    expect(expectStatus(status, 422).errors).toHaveProperty('status');
    const stranger = await http.post(`events/update?id=${id}`, school.admin.token, { colour: 'red' });
    expect(expectStatus(stranger, 422).errors).toEqual({ colour: ['Unknown field.'] });
  });

  it('changes the type within a kind freely, to another kind only before sections exist', async () => {
    const id = await createEvent(http, school.admin.token, 'Concert', school.types.ticketed);
    expectStatus(
      await http.post(`events/update?id=${id}`, school.admin.token, { eventTypeId: school.types.booking }),
      200,
    );
    expect((await viewEvent(http, school.admin.token, id)).eventTypeGroupInt).toBe(4);
    await createSection(http, school.admin.token, id, { date: '2026-07-01', start: '18:00', end: '19:00' });
    const res = await http.post(`events/update?id=${id}`, school.admin.token, {
      eventTypeId: school.types.parentTeacher,
    });
    expect(expectStatus(res, 422).errors).toEqual({
      eventTypeId: [
        'An event with sections cannot change to a different kind of event. Delete its sections first.',
      ],
    });
  });

  it('answers 404 for a missing event', async () => {
    expectStatus(await http.post('events/update?id=999999', school.admin.token, { name: 'Ghost' }), 404);
    expectStatus(await http.get('events/view?id=999999', school.admin.token), 404);
  });
});

describe('events/update-booking-notification-status', () => {
  it('sets the flag when told, toggles it otherwise', async () => {
    const id = await createEvent(http, school.admin.token, 'Notified', school.types.booking);
    const path = `events/update-booking-notification-status?id=${id}`;
    expect(expectStatus(await http.post(path, school.admin.token), 200)).toEqual({
      bookingNotifications: true,
      message: 'Booking notifications are on.',
    });
    expect(
      expectStatus(await http.post(path, school.admin.token, { bookingNotifications: true }), 200),
    ).toMatchObject({
      bookingNotifications: true,
    });
    expect(expectStatus(await http.post(path, school.admin.token, {}), 200)).toEqual({
      bookingNotifications: false,
      message: 'Booking notifications are off.',
    });
    expect((await viewEvent(http, school.admin.token, id)).bookingNotifications).toBe(false);
  });
});

describe('events/delete', () => {
  it('deletes an event without bookings at once', async () => {
    const id = await createEvent(http, school.admin.token, 'Short lived', school.types.booking);
    await createSection(http, school.admin.token, id, { date: '2026-07-01', start: '09:00', end: '10:00' });
    expect(expectStatus(await http.post(`events/delete?id=${id}`, school.admin.token), 200)).toEqual({
      id,
      message: 'Event deleted.',
    });
    expectStatus(await http.get(`events/view?id=${id}`, school.admin.token), 404);
    expectStatus(await http.post(`events/delete?id=${id}`, school.admin.token), 404);
    const left = await t.db.selectFrom('slots').select('id').where('event_id', '=', id).execute();
    expect(left).toEqual([]);
  });

  it('asks for confirmation when families have booked, then tells them', async () => {
    const parent = await addPerson(t, school.admin.token, 'parent', {
      firstName: 'Mary',
      lastName: 'Shelley',
    });
    const id = await createEvent(http, school.admin.token, 'Open morning', school.types.booking);
    await createSection(http, school.admin.token, id, { date: '2026-07-01', start: '09:00', end: '10:00' });
    const slot = (await viewEvent(http, school.admin.token, id)).slots[0]?.slots[0];
    await insertBooking(t.db, slot?.id ?? 0, { parentId: parent.id });
    const refused = await http.post(`events/delete?id=${id}`, school.admin.token);
    const body = expectStatus<{ message: string; confirmRequired: boolean; affectedBookings: unknown[] }>(
      refused,
      409,
    );
    expect(body.message).toBe(
      'Deleting this event would cancel 1 booking: Mary Shelley, Wed 1 Jul 2026, 09:00. Confirm to apply it and tell the families.',
    );
    expect(body.confirmRequired).toBe(true);
    expect(body.affectedBookings).toEqual([
      {
        bookingId: expect.any(Number),
        familyName: 'Mary Shelley',
        teacherName: null,
        startsAt: '2026-07-01T08:00:00.000Z',
        timeLabel: 'Wed 1 Jul 2026, 09:00',
      },
    ]);
    expectStatus(await http.get(`events/view?id=${id}`, school.admin.token), 200);
    expectStatus(await http.post(`events/delete?id=${id}`, school.admin.token, { confirm: true }), 200);
    const [mail] = await mailsTo(t.db, parent.email, 'Open morning');
    expect(mail?.subject).toBe('Open morning: your booking was cancelled');
    expect(mail?.text_body).toContain('Events Academy has cancelled Open morning');
    expect(mail?.text_body).toContain('Wed 1 Jul 2026, 09:00');
  });
});

describe('events/view?id=current and events/current', () => {
  it('is the nearest enabled event that has not ended', async () => {
    const s = await eventSchool(t, 'Current School');
    // Only disabled samples so far: no current event.
    expect(expectStatus(await http.get('events/view?id=current', s.admin.token), 404)).toEqual({
      message: 'There is no current event.',
    });
    expectStatus(await http.get('events/current', s.admin.token), 404);
    const past = await createEvent(http, s.admin.token, 'Past', s.types.booking);
    await createSection(http, s.admin.token, past, { date: '2020-01-10', start: '09:00', end: '10:00' });
    const later = await createEvent(http, s.admin.token, 'Later', s.types.booking);
    await createSection(http, s.admin.token, later, { date: daysAhead(20), start: '09:00', end: '10:00' });
    const sooner = await createEvent(http, s.admin.token, 'Sooner', s.types.booking);
    await createSection(http, s.admin.token, sooner, { date: daysAhead(10), start: '09:00', end: '10:00' });
    const off = await createEvent(http, s.admin.token, 'Disabled sooner', s.types.booking);
    await createSection(http, s.admin.token, off, { date: daysAhead(2), start: '09:00', end: '10:00' });
    await http.post(`events/update?id=${off}`, s.admin.token, { status: 0 });
    expect((await viewEvent(http, s.admin.token, 'current')).id).toBe(sooner);
    expect(expectStatus(await http.get('events/current', s.admin.token), 200)).toEqual({ id: sooner });
    expectStatus(await http.get('events/view?id=soon', s.admin.token), 422);
  });
});

// The "My Events" lists of site/index (booking contracts): empty for a user who holds no events.
const noMyEvents = {
  teacherEventsCount: 0,
  parentEventsCount: 0,
  studentEventsCount: 0,
  teacherOpenEventsSummary: [],
  parentOpenEventsSummary: [],
  studentOpenEventsSummary: [],
};

describe('site/index home data', () => {
  it("gives an admin the four counts and the active events' bookings and time to event", async () => {
    const s = await eventSchool(t, 'Home School');
    const empty = expectStatus(await http.get('site/index', s.admin.token), 200);
    expect(empty).toEqual({
      subscriberName: 'Home School',
      viewAsSelectorItems: [],
      eventsCount: 4,
      teachersCount: 0,
      parentsCount: 0,
      studentsCount: 0,
      activeEvents: [],
      ...noMyEvents,
    });
    await addPerson(t, s.admin.token, 'teacher');
    await addPerson(t, s.admin.token, 'teacher');
    const parent = await addPerson(t, s.admin.token, 'parent');
    await addPerson(t, s.admin.token, 'student');
    const id = await createEvent(http, s.admin.token, 'Tours', s.types.booking);
    await createSection(http, s.admin.token, id, { date: daysAhead(3), start: '23:00', end: '23:30' });
    const slot = (await viewEvent(http, s.admin.token, id)).slots[0]?.slots[0];
    await insertBooking(t.db, slot?.id ?? 0, { parentId: parent.id });
    const home = expectStatus(await http.get('site/index', s.admin.token), 200);
    expect(home).toEqual({
      subscriberName: 'Home School',
      viewAsSelectorItems: [],
      eventsCount: 5,
      teachersCount: 2,
      parentsCount: 1,
      studentsCount: 1,
      activeEvents: [
        { id, name: 'Tours', bookingCountForEvent: 1, timeToEvent: expect.stringMatching(/^in (3|2) days$/) },
      ],
      ...noMyEvents,
    });
  });

  it('gives other roles zeros and no events, and keeps their view-as items', async () => {
    const teacherEmail = (await addPerson(t, school.admin.token, 'teacher', { sendInvite: true })).email;
    const { acceptInvitation } = await import('../directory/directory-helpers');
    const token = await acceptInvitation(t, teacherEmail, 'teacher');
    expect(expectStatus(await http.get('site/index', token), 200)).toEqual({
      subscriberName: 'Events Academy',
      viewAsSelectorItems: [{ value: 'teacher', label: 'Teacher' }],
      eventsCount: 0,
      teachersCount: 0,
      parentsCount: 0,
      studentsCount: 0,
      activeEvents: [],
      ...noMyEvents,
    });
  });
});

describe('the OpenAPI document', () => {
  it('lists every events and messages path of spec §7', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, unknown>;
    };
    const paths = [
      'index',
      'create',
      'view',
      'current',
      'update',
      'update-booking-notification-status',
      'delete',
      'create-section',
      'update-section',
      'delete-section',
      'add-recipients',
      'remove-recipient',
      'update-can-scan-user-ids',
      'remove-can-scan-user',
      'get-all-parents',
      'get-all-students',
      'download-bookings',
      'update-slot-all',
      'update-slot-location',
    ].map((path) => `/api/events/${path}`);
    paths.push('/api/message-types/send', '/api/message-types/send-to-single-recipient');
    for (const path of paths) expect(Object.keys(doc.paths)).toContain(path);
  });
});
