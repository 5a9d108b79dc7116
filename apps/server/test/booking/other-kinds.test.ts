import {
  BOOKING_TEXT,
  type BookingConflict,
  type BookingPage,
  type BookingResult,
} from '@parley/domain/booking';
import { EVENT_TEXT } from '@parley/domain/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from '../directory/directory-helpers';
import { daysAhead, minutesBetween, wallTime } from '../events/events-helpers';
import { createTestApp, type TestApp } from '../test-app';
import {
  book,
  booked,
  bookingPage,
  type Evening,
  evening,
  type KindEvent,
  kindEvent,
} from './booking-helpers';

// The other kinds of event (issue 5 scope): a general booking event (group 4: sections of slots, several
// parties per slot up to usersPerSlot), a ticketed event (group 2: one slot per section, places with
// guests up to the allowance) and a graduation (group 3: the same, with a gown size). Families are the
// evening's: a parent of two children, another parent of one; a student may also book for themselves.

let t: TestApp;
let e: Evening;
beforeAll(async () => {
  t = await createTestApp();
  e = await evening(t, { quick: true });
});
afterAll(() => t.close());

const child = (i: number) => e.children[i] ?? e.otherChild;
type FieldErrors = { message: string; errors: Record<string, string[]> };

describe('a booking event (group 4) with several places per slot', () => {
  let tours: KindEvent;
  beforeAll(async () => {
    tours = await kindEvent(t, e, 'booking', 'Open morning tours', { slotMinutes: 30 }, [
      { date: daysAhead(10), start: '10:00', end: '11:00', location: 'Reception' },
    ]);
  });
  const page = (token: string) => bookingPage(e, token, tours.code);
  const ev = () => ({ http: e.http, eventId: tours.eventId });

  it('takes usersPerSlot from events/update, also for slots already made', async () => {
    const before = await page(e.parent.token);
    expect(before.grid[0]?.slots.map((slot) => slot.capacity)).toEqual([1, 1]);
    expectStatus(
      await e.http.post(`events/update?id=${tours.eventId}`, e.admin.token, { usersPerSlot: 2 }),
      200,
    );
    const body = await page(e.parent.token);
    expect(body.event).toMatchObject({
      eventTypeGroupInt: 4,
      bookingPath: `/book/event/${tours.code}`,
      options: { usersPerSlot: 2, slotMinutes: 30 },
    });
    expect(body.teachers).toEqual([]);
    expect(body.grid).toHaveLength(1);
    expect(body.grid[0]).toMatchObject({ teacherId: null, teacherName: null, location: 'Reception' });
    expect(body.grid[0]?.slots.map((slot) => [slot.time, slot.endTime, slot.capacity, slot.free])).toEqual([
      ['10:00', '10:30', 2, 2],
      ['10:30', '11:00', 2, 2],
    ]);
  });

  it('lets families share a slot until it is full, then answers 409 slotTaken with the fresh grid', async () => {
    const slotId = (await page(e.parent.token)).grid[0]?.slots[0]?.id ?? 0;
    const first = await booked(ev(), e.parent.token, [
      { slotId, studentId: child(0).id, subjectId: e.subjects[0] },
    ]);
    expect(first.bookings[0]).toMatchObject({
      slotId,
      teacherId: null,
      subjectId: null,
      studentId: child(0).id,
      parentId: e.parent.id,
      time: '10:00',
      location: 'Reception',
    });
    expect((await page(e.otherParent.token)).grid[0]?.slots[0]?.free).toBe(1);
    await booked(ev(), e.otherParent.token, [{ slotId, studentId: e.otherChild.id }]);
    const slot = await t.db
      .selectFrom('slots')
      .select('booked_count')
      .where('id', '=', slotId)
      .executeTakeFirstOrThrow();
    expect(slot.booked_count).toBe(2);
    // A third party — the sibling, booking as a student — finds it full.
    const full = expectStatus<BookingConflict>(await book(ev(), child(1).token, [{ slotId }]), 409);
    expect(full.message).toBe(BOOKING_TEXT.slotTaken);
    expect(full.grid?.[0]?.slots.map((s) => s.free)).toEqual([0, 2]);
    expect(full.bookings).toEqual([]);
    // The next slot still has room for them.
    const next = (await page(child(1).token)).grid[0]?.slots[1]?.id ?? 0;
    const own = await booked(ev(), child(1).token, [{ slotId: next }]);
    expect(own.bookings[0]).toMatchObject({ studentId: child(1).id, parentId: null, time: '10:30' });
  });

  it('refuses lowering usersPerSlot under the places already taken', async () => {
    const res = await e.http.post(`events/update?id=${tours.eventId}`, e.admin.token, { usersPerSlot: 1 });
    expect(expectStatus(res, 409)).toEqual({
      message: EVENT_TEXT.capacityBelowBookings,
      errors: { capacity: [EVENT_TEXT.capacityBelowBookings] },
    });
    // All or nothing: neither the event nor any slot changed.
    const body = await page(e.parent.token);
    expect(body.event.options.usersPerSlot).toBe(2);
    expect(body.grid[0]?.slots.map((slot) => slot.capacity)).toEqual([2, 2]);
  });
});

describe('a ticketed event (group 2)', () => {
  let concert: KindEvent;
  beforeAll(async () => {
    concert = await kindEvent(t, e, 'ticketed', 'Summer concert', { usersPerSlot: 100, guestAllowance: 2 }, [
      { date: daysAhead(14), start: '18:30', end: '20:30', location: 'Theatre' },
      { date: daysAhead(15), start: '18:30', end: '20:30', location: 'Theatre' },
    ]);
  });
  const ev = () => ({ http: e.http, eventId: concert.eventId });

  it('has one slot per section, spanning it, and offers 0..guestAllowance guests', async () => {
    const body = await bookingPage(e, e.parent.token, concert.code);
    expect(body.event).toMatchObject({
      eventTypeGroupInt: 2,
      guestCountOptions: [0, 1, 2],
      options: { guestAllowance: 2, usersPerSlot: 100 },
    });
    expect(body.grid.map((group) => group.sectionId)).toEqual(concert.sectionIds);
    for (const group of body.grid) {
      expect(group.slots).toHaveLength(1);
      const [slot] = group.slots;
      expect(slot).toMatchObject({ time: '18:30', endTime: '20:30', capacity: 100, free: 100 });
      expect(minutesBetween(slot?.startsAt ?? '', slot?.endsAt ?? '')).toBe(120);
      expect(wallTime(slot?.startsAt ?? '', 'Europe/London')).toBe('18:30');
    }
  });

  it('books places with guests up to the allowance; more is 422 on items.0.guests', async () => {
    const grid = (await bookingPage(e, e.parent.token, concert.code)).grid;
    const slotId = grid[0]?.slots[0]?.id ?? 0;
    const ok = await booked(ev(), e.parent.token, [{ slotId, studentId: child(0).id, guests: 2 }]);
    expect(ok.bookings[0]).toMatchObject({ slotId, guests: 2, studentId: child(0).id, gownSize: null });
    const over = expectStatus<FieldErrors>(
      await book(ev(), e.otherParent.token, [{ slotId, studentId: e.otherChild.id, guests: 3 }]),
      422,
    );
    expect(over.message).toBe(BOOKING_TEXT.guestsOver(2));
    expect(over.errors['items.0.guests']).toEqual([BOOKING_TEXT.guestsOver(2)]);
    // Over the contract's own limit: refused by the schema.
    expectStatus(
      await book(ev(), e.otherParent.token, [{ slotId, studentId: e.otherChild.id, guests: 21 }]),
      422,
    );
    expect(
      await t.db.selectFrom('bookings').select('id').where('event_id', '=', concert.eventId).execute(),
    ).toHaveLength(1);
  });

  it('lets a student book themselves with the studentId the page gives them (no parent)', async () => {
    const body = await bookingPage(e, e.otherChild.token, concert.code);
    expect(body.studentId).toBe(e.otherChild.id);
    expect(body.viewer).toMatchObject({ userId: e.otherChild.id, bookAs: 'student' });
    expect(body.children).toEqual([]);
    const slotId = body.grid[1]?.slots[0]?.id ?? 0;
    const result = await booked(ev(), e.otherChild.token, [{ slotId, studentId: body.studentId, guests: 1 }]);
    expect(result.message).toBe(BOOKING_TEXT.booked);
    expect(result.bookings).toHaveLength(1);
    expect(result.bookings[0]).toMatchObject({
      studentId: e.otherChild.id,
      parentId: null,
      parentName: null,
      guests: 1,
    });
    // Their parent does not see the student's own booking as theirs.
    expect((await bookingPage(e, e.otherParent.token, concert.code)).bookings).toEqual([]);
    // A student books only for themselves.
    const forSomeoneElse = await book(ev(), e.otherChild.token, [{ slotId, studentId: child(0).id }]);
    expect(forSomeoneElse.statusCode).toBe(403);
    expect(forSomeoneElse.json()).toMatchObject({ message: BOOKING_TEXT.notYourChild });
  });
});

describe('a graduation (group 3) with gown sizes', () => {
  let ceremony: KindEvent;
  let bookingId: number;
  let otherBookingId: number;
  beforeAll(async () => {
    ceremony = await kindEvent(
      t,
      e,
      'graduation',
      'Graduation',
      { usersPerSlot: 50, guestAllowance: 1, gownSizes: ['S', 'M', 'L'] },
      [{ date: daysAhead(20), start: '14:00', end: '16:00', location: 'Great hall' }],
    );
  });
  const ev = () => ({ http: e.http, eventId: ceremony.eventId });
  const gown = (query: string, token: string) =>
    e.http.post(`events/update-gown-size?eventId=${ceremony.eventId}&${query}`, token);

  it('offers the gown sizes set with events/update and books with one; an unknown size is 422', async () => {
    const body = await bookingPage(e, e.parent.token, ceremony.code);
    expect(body.event).toMatchObject({
      eventTypeGroupInt: 3,
      gownOptions: [
        { id: 'S', name: 'S' },
        { id: 'M', name: 'M' },
        { id: 'L', name: 'L' },
      ],
      guestCountOptions: [0, 1],
      options: { gownSizes: ['S', 'M', 'L'], guestAllowance: 1, usersPerSlot: 50 },
    });
    const slotId = body.grid[0]?.slots[0]?.id ?? 0;
    const unknown = expectStatus<FieldErrors>(
      await book(ev(), e.parent.token, [{ slotId, studentId: child(0).id, gownSize: 'XXL' }]),
      422,
    );
    expect(unknown.errors['items.0.gownSize']).toEqual([BOOKING_TEXT.gownUnknown]);
    const made = await booked(ev(), e.parent.token, [
      { slotId, studentId: child(0).id, gownSize: 'M', guests: 1 },
    ]);
    expect(made.bookings[0]).toMatchObject({ gownSize: 'M', guests: 1, studentId: child(0).id });
    bookingId = made.created[0] ?? 0;
    const other = await booked(ev(), e.otherParent.token, [
      { slotId, studentId: e.otherChild.id, gownSize: 'S' },
    ]);
    otherBookingId = other.created[0] ?? 0;
  });

  it('changes the gown size with update-gown-size (userSlotId: the booking)', async () => {
    const result = expectStatus<BookingResult>(
      await gown(`studentId=${child(0).id}&gownSizeId=L&userSlotId=${bookingId}`, e.parent.token),
      200,
    );
    expect(result.message).toBe(BOOKING_TEXT.gownSaved);
    expect(result.bookings.find((b) => b.id === bookingId)?.gownSize).toBe('L');
    const row = await t.db
      .selectFrom('bookings')
      .select('gown_size')
      .where('id', '=', bookingId)
      .executeTakeFirstOrThrow();
    expect(row.gown_size).toBe('L');
    // The student it is for may change it too.
    const byStudent = expectStatus<BookingResult>(
      await gown(`studentId=${child(0).id}&gownSizeId=S&userSlotId=${bookingId}`, child(0).token),
      200,
    );
    expect(byStudent.bookings[0]?.gownSize).toBe('S');
  });

  it('refuses an unknown size (422) and a booking that is not the family’s or not that child’s (404)', async () => {
    const unknown = expectStatus<FieldErrors>(
      await gown(`studentId=${child(0).id}&gownSizeId=XXL&userSlotId=${bookingId}`, e.parent.token),
      422,
    );
    expect(unknown.errors.gownSizeId).toEqual([BOOKING_TEXT.gownUnknown]);
    const notTheirs = await gown(
      `studentId=${e.otherChild.id}&gownSizeId=L&userSlotId=${otherBookingId}`,
      e.parent.token,
    );
    expect(expectStatus(notTheirs, 404)).toEqual({ message: BOOKING_TEXT.bookingNotFound });
    expectStatus(
      await gown(`studentId=${child(1).id}&gownSizeId=L&userSlotId=${bookingId}`, e.parent.token),
      404,
    );
    expectStatus(await gown(`studentId=${child(0).id}&gownSizeId=L&userSlotId=999999`, e.parent.token), 404);
    // A cancelled booking can no longer change.
    expectStatus(
      await e.http.post(`events/remove-booking?eventId=${ceremony.eventId}`, e.otherParent.token, {
        bookingId: otherBookingId,
      }),
      200,
    );
    expectStatus(
      await gown(
        `studentId=${e.otherChild.id}&gownSizeId=L&userSlotId=${otherBookingId}`,
        e.otherParent.token,
      ),
      404,
    );
    const rows = await t.db
      .selectFrom('bookings')
      .select(['id', 'gown_size'])
      .where('event_id', '=', ceremony.eventId)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => r.gown_size)).toEqual(['S', 'S']);
    // Missing parameters are the schema's 422.
    expectStatus(
      await e.http.post(`events/update-gown-size?eventId=${ceremony.eventId}`, e.parent.token),
      422,
    );
  });

  it('refuses guests and gown sizes on a parent-teacher evening (no allowance, no sizes)', async () => {
    const body: BookingPage = await bookingPage(e, e.parent.token, e.code);
    expect(body.event.gownOptions).toEqual([]);
    expect(body.event.guestCountOptions).toEqual([0]);
    const slotId = body.grid[0]?.slots[0]?.id ?? 0;
    const guests = expectStatus<FieldErrors>(
      await book(e, e.parent.token, [{ slotId, studentId: child(0).id, guests: 1 }]),
      422,
    );
    expect(guests.errors['items.0.guests']).toEqual([BOOKING_TEXT.guestsOver(0)]);
    const gownOnPt = expectStatus<FieldErrors>(
      await book(e, e.parent.token, [{ slotId, studentId: child(0).id, gownSize: 'M' }]),
      422,
    );
    expect(gownOnPt.errors['items.0.gownSize']).toEqual([BOOKING_TEXT.gownUnknown]);
  });
});
