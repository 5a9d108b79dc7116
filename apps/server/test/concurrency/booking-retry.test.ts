import { randomUUID } from 'node:crypto';
import { BOOKING_TEXT } from '@parley/domain/booking';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { bookingPage, type Evening, evening, freeSlots } from '../booking/booking-helpers';
import { withDatabase } from '../global-setup';
import { createTestApp, type TestApp } from '../test-app';

// A deadlock is PostgreSQL asking for a retry (issue 14): the app runs the booking again instead of
// answering the family 503. Forced here: another transaction holds the slot and then asks for the family's
// row, which the booking holds while it waits for the slot — a cycle PostgreSQL breaks by aborting the
// booking (its deadlock_timeout is the shorter).

describe.runIf(process.env.TEST_DB === 'pg')('a booking that PostgreSQL picks as a deadlock victim', () => {
  let t: TestApp;
  let e: Evening;
  let other: pg.Client;
  beforeAll(async () => {
    t = await createTestApp();
    e = await evening(t, { quick: true });
    const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(t.db);
    other = new pg.Client({ connectionString: withDatabase(inject('pgAdminUrl'), rows[0]?.name ?? '') });
    await other.connect();
  });
  afterAll(async () => {
    await other?.end();
    await t?.close();
  });

  /** Until the booking in flight waits for a lock (the slot that `other` holds). */
  async function untilTheBookingWaits() {
    for (let i = 0; i < 200; i++) {
      const { rows } = await other.query(
        `select count(*)::int as n from pg_stat_activity where datname = current_database()
           and pid <> pg_backend_pid() and wait_event_type = 'Lock'`,
      );
      if (rows[0].n > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it('is run again inside the app: the family gets its 200, never a 503', async () => {
    const page = await bookingPage(e, e.parent.token, e.code);
    const slotId = freeSlots(page.grid, e.teachers[0]?.id ?? 0)[0] ?? 0;
    await other.query('BEGIN');
    await other.query(`SET LOCAL deadlock_timeout = '10s'`); // so the booking, not this one, is the victim
    await other.query('SELECT 1 FROM slots WHERE id = $1 FOR UPDATE', [slotId]);
    const booking = e.http.post(`events/update-slot-for-booking?id=${e.eventId}`, e.parent.token, {
      items: [{ slotId, studentId: e.children[0]?.id, subjectId: e.subjects[0] }],
      idempotencyKey: randomUUID(),
    });
    await untilTheBookingWaits(); // it holds the family's row by then
    // Now ask for the family's row: a cycle. PostgreSQL aborts the booking (40P01) after its 1 s.
    await other.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [e.parent.id]);
    await other.query('COMMIT');
    const response = await booking;
    expect(response.statusCode, response.body).toBe(200);
    const live = await t.db
      .selectFrom('bookings')
      .select('id')
      .where('slot_id', '=', slotId)
      .where('status', '=', 'booked')
      .execute();
    expect(live).toHaveLength(1);
  }, 30_000);

  it('loses when the place went meanwhile: 409, and nothing of it stays or is mailed', async () => {
    const page = await bookingPage(e, e.parent.token, e.code);
    // Another teacher, and not at the time the family booked above.
    const [, , slotId = 0, , next = 0] = freeSlots(page.grid, e.teachers[1]?.id ?? 0);
    const outbox = async () =>
      (await sql<{ n: number }>`select count(*)::int as n from mail_outbox`.execute(t.db)).rows[0]?.n;
    const mailsBefore = await outbox();
    // The booking reads the slot free, then waits for it as its row goes in (the database counts the place
    // under the slot's lock); meanwhile another family's booking takes the place.
    await other.query('BEGIN');
    await other.query('SELECT 1 FROM slots WHERE id = $1 FOR UPDATE', [slotId]);
    const booking = e.http.post(`events/update-slot-for-booking?id=${e.eventId}`, e.parent.token, {
      items: [{ slotId, studentId: e.children[0]?.id, subjectId: e.subjects[0] }],
      idempotencyKey: randomUUID(),
    });
    await untilTheBookingWaits();
    await other.query(
      `INSERT INTO bookings (school_id, event_id, slot_id, teacher_id, starts_at, ends_at, parent_id, student_id)
       SELECT school_id, event_id, id, teacher_id, starts_at, ends_at, $2, $3 FROM slots WHERE id = $1`,
      [slotId, e.otherParent.id, e.otherChild.id],
    );
    await other.query('COMMIT');
    const response = await booking;
    expect(response.statusCode, response.body).toBe(409);
    expect(response.json().message).toBe(BOOKING_TEXT.slotTaken);
    const mine = await t.db
      .selectFrom('bookings')
      .select('id')
      .where('slot_id', '=', slotId)
      .where('parent_id', '=', e.parent.id)
      .execute();
    expect(mine).toEqual([]);
    expect(await outbox()).toBe(mailsBefore);
    // The connection that carried it is fine: the family books another slot.
    const again = await e.http.post(`events/update-slot-for-booking?id=${e.eventId}`, e.parent.token, {
      items: [{ slotId: next, studentId: e.children[0]?.id, subjectId: e.subjects[0] }],
      idempotencyKey: randomUUID(),
    });
    expect(again.statusCode, again.body).toBe(200);
  }, 30_000);
});
