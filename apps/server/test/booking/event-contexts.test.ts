import { BOOKING_TEXT } from '@parley/domain/booking';
import { ACCESS_TEXT } from '@parley/domain/messages';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner } from '../../src/db/scope';
import { eventContextsOf } from '../../src/modules/booking/event-contexts';
import { expectStatus } from '../directory/directory-helpers';
import { createSection } from '../events/events-helpers';
import { createTestApp, type TestApp } from '../test-app';
import { addRecipients, book, type Evening, evening } from './booking-helpers';

// What a booking reads about its event (the row, its type, the school's name and zone, when its last
// section ends, the recipient list) each process keeps (event-contexts.ts, decision 009). The event's
// version moves on with any change to it (migration 021), whatever makes the change, and every booking
// reads the version under the event's lock: a change is seen by the next booking, with no announcement.

let t: TestApp;
let e: Evening;

beforeAll(async () => {
  t = await createTestApp();
  e = await evening(t, { quick: true });
});
afterAll(() => t.close());

const contexts = () => eventContextsOf(t.db);
const version = async () =>
  (await t.db.selectFrom('events').select('version').where('id', '=', e.eventId).executeTakeFirstOrThrow())
    .version;
/** Moves the version by a change made straight in the database (another process, or the owner's tools). */
const owner = (statement: ReturnType<typeof sql>) => asOwner(() => statement.execute(t.db));

/** The parent books the first teacher's first free slot for the first child, and cancels it when booked. */
async function attempt() {
  const { id: slotId } = await t.db
    .selectFrom('slots')
    .select('id')
    .where('event_id', '=', e.eventId)
    .where('teacher_id', '=', e.teachers[0]?.id ?? 0)
    .orderBy('starts_at')
    .executeTakeFirstOrThrow();
  const answer = await book(e, e.parent.token, [{ slotId, studentId: e.children[0]?.id }]);
  if (answer.statusCode === 200) {
    const [bookingId] = (answer.json() as { created: number[] }).created;
    expectStatus(
      await e.http.post(`events/remove-booking?eventId=${e.eventId}`, e.parent.token, { bookingId }),
      200,
    );
  }
  return answer;
}

describe('the event a booking checks', () => {
  it('moves on with every change to what a booking reads about it', async () => {
    const moves = async (change: () => Promise<unknown>) => {
      const before = await version();
      await change();
      expect(await version()).toBeGreaterThan(before);
    };
    const token = e.admin.token;
    await moves(async () =>
      expectStatus(await e.http.post(`events/update?id=${e.eventId}`, token, { travelMinutes: 0 }), 200),
    );
    let sectionId = 0;
    await moves(async () => {
      ({ id: sectionId } = await createSection(e.http, token, e.eventId, {
        date: e.date,
        start: '18:30',
        end: '19:00',
        location: 'Library',
        teachers: [{ teacherId: e.teachers[3]?.id ?? 0 }],
      }));
    });
    await moves(() =>
      owner(sql`update sections set ends_at = ends_at + interval '5 minutes' where id = ${sectionId}`),
    );
    await moves(() => owner(sql`delete from sections where id = ${sectionId}`));
    await moves(() => addRecipients(e, e.eventId, [e.otherParent.id]));
    await moves(async () =>
      expectStatus(
        await e.http.post(`events/remove-recipient?eventId=${e.eventId}`, token, {
          userId: e.otherParent.id,
        }),
        200,
      ),
    );
    const { timezone } = await t.db
      .selectFrom('schools')
      .select('timezone')
      .where('id', '=', e.schoolId)
      .executeTakeFirstOrThrow();
    await moves(async () =>
      expectStatus(
        await e.http.post('site/update-school', token, { name: 'Renamed Academy', timezone }),
        200,
      ),
    );
    await moves(() =>
      owner(sql`update event_types set name = name || ' (renamed)'
        where id = (select event_type_id from events where id = ${e.eventId})`),
    );
    // Places taken and given back are not a change to the event.
    const before = await version();
    expectStatus(await attempt(), 200);
    expect(await version()).toBe(before);
  });

  it('is what the event is now, though the process kept it at an earlier version', async () => {
    expectStatus(await attempt(), 200);
    const kept = contexts().keptVersion(e.eventId);
    expect(kept).toBe(await version());
    // Left out by a recipient list written straight in the database: refused at once.
    await owner(sql`insert into event_recipients (school_id, event_id, user_id)
      values (${e.schoolId}, ${e.eventId}, ${e.otherParent.id})`);
    expect(contexts().keptVersion(e.eventId)).toBe(kept);
    const refused = await attempt();
    expect({ status: refused.statusCode, message: (refused.json() as { message: string }).message }).toEqual({
      status: 403,
      message: ACCESS_TEXT.notOpenToYou,
    });
    await owner(sql`delete from event_recipients where event_id = ${e.eventId}`);
    expectStatus(await attempt(), 200);
    // Closed a minute ago by another process: the next booking is told so.
    await owner(sql`update events set closes_at = now() - interval '1 minute' where id = ${e.eventId}`);
    const closed = await attempt();
    expect({ status: closed.statusCode, message: (closed.json() as { message: string }).message }).toEqual({
      status: 409,
      message: BOOKING_TEXT.closed,
    });
    await owner(sql`update events set closes_at = null where id = ${e.eventId}`);
    expectStatus(await attempt(), 200);
    expect(contexts().keptVersion(e.eventId)).toBe(await version());
  });

  it('would be stale without the version (the negative control)', async () => {
    expectStatus(await attempt(), 200);
    await owner(sql`alter table event_recipients disable trigger event_recipients_version_added`);
    try {
      await owner(sql`insert into event_recipients (school_id, event_id, user_id)
        values (${e.schoolId}, ${e.eventId}, ${e.otherParent.id})`);
      // The list now leaves the parent out, but the kept context still says it names no one.
      expectStatus(await attempt(), 200);
    } finally {
      await owner(sql`alter table event_recipients enable trigger event_recipients_version_added`);
      await owner(sql`delete from event_recipients where event_id = ${e.eventId}`);
    }
  });
});
