import { BOOKING_TEXT, type BookingConflict, type BookingPage } from '@parley/domain/booking';
import { sql } from 'kysely';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner } from '../../src/db/scope';
import { fullSlotHintsOf } from '../../src/modules/booking/full-slot-hints';
import { seedFamilies } from '../concurrency/race-support';
import { expectStatus } from '../directory/directory-helpers';
import { insertBooking } from '../events/events-helpers';
import { waitFor } from '../faults/fault-support';
import { createTestApp, type TestApp } from '../test-app';
import { connectElsewhere } from '../test-db';
import { book, booked, bookingPage, type Evening, evening, freeSlots } from './booking-helpers';

// The slots a process last saw full (decision 009, full-slot-hints.ts) pick how a booking starts: one
// unlocked read that carries a lost race's answer, or straight to the transaction. Either way the family
// gets the same answer, and a hint the database has made wrong (places given back here or in another
// process, migration 019's announcement) costs a statement, never a booking.

const onPg = process.env.TEST_DB === 'pg';
let t: TestApp;
let e: Evening;
/** A connection of its own to the test database: what another process of the app would change. */
let elsewhere: pg.Client | undefined;

beforeAll(async () => {
  t = await createTestApp();
  e = await evening(t);
  elsewhere = await connectElsewhere(t.db);
});
afterAll(async () => {
  await elsewhere?.end();
  await t.close();
});

const hints = () => fullSlotHintsOf(t.db);
/** Fills a slot behind this process's back: another family's booking written straight into the database. */
const fillQuietly = (slotId: number) =>
  asOwner(async () => {
    const [family] = await seedFamilies(t.db, e.schoolId, 1);
    await insertBooking(t.db, slotId, { parentId: family?.parentId, studentId: family?.studentId });
  });
const columns = (grid: BookingPage['grid']) =>
  grid.map((group) => ({
    teacherId: group.teacherId,
    slots: group.slots.map((slot) => [slot.id, slot.free]),
  }));

/**
 * The parent loses the slot: the 409's columns are the page's for the teachers in question, and its bookings
 * the page's (`holding` of them: none is an answer without their read, booking-path perf log, session 18).
 */
async function expectLost(slotId: number, teacherId: number, holding: number) {
  const lost = expectStatus<BookingConflict>(
    await book(e, e.parent.token, [{ slotId, studentId: e.children[0]?.id }]),
    409,
  );
  expect(lost.message).toBe(BOOKING_TEXT.slotTaken);
  const now = await bookingPage(e, e.parent.token, e.code);
  const held = new Set(now.bookings.map((b) => b.teacherId));
  const inQuestion = now.grid.filter((group) => group.teacherId === teacherId || held.has(group.teacherId));
  expect(columns(lost.grid ?? [])).toEqual(columns(inQuestion));
  expect(now.bookings).toHaveLength(holding);
  expect(lost.bookings).toEqual(now.bookings);
}

describe('the full-slot hints', () => {
  it('answer a lost race the same whether this process saw the slot full or not', async () => {
    const [maths, english] = e.teachers.map((teacher) => teacher.id);
    const grid = (await bookingPage(e, e.parent.token, e.code)).grid;
    // Seen full: the other family's booking took the last place here.
    const seen = freeSlots(grid, maths ?? 0)[1] ?? 0;
    await booked(e, e.otherParent.token, [{ slotId: seen, studentId: e.otherChild.id }]);
    expect(hints().anyFull([seen])).toBe(true);
    await expectLost(seen, maths ?? 0, 0);
    // Not seen: filled behind this process's back, so the transaction finds it full, and learns it.
    const unseen = freeSlots(grid, english ?? 0)[2] ?? 0;
    await fillQuietly(unseen);
    expect(hints().anyFull([unseen])).toBe(false);
    await expectLost(unseen, english ?? 0, 0);
    expect(hints().anyFull([unseen])).toBe(true);
    // Holding a booking, both ways again: the answer brings it.
    await booked(e, e.parent.token, [
      { slotId: freeSlots(grid, maths ?? 0)[5] ?? 0, studentId: e.children[0]?.id },
    ]);
    const seenAgain = freeSlots(grid, english ?? 0)[4] ?? 0;
    await fillQuietly(seenAgain);
    hints().markFull(seenAgain);
    await expectLost(seenAgain, english ?? 0, 1);
    const unseenAgain = freeSlots(grid, english ?? 0)[6] ?? 0;
    await fillQuietly(unseenAgain);
    expect(hints().anyFull([unseenAgain])).toBe(false);
    await expectLost(unseenAgain, english ?? 0, 1);
  });

  it('book a slot that was seen full and has room again', async () => {
    const science = e.teachers[2]?.id ?? 0;
    const slotId = freeSlots((await bookingPage(e, e.parent.token, e.code)).grid, science)[3] ?? 0;
    hints().markFull(slotId);
    await booked(e, e.parent.token, [{ slotId, studentId: e.children[0]?.id }]);
  });

  it('forget a slot whose place is given back in this process', async () => {
    const english = e.teachers[1]?.id ?? 0;
    const slotId = freeSlots((await bookingPage(e, e.parent.token, e.code)).grid, english)[5] ?? 0;
    const made = await booked(e, e.otherParent.token, [{ slotId, studentId: e.otherChild.id }]);
    expect(hints().anyFull([slotId])).toBe(true);
    await e.http.post(`events/remove-booking?eventId=${e.eventId}`, e.otherParent.token, {
      bookingId: made.created[0],
    });
    expect(hints().anyFull([slotId])).toBe(false);
  });

  it.runIf(onPg)('forget a slot another process frees, once the database announces it', async () => {
    const art = e.teachers[3]?.id ?? 0;
    const [announced, quiet] = freeSlots((await bookingPage(e, e.parent.token, e.code)).grid, art);
    const free = (slotId: number) =>
      elsewhere?.query(
        "update bookings set status = 'cancelled', cancelled_at = now() where slot_id = $1 and status = 'booked'",
        [slotId],
      );
    await fillQuietly(announced ?? 0);
    hints().markFull(announced ?? 0);
    await free(announced ?? 0);
    await waitFor('the announcement', () => !hints().anyFull([announced ?? 0]), 3000, 20);
    // The negative control: unannounced, the hint stays.
    await asOwner(() => sql`alter table slots disable trigger slots_freed`.execute(t.db));
    try {
      await fillQuietly(quiet ?? 0);
      hints().markFull(quiet ?? 0);
      await free(quiet ?? 0);
      // Not a wait of so many ms but an order: a marker announced after the change, by the same
      // connection, is heard after anything the change would have announced.
      const MARKER = -1;
      hints().markFull(MARKER);
      await elsewhere?.query(`select pg_notify('parley_slots', '${MARKER}')`);
      await waitFor('the marker', () => !hints().anyFull([MARKER]), 3000, 20);
      expect(hints().anyFull([quiet ?? 0])).toBe(true);
    } finally {
      await asOwner(() => sql`alter table slots enable trigger slots_freed`.execute(t.db));
    }
  });
});
