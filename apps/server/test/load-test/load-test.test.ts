import { randomBytes } from 'node:crypto';
import {
  LOAD_TEST_TEXT,
  type LoadTestEventsResponse,
  type LoadTestStatusResponse,
} from '@parley/domain/load-test';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as repo from '../../src/modules/load-test/load-test.repository';
import { start, sweepLeftovers } from '../../src/modules/load-test/load-test.service';
import { booked, type Evening, evening } from '../booking/booking-helpers';
import { expectStatus } from '../directory/directory-helpers';
import { testContext } from '../factories';
import { createTestApp, type TestApp } from '../test-app';

// The load-test rehearsal (issue 15, decision 022): admins only and their own school's events; one at a
// time on the installation; the rush goes through the real booking service on a sandbox copy that no list
// shows; afterwards the summary agrees with the database, no synthetic row is left, and the real event is
// as it was.

let t: TestApp;
let e: Evening;
let other: Evening;

beforeAll(async () => {
  t = await createTestApp();
  e = await evening(t, { quick: true, schoolName: 'First School' });
  other = await evening(t, { quick: true, schoolName: 'Second School' });
  // A real booking the rehearsal must leave alone.
  const grid = await t.db
    .selectFrom('slots')
    .select('id')
    .where('event_id', '=', e.eventId)
    .where('teacher_id', '=', e.teachers[0]?.id ?? 0)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  await booked(e, e.parent.token, [{ slotId: grid.id, studentId: e.children[0]?.id ?? 0 }]);
}, 60_000);
afterAll(() => t.close());

const status = async (token: string) =>
  expectStatus<LoadTestStatusResponse>(await e.http.get('load-test/status', token), 200).run;

/** Everything a rehearsal may have left: sandbox schools, synthetic people, their mail. */
async function synthetic() {
  const { rows } = await sql<{ schools: number; users: number; mails: number }>`
    select (select count(*)::int from schools where sandbox_of is not null) as schools,
      (select count(*)::int from users where email like '%.invalid') as users,
      (select count(*)::int from mail_outbox where to_address like '%.invalid') as mails`.execute(t.db);
  return rows[0];
}

/** The real event's slots and bookings, to compare before and after. */
async function realEvent(eventId: number) {
  const slots = await t.db
    .selectFrom('slots')
    .select(['id', 'booked_count', 'capacity', 'teacher_id', 'starts_at'])
    .where('event_id', '=', eventId)
    .orderBy('id')
    .execute();
  const bookings = await t.db
    .selectFrom('bookings')
    .select(['id', 'slot_id', 'status', 'parent_id'])
    .where('event_id', '=', eventId)
    .orderBy('id')
    .execute();
  return { slots, bookings };
}

describe('who may rehearse', () => {
  it('a teacher, a parent and a student get 403; no session 401', async () => {
    const calls = [
      () => e.http.get('load-test/events', undefined),
      () => e.http.get('load-test/status', undefined),
      () => e.http.post('load-test/start', undefined, { eventId: e.eventId, parents: 5 }),
    ];
    for (const call of calls) expect((await call()).statusCode).toBe(401);
    for (const token of [e.teachers[0]?.token, e.parent.token, e.children[0]?.token]) {
      expect((await e.http.get('load-test/events', token)).statusCode).toBe(403);
      expect((await e.http.get('load-test/status', token)).statusCode).toBe(403);
      expect(
        (await e.http.post('load-test/start', token, { eventId: e.eventId, parents: 5 })).statusCode,
      ).toBe(403);
    }
  });

  it("another school's admin neither sees nor starts on the school's event", async () => {
    const mine = expectStatus<LoadTestEventsResponse>(
      await e.http.get('load-test/events', e.admin.token),
      200,
    );
    expect(mine.events.find((event) => event.id === e.eventId)).toMatchObject({
      teachers: 4,
      slots: 48,
      places: 48,
      over: false,
    });
    const ours = await t.db.selectFrom('events').select('id').where('school_id', '=', e.schoolId).execute();
    expect(mine.events.map((event) => event.id).sort()).toEqual(ours.map((event) => event.id).sort());
    const theirs = expectStatus<LoadTestEventsResponse>(
      await e.http.get('load-test/events', other.admin.token),
      200,
    );
    expect(theirs.events.map((event) => event.id)).toContain(other.eventId);
    expect(theirs.events.map((event) => event.id)).not.toContain(e.eventId);
    const refused = await e.http.post('load-test/start', other.admin.token, {
      eventId: e.eventId,
      parents: 5,
    });
    expect(refused.statusCode).toBe(404);
    expect(await status(other.admin.token)).toBeNull();
  });

  it('refuses more parents than the cap', async () => {
    const refused = await e.http.post('load-test/start', e.admin.token, {
      eventId: e.eventId,
      parents: 1001,
    });
    expect(refused.statusCode).toBe(422);
  });
});

describe('one at a time', () => {
  it('a second rehearsal anywhere on the installation is refused while one runs', async () => {
    const holder = await repo.insertRun(t.db, {
      schoolId: other.schoolId,
      eventId: other.eventId,
      eventName: 'running',
      parents: 5,
      startedBy: other.admin.id,
    });
    expect(holder).not.toBeNull();
    for (const [who, eventId] of [
      [e.admin.token, e.eventId],
      [other.admin.token, other.eventId],
    ] as const) {
      const refused = await e.http.post('load-test/start', who, { eventId, parents: 5 });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe(LOAD_TEST_TEXT.busy);
    }
    // The database holds the place, not this process: a second running row cannot be written at all.
    expect(
      await repo.insertRun(t.db, {
        schoolId: e.schoolId,
        eventId: e.eventId,
        eventName: 'second',
        parents: 5,
        startedBy: e.admin.id,
      }),
    ).toBeNull();
    await t.db
      .deleteFrom('load_test_runs')
      .where('id', '=', holder ?? 0)
      .execute();
  });
});

describe('a rehearsal', () => {
  it('rushes a sandbox copy, checks it, reports it in plain words, and leaves nothing behind', async () => {
    const before = await realEvent(e.eventId);
    const listsBefore = {
      events: (await e.http.get('events/index', e.admin.token)).json(),
      parents: (await e.http.get('users/parents', e.admin.token)).json(),
      home: (await e.http.get('site/index', e.admin.token)).json(),
    };
    const started = expectStatus<LoadTestStatusResponse>(
      await e.http.post('load-test/start', e.admin.token, { eventId: e.eventId, parents: 300 }),
      200,
    );
    expect(started.run).toMatchObject({ status: 'running', parents: 300, eventId: e.eventId, summary: null });

    // While the sandbox exists, none of the school's lists shows it.
    for (let i = 0; i < 500 && (await synthetic())?.users === 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect((await synthetic())?.schools).toBe(1);
    expect((await e.http.get('events/index', e.admin.token)).json()).toEqual(listsBefore.events);
    expect((await e.http.get('users/parents', e.admin.token)).json()).toEqual(listsBefore.parents);
    expect((await e.http.get('site/index', e.admin.token)).json()).toEqual(listsBefore.home);

    await t.settled();
    const run = await status(e.admin.token);
    if (!run) throw new Error('no run');
    console.log(`load-test on ${process.env.TEST_DB}: ${run.summary} (p50 ${run.figures.p50Ms} ms)`);
    expect(run.status).toBe('finished');
    expect(run.cleanedUp).toBe(true);
    const { figures, integrity } = run;
    // 48 slots of capacity 1: the rush fills them, and never more.
    expect(figures.bookings).toBe(48);
    expect(figures.errors).toBe(0);
    expect(figures.parentsDone).toBe(300);
    expect(figures.attempts).toBe(figures.bookings + figures.conflicts);
    expect(figures.series.reduce((sum, point) => sum + point.bookings, 0)).toBe(figures.bookings);
    expect(figures.series.reduce((sum, point) => sum + point.attempts, 0)).toBe(figures.attempts);
    expect(figures.p50Ms).toBeGreaterThan(0);
    expect(figures.p99Ms).toBeGreaterThanOrEqual(figures.p50Ms ?? 0);
    expect(integrity).toEqual({
      doubleBookings: 0,
      overCapacity: 0,
      countDrift: 0,
      bookingsInDatabase: 48,
      ok: true,
    });
    expect(run.summary).toMatch(
      /^300 parents booked 48 appointments in [\d.]+ s; slowest 1 % waited [\d.]+ s; no double bookings\.$/,
    );

    // Nothing synthetic is left, no mail was queued for it, and the real event is as it was.
    expect(await synthetic()).toEqual({ schools: 0, users: 0, mails: 0 });
    expect(await realEvent(e.eventId)).toEqual(before);
    expect((await e.http.get('events/index', e.admin.token)).json()).toEqual(listsBefore.events);

    // The place is free again.
    const next = await e.http.post('load-test/start', other.admin.token, {
      eventId: other.eventId,
      parents: 3,
    });
    expect(next.statusCode).toBe(200);
    await t.settled();
    expect((await status(other.admin.token))?.status).toBe('finished');
    // Each school sees its own latest run only.
    expect((await status(e.admin.token))?.id).toBe(run.id);
    expect(await synthetic()).toEqual({ schools: 0, users: 0, mails: 0 });
  }, 120_000);

  it('stops at its time limit', async () => {
    const ctx = testContext(t);
    const session = { userId: e.admin.id, schoolId: e.schoolId, roles: ['admin' as const], token: '' };
    await start(ctx, session, { eventId: e.eventId, parents: 20 }, { maxSeconds: 0 });
    await ctx.background.idle();
    const run = await status(e.admin.token);
    expect(run).toMatchObject({ status: 'finished', cleanedUp: true });
    expect(run?.figures).toMatchObject({
      attempts: 0,
      parentsDone: 0,
      stoppedAtLimit: true,
      limitSeconds: 0,
    });
    expect(run?.summary).toContain('stopped at the 0 s limit');
    expect(await synthetic()).toEqual({ schools: 0, users: 0, mails: 0 });
  });
});

describe('the sweep', () => {
  it('removes what a rehearsal whose server died left, and frees the place', async () => {
    const runId = await repo.insertRun(t.db, {
      schoolId: e.schoolId,
      eventId: e.eventId,
      eventName: 'crashed',
      parents: 10,
      startedBy: e.admin.id,
    });
    if (runId === null) throw new Error('the place is taken');
    const sandbox = await t.db.transaction().execute((trx) =>
      repo.createSandbox(trx, {
        schoolId: e.schoolId,
        eventId: e.eventId,
        runId,
        parents: 10,
        tag: randomBytes(4).toString('hex'),
        code: `rehearsal-${randomBytes(8).toString('hex')}`,
      }),
    );
    expect(await repo.rowsOfSchool(t.db, sandbox.schoolId)).toBeGreaterThan(40);
    // Still beating: the sweep leaves a live run alone.
    await sweepLeftovers(t.db);
    expect((await synthetic())?.schools).toBe(1);
    // It stopped beating a minute ago (the server died).
    await t.db
      .updateTable('load_test_runs')
      .set({ heartbeat_at: sql`now() - interval '1 minute'` })
      .where('id', '=', runId)
      .execute();
    await sweepLeftovers(t.db);
    expect(await repo.rowsOfSchool(t.db, sandbox.schoolId)).toBe(0);
    expect(await synthetic()).toEqual({ schools: 0, users: 0, mails: 0 });
    const run = await status(e.admin.token);
    expect(run).toMatchObject({
      id: runId,
      status: 'failed',
      cleanedUp: true,
      summary: LOAD_TEST_TEXT.interrupted,
    });
  });
});
