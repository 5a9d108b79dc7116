import type { BookingResult } from '@parley/domain/booking';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { book, booked, bookingPage, type Evening, evening, freeSlots } from '../booking/booking-helpers';
import { type Api, expectStatus } from '../directory/directory-helpers';
import { wallTime } from '../events/events-helpers';
import { createTestApp, type TestApp } from '../test-app';
import { entriesOf, entryCount, expectWhoWhenWhere, from, writtenBy } from './audit-helpers';

// The audit trail of bookings (issue 11, decision 014): an admin booking for a family, moving, confirming
// and removing a booking is recorded with who, when, what and from where, in the change's own transaction;
// a family acting on its own bookings is not.

let t: TestApp;
let e: Evening;
let staff: Api;
const teacherId = () => e.teachers[0]?.id ?? 0;
const child = () => e.children[0] ?? e.otherChild;

beforeAll(async () => {
  t = await createTestApp();
  e = await evening(t, { quick: true, timezone: 'Europe/London' });
  staff = from(t.app);
});
afterAll(() => t.close());

describe('an admin acting on a family’s bookings', () => {
  let slots: number[];
  let bookingId: number;
  let movedId: number;
  const since = new Date();

  beforeAll(async () => {
    slots = freeSlots((await bookingPage(e, e.parent.token, e.code)).grid, teacherId());
  });

  it('booking for the family: "booking.created" on the parent, the child and the event, with who/when/where', async () => {
    const made = expectStatus<BookingResult>(
      await staff.post(`events/update-slot-by-admin?id=${e.eventId}`, e.admin.token, {
        slotId: slots[0],
        parentId: e.parent.id,
        studentId: child().id,
      }),
      200,
    );
    bookingId = made.created[0] ?? 0;
    const [entry] = await entriesOf(staff, e.admin.token, 'person', e.parent.id);
    expect(entry).toMatchObject({
      action: 'booking.created',
      subject: { type: 'booking', id: bookingId },
      eventId: e.eventId,
    });
    expectWhoWhenWhere(entry, e.admin, since);
    expect(entry?.subject.label).toBe(
      `${e.parent.firstName} ${e.parent.lastName} (${child().firstName} ${child().lastName})`,
    );
    expect(entry?.people).toEqual(expect.arrayContaining([e.parent.id, child().id]));
    const startsAt = made.bookings[0]?.startsAt ?? '';
    expect(entry?.detail.at).toContain(wallTime(startsAt, 'Europe/London'));
    expect(entry?.detail.at).toContain(`with ${e.teachers[0]?.firstName}`);
    expect(entry?.summary).toMatch(/^Booked /);
    // The child's page and the event's page show it too.
    expect((await entriesOf(staff, e.admin.token, 'person', child().id))[0]?.id).toBe(entry?.id);
    expect((await entriesOf(staff, e.admin.token, 'event', e.eventId))[0]?.id).toBe(entry?.id);
    // Written in the booking's own transaction: both rows carry the same transaction id.
    expect(await writtenBy(t.db, 'audit_entries', entry?.id ?? 0)).toBe(
      await writtenBy(t.db, 'bookings', bookingId),
    );
  });

  it('moving it: one "booking.moved" entry, old time → new time', async () => {
    const moved = expectStatus<BookingResult>(
      await staff.post(`events/update-slot-by-admin?id=${e.eventId}`, e.admin.token, {
        bookingId,
        slotId: slots[3],
      }),
      200,
    );
    movedId = moved.created[0] ?? 0;
    const entries = await entriesOf(staff, e.admin.token, 'person', e.parent.id);
    expect(entries.map((entry) => entry.action).slice(0, 2)).toEqual(['booking.moved', 'booking.created']);
    const [entry] = entries;
    expectWhoWhenWhere(entry, e.admin, since);
    expect(entry?.subject.id).toBe(movedId);
    const before = (
      await t.db
        .selectFrom('bookings')
        .select('starts_at')
        .where('id', '=', bookingId)
        .executeTakeFirstOrThrow()
    ).starts_at.toISOString();
    const after = moved.bookings[0]?.startsAt ?? '';
    expect(entry?.detail.from).toContain(wallTime(before, 'Europe/London'));
    expect(entry?.detail.to).toContain(wallTime(after, 'Europe/London'));
    expect(entry?.summary).toContain(`${entry?.detail.from} → ${entry?.detail.to}`);
  });

  it('confirming it: "booking.confirmed"', async () => {
    expectStatus(
      await staff.post(`events/confirm-booking?eventId=${e.eventId}`, e.admin.token, { bookingId: movedId }),
      200,
    );
    const [entry] = await entriesOf(staff, e.admin.token, 'person', e.parent.id);
    expect(entry).toMatchObject({ action: 'booking.confirmed', subject: { type: 'booking', id: movedId } });
    expectWhoWhenWhere(entry, e.admin, since);
  });

  it('removing it on the family’s behalf: "booking.cancelled"', async () => {
    expectStatus(
      await staff.post(`events/remove-booking?eventId=${e.eventId}`, e.admin.token, { bookingId: movedId }),
      200,
    );
    const entries = await entriesOf(staff, e.admin.token, 'person', e.parent.id);
    const [entry] = entries;
    expect(entry).toMatchObject({ action: 'booking.cancelled', subject: { type: 'booking', id: movedId } });
    expectWhoWhenWhere(entry, e.admin, since);
    // Newest first, the whole story.
    expect(entries.slice(0, 4).map((x) => x.action)).toEqual([
      'booking.cancelled',
      'booking.confirmed',
      'booking.moved',
      'booking.created',
    ]);
    expect(entries.map((x) => x.id)).toEqual([...entries.map((x) => x.id)].sort((a, b) => b - a));
  });

  it('a change that fails records nothing', async () => {
    const other = await booked(e, e.otherParent.token, [
      { slotId: slots[5] ?? 0, studentId: e.otherChild.id },
    ]);
    expect(other.created).toHaveLength(1);
    const count = await entryCount(t.db);
    const taken = await staff.post(`events/update-slot-by-admin?id=${e.eventId}`, e.admin.token, {
      slotId: slots[5],
      parentId: e.parent.id,
      studentId: child().id,
    });
    expect(taken.statusCode).toBe(409);
    expect(await entryCount(t.db)).toBe(count);
  });
});

describe('a family acting on its own bookings', () => {
  it('booking, changing and cancelling as the parent records nothing', async () => {
    const slots = freeSlots((await bookingPage(e, e.parent.token, e.code)).grid, e.teachers[1]?.id ?? 0);
    const count = await entryCount(t.db);
    const made = await booked(e, e.parent.token, [{ slotId: slots[0] ?? 0, studentId: child().id }]);
    const id = made.created[0] ?? 0;
    const changed = expectStatus<BookingResult>(
      await book(e, e.parent.token, [{ slotId: slots[2] ?? 0, studentId: child().id }], {
        cancelBookingIds: [id],
      }),
      200,
    );
    expectStatus(
      await e.http.post(`events/remove-booking?eventId=${e.eventId}`, e.parent.token, {
        bookingId: changed.created[0],
      }),
      200,
    );
    expect(await entryCount(t.db)).toBe(count);
  });

  it('an admin who is the parent, cancelling their own family’s booking, records nothing either', async () => {
    // The admin becomes a parent of the school (a second role) with a child of their own.
    const mine = expectStatus<{ id: number }>(
      await e.http.post('users/create-parent', e.admin.token, {
        email: e.admin.email,
        firstName: 'Ada',
        lastName: 'Lovelace',
        sendInvite: false,
      }),
      200,
    );
    expect(mine.id).toBe(e.admin.id);
    const kid = expectStatus<{ id: number }>(
      await e.http.post('users/create-student', e.admin.token, {
        email: `kid.${Date.now()}@example.org`,
        firstName: 'Byron',
        lastName: 'Lovelace',
        parentIds: [e.admin.id],
        subjects: [{ subjectId: e.subjects[2], teacherId: e.teachers[2]?.id }],
        sendInvite: false,
      }),
      200,
    );
    const slots = freeSlots((await bookingPage(e, e.admin.token, e.code)).grid, e.teachers[2]?.id ?? 0);
    const made = await booked(e, e.admin.token, [{ slotId: slots[0] ?? 0, studentId: kid.id }]);
    const count = await entryCount(t.db);
    expectStatus(
      await e.http.post(`events/remove-booking?eventId=${e.eventId}`, e.admin.token, {
        bookingId: made.created[0],
      }),
      200,
    );
    expect(await entryCount(t.db)).toBe(count);
  });
});
