import { BOOKING_TEXT, type BookingConflict, type BookingPage } from '@parley/domain/booking';
import { sql } from 'kysely';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SLOT_LABEL_CHANNEL, watchSlotLabels } from '../../src/db/database';
import { asOwner } from '../../src/db/scope';
import { slotLabelsOf } from '../../src/modules/booking/slot-labels';
import { expectStatus } from '../directory/directory-helpers';
import { waitFor } from '../faults/fault-support';
import { createTestApp, type TestApp } from '../test-app';
import { connectElsewhere } from '../test-db';
import { book, booked, bookingPage, type Evening, evening, freeSlots } from './booking-helpers';

// A lost race's answer reads only the places left; what labels its slots (the teacher's name, the times,
// where) comes from what the process keeps (slot-labels.ts, decision 009). Whatever changes a label, in
// this process or another, the database announces (migration 020), and the answer stays the page's.

const onPg = process.env.TEST_DB === 'pg';
let t: TestApp;
let e: Evening;
/** A connection of its own to the test database: what another process of the app would change. */
let elsewhere: pg.Client | undefined;

beforeAll(async () => {
  t = await createTestApp();
  e = await evening(t);
  elsewhere = await connectElsewhere(t.db);
  // Labels are kept once the process hears the announcements (it starts listening at their first use).
  if (onPg) await waitFor('the announcements', () => labels().hearing, 3000, 20);
});
afterAll(async () => {
  await elsewhere?.end();
  await t.close();
});

const labels = () => slotLabelsOf(t.db);
/** A column as the family sees it, but for the subjects (the page's heading only). */
const column = ({ subjects: _, ...group }: BookingPage['grid'][number]) => group;

/** Takes the teacher's nth free slot for the other family, so the parent's booking of it loses. */
async function takenSlot(teacherId: number, nth: number) {
  const slotId = freeSlots((await bookingPage(e, e.parent.token, e.code)).grid, teacherId)[nth] ?? 0;
  await booked(e, e.otherParent.token, [{ slotId, studentId: e.otherChild.id }]);
  return slotId;
}

/** The parent loses the slot: the 409's columns, which must be the page's for the teacher. */
async function lose(slotId: number, teacherId: number) {
  const lost = expectStatus<BookingConflict>(
    await book(e, e.parent.token, [{ slotId, studentId: e.children[0]?.id }]),
    409,
  );
  expect(lost.message).toBe(BOOKING_TEXT.slotTaken);
  const page = (await bookingPage(e, e.parent.token, e.code)).grid;
  const columns = (lost.grid ?? []).map(column);
  expect(columns).toEqual(page.filter((group) => group.teacherId === teacherId).map(column));
  return columns;
}

describe('the labels of a lost race’s columns', () => {
  it('are the page’s after the school renames the teacher and moves a slot', async () => {
    const maths = e.teachers[0]?.id ?? 0;
    const slotId = await takenSlot(maths, 0);
    await lose(slotId, maths);
    if (onPg) expect(labels().keeps(e.eventId)).toBe(true);
    const token = e.admin.token;
    // Each change heard on the app's own connection before its COMMIT returned.
    expectStatus(await e.http.post(`users/update-teacher?id=${maths}`, token, { firstName: 'Renamed' }), 200);
    if (onPg) expect(labels().keeps(e.eventId)).toBe(false);
    const [renamed] = await lose(slotId, maths);
    expect(renamed?.teacherName).toMatch(/^Renamed /);
    if (onPg) expect(labels().keeps(e.eventId)).toBe(true);
    expectStatus(await e.http.post('events/update-slot-location', token, { slotId, location: 'Lab 1' }), 200);
    if (onPg) expect(labels().keeps(e.eventId)).toBe(false);
    const [moved] = await lose(slotId, maths);
    expect(moved?.slots.find((slot) => slot.id === slotId)?.location).toBe('Lab 1');
  });

  it.runIf(onPg)(
    'are forgotten when another process changes them, and kept without the announcement',
    async () => {
      const english = e.teachers[1]?.id ?? 0;
      const slotId = await takenSlot(english, 3);
      await lose(slotId, english);
      expect(labels().keeps(e.eventId)).toBe(true);
      await elsewhere?.query('update section_teachers set location = $1 where teacher_id = $2', [
        'Studio',
        english,
      ]);
      await waitFor('the announcement', () => !labels().keeps(e.eventId), 3000, 20);
      const [moved] = await lose(slotId, english);
      expect(moved?.location).toBe('Studio');
      expect(labels().keeps(e.eventId)).toBe(true);
      // The negative control: unannounced, a rename elsewhere leaves the old name in the lost race's answer.
      await asOwner(() => sql`alter table users disable trigger users_labels_changed`.execute(t.db));
      try {
        await elsewhere?.query('update users set first_name = $1 where id = $2', ['Unheard', english]);
        // Not a wait of so many ms but an order: a marker announced after the change, by the same
        // connection, is heard after anything the change would have announced.
        const MARKER = -1;
        const heard: number[] = [];
        watchSlotLabels(t.db, { changed: (id) => heard.push(id), hearing: () => {} });
        await elsewhere?.query(`select pg_notify('${SLOT_LABEL_CHANNEL}', '${MARKER}')`);
        await waitFor('the marker', () => heard.includes(MARKER), 3000, 20);
        expect(heard).toEqual([MARKER]);
        expect(labels().keeps(e.eventId)).toBe(true);
        const lost = expectStatus<BookingConflict>(
          await book(e, e.parent.token, [{ slotId, studentId: e.children[0]?.id }]),
          409,
        );
        expect(lost.grid?.[0]?.teacherName).not.toMatch(/^Unheard /);
      } finally {
        await asOwner(() => sql`alter table users enable trigger users_labels_changed`.execute(t.db));
      }
    },
  );
});
