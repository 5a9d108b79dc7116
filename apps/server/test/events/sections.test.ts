import type { EventSlotsAnswer } from '@parley/domain/event-lists';
import type { SlotGroup } from '@parley/domain/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, addPerson, api, expectStatus, type Person } from '../directory/directory-helpers';
import { createTestApp, type TestApp } from '../test-app';
import {
  bookingsOf,
  createEvent,
  createSection,
  type EventSchool,
  type EventWithSlots,
  eventSchool,
  insertBooking,
  mailsTo,
  minutesBetween,
  viewEvent,
  wallTime,
} from './events-helpers';

// Sections generate slots in the same transaction (spec §7 create-section, update-section,
// delete-section; issue 4): per teacher for parent-teacher events, per section otherwise; lengths, breaks,
// per-teacher unavailability and DST days follow the domain rules; edits that hit bookings need confirm.

let t: TestApp;
let http: Api;
let school: EventSchool;
let token: string;
let ada: Person;
let bob: Person;
let cy: Person;
let parent: Person;
let student: Person;

beforeAll(async () => {
  t = await createTestApp();
  http = api(t.app);
  school = await eventSchool(t, 'Slots Academy');
  token = school.admin.token;
  ada = await addPerson(t, token, 'teacher', { firstName: 'Ada', lastName: 'Alder' });
  bob = await addPerson(t, token, 'teacher', { firstName: 'Bob', lastName: 'Birch' });
  cy = await addPerson(t, token, 'teacher', { firstName: 'Cy', lastName: 'Cedar' });
  student = await addPerson(t, token, 'student', { firstName: 'Percy', lastName: 'Shelley' });
  parent = await addPerson(t, token, 'parent', {
    firstName: 'Mary',
    lastName: 'Shelley',
    studentIds: [student.id],
  });
});
afterAll(() => t.close());

const LONDON = 'Europe/London';
const times = (group: SlotGroup | undefined) => group?.slots.map((slot) => slot.time) ?? [];
const columnOf = (event: EventWithSlots, teacherId: number | null) =>
  event.slots.find((group) => group.teacherId === teacherId);

async function ptEvent(options: Record<string, unknown> = {}) {
  const id = await createEvent(http, token, 'Parents evening', school.types.parentTeacher);
  if (Object.keys(options).length)
    expectStatus(await http.post(`events/update?id=${id}`, token, options), 200);
  return id;
}

describe('parent-teacher sections', () => {
  it('give each teacher slots of the event length, with the break between, minus their own unavailability', async () => {
    const id = await ptEvent({ slotMinutes: 10, breakMinutes: 5 });
    const created = await createSection(http, token, id, {
      date: '2026-03-12',
      start: '16:00',
      end: '17:00',
      location: 'Main hall',
      teachers: [
        { teacherId: bob.id, location: 'Room 12', unavailable: [{ start: '16:15', end: '16:30' }] },
        { teacherId: ada.id },
      ],
    });
    expect(created).toEqual({
      id: expect.any(Number),
      message: 'Section added.',
      slotCount: 7,
      cancelledBookings: 0,
    });
    const event = await viewEvent(http, token, id);
    // Columns by teacher name; Ada has the whole grid, Bob loses the slot his break overlaps.
    expect(event.slots.map((group) => group.teacherName)).toEqual(['Ada Alder', 'Bob Birch']);
    expect(times(columnOf(event, ada.id))).toEqual(['16:00', '16:15', '16:30', '16:45']);
    expect(times(columnOf(event, bob.id))).toEqual(['16:00', '16:30', '16:45']);
    for (const slot of columnOf(event, ada.id)?.slots ?? []) {
      expect(minutesBetween(slot.startsAt, slot.endsAt)).toBe(10);
      expect(slot).toMatchObject({ capacity: 1, bookedCount: 0, location: 'Main hall' });
    }
    expect(columnOf(event, bob.id)?.location).toBe('Room 12');
    expect(columnOf(event, bob.id)?.slots[0]?.location).toBe('Room 12');
    expect(event.sections).toEqual([
      {
        id: created.id,
        date: '2026-03-12',
        start: '16:00',
        end: '17:00',
        startsAt: '2026-03-12T16:00:00.000Z',
        endsAt: '2026-03-12T17:00:00.000Z',
        location: 'Main hall',
        label: 'Thu 12 Mar 2026, 16:00 – 17:00',
        teachers: [
          { teacherId: ada.id, name: 'Ada Alder', location: null, unavailable: [], freeSlots: 4 },
          {
            teacherId: bob.id,
            name: 'Bob Birch',
            location: 'Room 12',
            unavailable: [{ start: '16:15', end: '16:30' }],
            freeSlots: 3,
          },
        ],
        slotCount: 7,
        bookedCount: 0,
      },
    ]);
    expect(event.sectionTimeLabels).toEqual(['Thu 12 Mar 2026, 16:00 – 17:00']);
    // The grid a few columns at a time (events/slots): of one section and the teachers named.
    const grid = async (query: string) =>
      expectStatus<EventSlotsAnswer>(await http.get(`events/slots?eventId=${id}&${query}`, token), 200).items;
    expect((await grid(`teacherIds=${bob.id}`)).map((group) => group.teacherName)).toEqual(['Bob Birch']);
    expect(await grid(`sectionId=${created.id}&teacherIds=${bob.id},${ada.id},${bob.id}`)).toEqual(
      event.slots,
    );
    expect(await grid(`sectionId=${created.id + 1000}`)).toEqual([]);
    for (const query of [
      'teacherIds=1;2',
      'teacherIds=',
      'teacherIds=0',
      `teacherIds=${Array.from({ length: 26 }, (_, i) => i + 1).join(',')}`,
    ])
      expect(
        JSON.stringify(expectStatus(await http.get(`events/slots?eventId=${id}&${query}`, token), 422)),
        query,
      ).toContain('teacherIds');
  });

  it('makes real-minute slots on the spring-forward day (the lost hour holds no slots)', async () => {
    const id = await ptEvent({ slotMinutes: 30 });
    // London, 29 March 2026: clocks go from 01:00 GMT to 02:00 BST. 00:30–03:30 local is two real hours.
    await createSection(http, token, id, {
      date: '2026-03-29',
      start: '00:30',
      end: '03:30',
      teachers: [{ teacherId: ada.id }],
    });
    const event = await viewEvent(http, token, id);
    const slots = columnOf(event, ada.id)?.slots ?? [];
    expect(slots.map((slot) => slot.startsAt)).toEqual([
      '2026-03-29T00:30:00.000Z',
      '2026-03-29T01:00:00.000Z',
      '2026-03-29T01:30:00.000Z',
      '2026-03-29T02:00:00.000Z',
    ]);
    expect(slots.map((slot) => slot.time)).toEqual(['00:30', '02:00', '02:30', '03:00']);
    for (const slot of slots) expect(minutesBetween(slot.startsAt, slot.endsAt)).toBe(30);
    for (const slot of slots) expect(wallTime(slot.startsAt, LONDON)).toBe(slot.time);
    expect(event.sections[0]).toMatchObject({
      startsAt: '2026-03-29T00:30:00.000Z',
      endsAt: '2026-03-29T02:30:00.000Z',
    });
  });

  it('makes real-minute slots on the fall-back day (the repeated hour holds slots twice)', async () => {
    const id = await ptEvent({ slotMinutes: 60 });
    // London, 25 October 2026: 02:00 BST becomes 01:00 GMT. 01:00–03:00 local is three real hours.
    await createSection(http, token, id, {
      date: '2026-10-25',
      start: '01:00',
      end: '03:00',
      teachers: [{ teacherId: bob.id }],
    });
    const slots = columnOf(await viewEvent(http, token, id), bob.id)?.slots ?? [];
    expect(slots.map((slot) => slot.time)).toEqual(['01:00', '01:00', '02:00']);
    expect(slots.map((slot) => slot.startsAt)).toEqual([
      '2026-10-25T00:00:00.000Z',
      '2026-10-25T01:00:00.000Z',
      '2026-10-25T02:00:00.000Z',
    ]);
    for (const slot of slots) expect(minutesBetween(slot.startsAt, slot.endsAt)).toBe(60);
  });

  it("uses the school's own zone", async () => {
    const ny = await eventSchool(t, 'New York School', 'America/New_York');
    const nyTeacher = await addPerson(t, ny.admin.token, 'teacher');
    const id = await createEvent(http, ny.admin.token, 'Conferences', ny.types.parentTeacher);
    await createSection(http, ny.admin.token, id, {
      date: '2026-11-02',
      start: '15:00',
      end: '15:20',
      teachers: [{ teacherId: nyTeacher.id }],
    });
    const slots = (await viewEvent(http, ny.admin.token, id)).slots[0]?.slots ?? [];
    expect(slots.map((slot) => [slot.startsAt, slot.time])).toEqual([
      ['2026-11-02T20:00:00.000Z', '15:00'],
      ['2026-11-02T20:10:00.000Z', '15:10'],
    ]);
  });
});

describe('sections of the other kinds of event', () => {
  it('a booking event gets one series of slots with the per-slot capacity', async () => {
    const id = await createEvent(http, token, 'School tours', school.types.booking);
    await http.post(`events/update?id=${id}`, token, { slotMinutes: 20, breakMinutes: 10, usersPerSlot: 6 });
    const created = await createSection(http, token, id, {
      date: '2026-06-10',
      start: '09:00',
      end: '10:30',
    });
    expect(created.slotCount).toBe(3);
    const event = await viewEvent(http, token, id);
    expect(event.slots).toHaveLength(1);
    expect(event.slots[0]).toMatchObject({ teacherId: null, teacherName: null });
    expect(times(event.slots[0])).toEqual(['09:00', '09:30', '10:00']);
    expect(event.slots[0]?.slots.every((slot) => slot.capacity === 6)).toBe(true);
  });

  it('a ticketed event or a graduation gets one slot spanning the section, with its places', async () => {
    for (const [typeId, places] of [
      [school.types.ticketed, 100],
      [school.types.graduation, 200],
    ] as const) {
      const id = await createEvent(http, token, 'Concert', typeId);
      const created = await createSection(http, token, id, {
        date: '2026-06-10',
        start: '18:00',
        end: '23:30',
        location: 'Theatre',
      });
      expect(created.slotCount).toBe(1);
      const [slot] = (await viewEvent(http, token, id)).slots[0]?.slots ?? [];
      expect(slot).toMatchObject({ time: '18:00', endTime: '23:30', capacity: places, location: 'Theatre' });
    }
  });

  it('refuses teachers on an event that has none', async () => {
    const id = await createEvent(http, token, 'Tours again', school.types.booking);
    const res = await http.post(`events/create-section?eventId=${id}`, token, {
      date: '2026-06-10',
      start: '09:00',
      end: '10:00',
      teachers: [{ teacherId: ada.id }],
    });
    expect(expectStatus(res, 422).errors).toEqual({
      teachers: ['Only parent teacher events have teachers.'],
    });
  });
});

describe('section validation', () => {
  it("answers 422 with the slot rules' texts, per field and per teacher", async () => {
    const id = await ptEvent({ slotMinutes: 30 });
    const post = (body: Record<string, unknown>) =>
      http.post(`events/create-section?eventId=${id}`, token, {
        date: '2026-03-12',
        start: '16:00',
        end: '18:00',
        ...body,
      });
    const cases: Array<[Record<string, unknown>, Record<string, string[]>]> = [
      [{ date: '2026-02-30' }, { date: ['Enter a date as YYYY-MM-DD'] }],
      [{ start: '25:00' }, { start: ['Enter a time as HH:MM'] }],
      [{ end: '15:00' }, { end: ['End must be after start'] }],
      [{ end: '16:20' }, { end: ['The section is shorter than one slot'] }],
      [
        {
          teachers: [
            { teacherId: ada.id },
            { teacherId: bob.id, unavailable: [{ start: '17:00', end: '16:30' }] },
          ],
        },
        { 'teachers.1.unavailable': ['Unavailable time 1: end must be after start'] },
      ],
      [
        { teachers: [{ teacherId: ada.id, unavailable: [{ start: '5pm', end: '17:30' }] }] },
        { 'teachers.0.unavailable': ['Unavailable time 1: enter times as HH:MM'] },
      ],
      [
        { teachers: [{ teacherId: ada.id }, { teacherId: ada.id }] },
        { teachers: ['A teacher can appear only once in a section.'] },
      ],
      [{ teachers: [{ teacherId: parent.id }] }, { teachers: [`Unknown teacher: ${parent.id}`] }],
    ];
    for (const [body, errors] of cases) {
      expect(expectStatus(await post(body), 422)).toEqual({
        message: 'Please correct the highlighted fields.',
        errors,
      });
    }
    const other = await eventSchool(t, 'Teacher Lender');
    const foreign = await addPerson(t, other.admin.token, 'teacher');
    expect(expectStatus(await post({ teachers: [{ teacherId: foreign.id }] }), 422).errors).toEqual({
      teachers: [`Unknown teacher: ${foreign.id}`],
    });
    expect((await viewEvent(http, token, id)).sections).toEqual([]);
    expectStatus(
      await http.post('events/create-section?eventId=999999', token, {
        date: '2026-03-12',
        start: '16:00',
        end: '17:00',
      }),
      404,
    );
  });
});

describe('editing a section', () => {
  it('keeps untouched slots (and their ids), adds and removes the rest when nothing booked is hit', async () => {
    const id = await ptEvent();
    const section = await createSection(http, token, id, {
      date: '2026-04-20',
      start: '16:00',
      end: '16:30',
      teachers: [{ teacherId: ada.id }],
    });
    const before = columnOf(await viewEvent(http, token, id), ada.id)?.slots.map((slot) => slot.id);
    const res = await http.post(`events/update-section?id=${section.id}`, token, {
      date: '2026-04-20',
      start: '16:00',
      end: '16:40',
      location: 'Library',
      teachers: [{ teacherId: ada.id }, { teacherId: cy.id, location: 'Lab 2' }],
    });
    expect(expectStatus(res, 200)).toEqual({
      id: section.id,
      message: 'Section saved.',
      slotCount: 8,
      cancelledBookings: 0,
    });
    const event = await viewEvent(http, token, id);
    expect(
      columnOf(event, ada.id)
        ?.slots.slice(0, 3)
        .map((slot) => slot.id),
    ).toEqual(before);
    expect(times(columnOf(event, ada.id))).toEqual(['16:00', '16:10', '16:20', '16:30']);
    expect(times(columnOf(event, cy.id))).toEqual(['16:00', '16:10', '16:20', '16:30']);
    expect(event.sections[0]).toMatchObject({ end: '16:40', location: 'Library' });
    expect(columnOf(event, ada.id)?.slots[0]?.location).toBe('Library');
    expect(columnOf(event, cy.id)?.slots[0]?.location).toBe('Lab 2');
  });

  it('refuses a change that drops or moves booked slots, listing the bookings, until confirmed', async () => {
    const subject = expectStatus<{ id: number }>(
      await http.post('subjects/create', token, { name: 'Poetry' }),
      200,
    ).id;
    const id = await ptEvent();
    const section = await createSection(http, token, id, {
      date: '2026-04-21',
      start: '16:00',
      end: '17:00',
      teachers: [{ teacherId: ada.id }, { teacherId: bob.id }],
    });
    let event = await viewEvent(http, token, id);
    const adaSlots = columnOf(event, ada.id)?.slots ?? [];
    const bobSlots = columnOf(event, bob.id)?.slots ?? [];
    // Another family holds Ada's 16:00: the Shelleys may hold only one of Ada's slots
    // (bookings_parent_teacher_once).
    const allegra = await addPerson(t, token, 'student', { firstName: 'Allegra', lastName: 'Byron' });
    const byron = await addPerson(t, token, 'parent', {
      firstName: 'George',
      lastName: 'Byron',
      studentIds: [allegra.id],
    });
    const early = await insertBooking(t.db, adaSlots[0]?.id ?? 0, {
      parentId: byron.id,
      studentId: allegra.id,
      subjectId: subject,
    });
    const late = await insertBooking(t.db, adaSlots[5]?.id ?? 0, {
      parentId: parent.id,
      studentId: student.id,
    });
    const bobs = await insertBooking(t.db, bobSlots[2]?.id ?? 0, { studentId: student.id });
    const mailsBefore = (await mailsTo(t.db, parent.email)).length;

    // Ends at 16:30 and Bob leaves: Ada's 16:50 and Bob's 16:20 bookings would go; Ada's 16:00 stays.
    const change = {
      date: '2026-04-21',
      start: '16:00',
      end: '16:30',
      teachers: [{ teacherId: ada.id }],
    };
    const refused = await http.post(`events/update-section?id=${section.id}`, token, change);
    const body = expectStatus<{ message: string; affectedBookings: Array<{ bookingId: number }> }>(
      refused,
      409,
    );
    expect(body.message).toBe(
      'This change would cancel 2 bookings: Percy Shelley, Tue 21 Apr 2026, 16:20 with Bob Birch; ' +
        'Mary Shelley (Percy Shelley), Tue 21 Apr 2026, 16:50 with Ada Alder. Confirm to apply it and tell the families.',
    );
    expect(body).toMatchObject({
      confirmRequired: true,
      affectedBookings: [
        {
          bookingId: bobs,
          familyName: 'Percy Shelley',
          teacherName: 'Bob Birch',
          timeLabel: 'Tue 21 Apr 2026, 16:20',
        },
        { bookingId: late, familyName: 'Mary Shelley (Percy Shelley)', teacherName: 'Ada Alder' },
      ],
    });
    // Nothing changed.
    event = await viewEvent(http, token, id);
    expect(event.sections[0]?.end).toBe('17:00');
    expect(event.slots).toHaveLength(2);
    expect((await bookingsOf(http, token, id)).items.every((booking) => booking.status === 'booked')).toBe(
      true,
    );
    expect((await mailsTo(t.db, parent.email)).length).toBe(mailsBefore);

    const applied = await http.post(`events/update-section?id=${section.id}`, token, {
      ...change,
      confirm: true,
    });
    expect(expectStatus(applied, 200)).toMatchObject({ slotCount: 3, cancelledBookings: 2 });
    event = await viewEvent(http, token, id);
    expect(event.slots.map((group) => group.teacherId)).toEqual([ada.id]);
    const byId = new Map((await bookingsOf(http, token, id)).items.map((booking) => [booking.id, booking]));
    expect(byId.get(early)).toMatchObject({
      status: 'booked',
      subjectName: 'Poetry',
      teacherName: 'Ada Alder',
    });
    expect(byId.get(late)).toMatchObject({
      status: 'cancelled',
      slotId: null,
      timeLabel: 'Tue 21 Apr 2026, 16:50',
    });
    expect(byId.get(bobs)).toMatchObject({ status: 'cancelled', slotId: null });
    expect(event.bookingCountForEvent).toBe(1);
    // One mail per family, listing its cancelled bookings with the booking page.
    const [parentMail] = await mailsTo(t.db, parent.email, 'was cancelled');
    expect(parentMail?.text_body).toContain('Tue 21 Apr 2026, 16:50 with Ada Alder (Percy Shelley)');
    // No password: "Book again" carries the family's personal link.
    expect(parentMail?.links).toEqual([
      expect.stringMatching(
        new RegExp(`^http://parley\\.test/book/ptevent/${event.code}\\?link=[\\w-]{40,}$`),
      ),
    ]);
    const [studentMail] = await mailsTo(t.db, student.email, 'was cancelled');
    expect(studentMail?.text_body).toContain('Tue 21 Apr 2026, 16:20 with Bob Birch');
  });

  it('refuses to delete a section with bookings until confirmed', async () => {
    const id = await ptEvent();
    const keep = await createSection(http, token, id, {
      date: '2026-04-22',
      start: '16:00',
      end: '16:30',
      teachers: [{ teacherId: ada.id }],
    });
    const drop = await createSection(http, token, id, {
      date: '2026-04-23',
      start: '16:00',
      end: '16:30',
      teachers: [{ teacherId: ada.id }],
    });
    const event = await viewEvent(http, token, id);
    const slot = event.slots.find((group) => group.sectionId === drop.id)?.slots[1];
    await insertBooking(t.db, slot?.id ?? 0, { parentId: parent.id });
    const path = `events/delete-section?eventId=${id}&sectionId=${drop.id}`;
    const refused = expectStatus<{ message: string }>(await http.post(path, token), 409);
    expect(refused.message).toBe(
      'Deleting this section would cancel 1 booking: Mary Shelley, Thu 23 Apr 2026, 16:10 with Ada Alder. Confirm to apply it and tell the families.',
    );
    expect(expectStatus(await http.post(path, token, { confirm: true }), 200)).toMatchObject({
      message: 'Section deleted.',
      cancelledBookings: 1,
    });
    const after = await viewEvent(http, token, id);
    expect(after.sections.map((section) => section.id)).toEqual([keep.id]);
    expect((await bookingsOf(http, token, id)).items).toMatchObject([{ status: 'cancelled', slotId: null }]);
    // A section of another event, or one already gone, is not found.
    expectStatus(await http.post(path, token), 404);
    const otherEvent = await ptEvent();
    expectStatus(
      await http.post(`events/delete-section?eventId=${otherEvent}&sectionId=${keep.id}`, token),
      404,
    );
  });

  it('regenerates every section when the slot length or break changes, with the same rule for bookings', async () => {
    const id = await ptEvent();
    await createSection(http, token, id, {
      date: '2026-04-24',
      start: '16:00',
      end: '17:00',
      teachers: [{ teacherId: ada.id }],
    });
    const slots = columnOf(await viewEvent(http, token, id), ada.id)?.slots ?? [];
    // Two families: one parent holds only one of Ada's slots (bookings_parent_teacher_once).
    const otherParent = await addPerson(t, token, 'parent');
    await insertBooking(t.db, slots[0]?.id ?? 0, { parentId: parent.id });
    await insertBooking(t.db, slots[2]?.id ?? 0, { parentId: otherParent.id });
    // A 5-minute break moves the grid to 16:00, 16:15, …: the 16:20 booking would move.
    const refused = await http.post(`events/update?id=${id}`, token, { breakMinutes: 5 });
    expect(expectStatus<{ message: string }>(refused, 409).message).toContain(
      'Fri 24 Apr 2026, 16:20 with Ada Alder',
    );
    expect((await viewEvent(http, token, id)).options.breakMinutes).toBe(0);
    const applied = await http.post(`events/update?id=${id}`, token, { breakMinutes: 5, confirm: true });
    expect(expectStatus<{ message: string }>(applied, 200).message).toBe(
      'Event saved. 1 booking cancelled and the families told.',
    );
    const event = await viewEvent(http, token, id);
    expect(times(columnOf(event, ada.id))).toEqual(['16:00', '16:15', '16:30', '16:45']);
    expect((await bookingsOf(http, token, id)).items.map((booking) => booking.status)).toEqual([
      'booked',
      'cancelled',
    ]);
  });
});

describe('events/update-slot-all and events/update-slot-location', () => {
  it('sets capacity and location of every slot, refusing a capacity below the bookings', async () => {
    const id = await createEvent(http, token, 'Interviews', school.types.booking);
    await createSection(http, token, id, {
      date: '2026-05-05',
      start: '09:00',
      end: '10:00',
      location: 'Office',
    });
    const first = (await viewEvent(http, token, id)).slots[0]?.slots[0];
    expect(
      expectStatus(await http.post(`events/update-slot-all?eventId=${id}`, token, { capacity: 3 }), 200),
    ).toEqual({
      updated: 6,
      message: '6 slots updated.',
    });
    await insertBooking(t.db, first?.id ?? 0, { parentId: parent.id });
    await insertBooking(t.db, first?.id ?? 0, { studentId: student.id });
    const tooSmall = await http.post(`events/update-slot-all?eventId=${id}`, token, { capacity: 1 });
    expect(expectStatus(tooSmall, 409).message).toBe('Some slots already have more bookings than that.');
    expectStatus(await http.post(`events/update-slot-all?eventId=${id}`, token, { location: 'Room 5' }), 200);
    let event = await viewEvent(http, token, id);
    expect(event.options.usersPerSlot).toBe(3);
    expect(event.slots[0]?.slots.every((slot) => slot.capacity === 3 && slot.location === 'Room 5')).toBe(
      true,
    );
    const nothing = await http.post(`events/update-slot-all?eventId=${id}`, token, {});
    expect(expectStatus(nothing, 422).errors).toEqual({ capacity: ['Send a capacity or a location.'] });
    // usersPerSlot on the event applies to its slots too.
    expectStatus(await http.post(`events/update?id=${id}`, token, { usersPerSlot: 4 }), 200);
    event = await viewEvent(http, token, id);
    expect(event.slots[0]?.slots.every((slot) => slot.capacity === 4)).toBe(true);
    const below = await http.post(`events/update?id=${id}`, token, { usersPerSlot: 1 });
    expect(expectStatus(below, 409).message).toBe('Some slots already have more bookings than that.');
    expect((await viewEvent(http, token, id)).options.usersPerSlot).toBe(4);

    const one = await http.post('events/update-slot-location', token, {
      slotId: first?.id,
      location: 'Head’s office',
    });
    expect(expectStatus(one, 200)).toEqual({ updated: 1, message: '1 slot updated.' });
    event = await viewEvent(http, token, id);
    expect(event.slots[0]?.slots.map((slot) => slot.location)).toEqual([
      'Head’s office',
      'Room 5',
      'Room 5',
      'Room 5',
      'Room 5',
      'Room 5',
    ]);
    const section = event.sections[0]?.id;
    expectStatus(
      await http.post('events/update-slot-location', token, { sectionId: section, location: null }),
      200,
    );
    event = await viewEvent(http, token, id);
    expect(event.slots[0]?.slots.every((slot) => slot.location === 'Office')).toBe(true);
  });

  it("moves one teacher's slots of a section to a room", async () => {
    const id = await ptEvent();
    const section = await createSection(http, token, id, {
      date: '2026-05-06',
      start: '16:00',
      end: '16:20',
      location: 'Hall',
      teachers: [{ teacherId: ada.id }, { teacherId: bob.id }],
    });
    const res = await http.post('events/update-slot-location', token, {
      sectionId: section.id,
      teacherId: bob.id,
      location: 'Room 9',
    });
    expect(expectStatus(res, 200)).toMatchObject({ updated: 2 });
    const event = await viewEvent(http, token, id);
    expect(columnOf(event, bob.id)?.location).toBe('Room 9');
    expect(columnOf(event, bob.id)?.slots.map((slot) => slot.location)).toEqual(['Room 9', 'Room 9']);
    expect(columnOf(event, ada.id)?.slots.map((slot) => slot.location)).toEqual(['Hall', 'Hall']);
    expect(event.sections[0]?.teachers.find((teacher) => teacher.teacherId === bob.id)?.location).toBe(
      'Room 9',
    );
    const notThere = await http.post('events/update-slot-location', token, {
      sectionId: section.id,
      teacherId: cy.id,
      location: 'Room 1',
    });
    expectStatus(notThere, 404);
    expectStatus(
      await http.post('events/update-slot-location', token, { slotId: 999999, location: 'X' }),
      404,
    );
    const noTarget = await http.post('events/update-slot-location', token, { location: 'X' });
    expect(expectStatus(noTarget, 422).errors).toEqual({
      slotId: ['Send a slotId, or a sectionId (with a teacherId for one teacher).'],
    });
  });
});
