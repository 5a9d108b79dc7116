// Events list and event view through the real app, timed (issue 4): GET events/index for a school with 500
// events, and GET events/view for an evening with 60 teachers × 30 slots (1,800 slots, 720 of them booked,
// 300 recipients). Goal: a median under 50 ms on PostgreSQL.
//
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node --import tsx bench/events.ts
//
// It creates its own database (parley_bench_<random>) and drops it at the end. Without TEST_DATABASE_URL
// it runs on PGlite for information only. Exits non-zero when the goal is missed or an answer is wrong.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../apps/server/src/app';
import { type Db, openDatabase } from '../apps/server/src/db/database';
import { migrateToLatest } from '../apps/server/src/db/migrate';
import { MemoryStore } from '../apps/server/src/lib/rate-limiter';
import { adminQuery, withDatabase } from '../apps/server/test/global-setup';
import { adminToken, apiCall, benchConfig } from './bench-support';

const EVENTS = 500;
const TEACHERS = 60;
const SLOTS_PER_TEACHER = 30;
const BOOKED_SHARE = 0.4;
const RECIPIENTS = 300;
const RUNS = 51;
const WARM_UP = 5;
const GOAL_MS = 50;

type Figures = {
  database: 'postgres' | 'pglite';
  setupSeconds: number;
  indexMedianMs: number;
  indexBytes: number;
  viewMedianMs: number;
  viewBytes: number;
  ok: boolean;
  problem?: string;
};

/** 500 events through the API, each with a section; plus the evening: 60 teachers × 30 slots, bookings. */
async function setUp(app: FastifyInstance, db: Db, token: string) {
  const { eventTypes } = await apiCall<{ eventTypes: Array<{ id: number; groupInt: number }> }>(
    app,
    token,
    'GET',
    'events/index',
  );
  const typeOf = (group: number) => eventTypes.find((type) => type.groupInt === group)?.id ?? 0;
  const groups = [4, 2, 3];
  // The four sample events count towards the 500.
  for (let i = 0; i < EVENTS - 5; i++) {
    const group = groups[i % groups.length] ?? 4;
    const { id } = await apiCall<{ id: number }>(app, token, 'POST', 'events/create', {
      name: `Event ${String(i).padStart(3, '0')}`,
      eventTypeId: typeOf(group),
    });
    const day = String((i % 28) + 1).padStart(2, '0');
    await apiCall(app, token, 'POST', `events/create-section?eventId=${id}`, {
      date: `2027-02-${day}`,
      start: '09:00',
      end: '12:00',
      location: 'Hall',
    });
  }

  const teacherIds: number[] = [];
  for (let i = 0; i < TEACHERS; i++) {
    const { id } = await apiCall<{ id: number }>(app, token, 'POST', 'users/create-teacher', {
      firstName: `Teacher${i}`,
      lastName: `Bench${String(i).padStart(2, '0')}`,
      email: `teacher${i}@events-bench.example.org`,
      sendInvite: false,
    });
    teacherIds.push(id);
  }
  const parentIds: number[] = [];
  for (let i = 0; i < RECIPIENTS; i++) {
    const { id } = await apiCall<{ id: number }>(app, token, 'POST', 'users/create-parent', {
      firstName: `Parent${i}`,
      lastName: `Family${i}`,
      email: `parent${i}@events-bench.example.org`,
      sendInvite: false,
    });
    parentIds.push(id);
  }
  const { id: evening } = await apiCall<{ id: number }>(app, token, 'POST', 'events/create', {
    name: 'Year 11 Parents Evening',
    eventTypeId: typeOf(1),
  });
  // 16:00–21:00 in 10-minute slots: 30 per teacher.
  await apiCall(app, token, 'POST', `events/create-section?eventId=${evening}`, {
    date: '2027-03-10',
    start: '16:00',
    end: '21:00',
    location: 'Main hall',
    teachers: teacherIds.map((teacherId, index) => ({ teacherId, location: `Room ${index + 1}` })),
  });
  await apiCall(app, token, 'POST', `events/add-recipients?eventId=${evening}&saveme=1`, { all: 'parents' });

  // Bookings straight into the table (the booking flow is the next issue's), with the slots' counts.
  const slots = await db
    .selectFrom('slots')
    .select(['id', 'school_id', 'event_id', 'teacher_id', 'starts_at', 'ends_at'])
    .where('event_id', '=', evening)
    .orderBy('id')
    .execute();
  const booked = slots.filter((_, index) => index % 5 < BOOKED_SHARE * 5);
  // Each family at most once per time and once per teacher, as the booking constraints require.
  const first = Math.min(...slots.map((slot) => slot.starts_at.getTime()));
  const familyOf = (slot: (typeof slots)[number]) => {
    const time = Math.round((slot.starts_at.getTime() - first) / 600_000);
    const teacher = teacherIds.indexOf(slot.teacher_id ?? 0);
    return parentIds[(teacher * Math.floor(parentIds.length / TEACHERS) + time) % parentIds.length] ?? null;
  };
  await db
    .insertInto('bookings')
    .values(
      booked.map((slot) => ({
        school_id: slot.school_id,
        event_id: slot.event_id,
        slot_id: slot.id,
        teacher_id: slot.teacher_id,
        starts_at: slot.starts_at,
        ends_at: slot.ends_at,
        parent_id: familyOf(slot),
      })),
    )
    .execute();
  return { evening, slotCount: slots.length, bookedCount: booked.length };
}

/** Median time of the request alone (the answer is checked after the clock stops). */
async function median(
  request: () => Promise<LightMyRequestResponse>,
  check: (res: LightMyRequestResponse) => void,
): Promise<{ ms: number; bytes: number }> {
  let bytes = 0;
  for (let i = 0; i < WARM_UP; i++) check(await request());
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const res = await request();
    times.push(performance.now() - started);
    check(res);
    bytes = res.rawPayload.length;
  }
  times.sort((x, y) => x - y);
  return { ms: times[Math.floor(times.length / 2)] ?? Number.NaN, bytes };
}

async function run(database: Figures['database'], db: Db): Promise<Figures> {
  await migrateToLatest(db);
  const config = benchConfig();
  const app = await buildApp({ db, config, logger: false, rateLimitStore: new MemoryStore() });
  try {
    const token = await adminToken(app, db, 'admin@events-bench.example.org');
    const headers = { authorization: `Bearer ${token}` };
    const started = performance.now();
    const { evening, slotCount, bookedCount } = await setUp(app, db, token);
    const setupSeconds = (performance.now() - started) / 1000;

    let problem: string | undefined;
    const index = await median(
      () => app.inject({ method: 'GET', url: '/api/events/index', headers }),
      (res) => {
        const events = (res.json() as { events: unknown[] }).events.length;
        if (res.statusCode !== 200 || events !== EVENTS)
          problem = `events/index: ${res.statusCode}, ${events} events`;
      },
    );
    const view = await median(
      () => app.inject({ method: 'GET', url: `/api/events/view?id=${evening}`, headers }),
      (res) => {
        type View = { event?: { slots: Array<{ slots: unknown[] }>; bookingCountForEvent: number } };
        const event = (res.json() as View).event;
        const slots = event?.slots.reduce((sum, group) => sum + group.slots.length, 0);
        if (
          res.statusCode !== 200 ||
          slots !== TEACHERS * SLOTS_PER_TEACHER ||
          event?.bookingCountForEvent !== bookedCount
        ) {
          problem = `events/view: ${res.statusCode}, ${slots} slots, ${event?.bookingCountForEvent} bookings`;
        }
      },
    );
    if (slotCount !== TEACHERS * SLOTS_PER_TEACHER) problem = `${slotCount} slots generated`;
    const ok = !problem && (database === 'pglite' || (index.ms < GOAL_MS && view.ms < GOAL_MS));
    return {
      database,
      setupSeconds,
      indexMedianMs: index.ms,
      indexBytes: index.bytes,
      viewMedianMs: view.ms,
      viewBytes: view.bytes,
      ok,
      ...(problem && { problem }),
    };
  } finally {
    await app.close();
  }
}

async function onPostgres(adminUrl: string): Promise<Figures> {
  const name = `parley_bench_${randomBytes(4).toString('hex')}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
  const db = openDatabase({ databaseUrl: withDatabase(adminUrl, name) });
  try {
    return await run('postgres', db);
  } finally {
    await db.destroy();
    await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

async function onPglite(): Promise<Figures> {
  const db = openDatabase({ dataDir: ':memory:' });
  try {
    return await run('pglite', db);
  } finally {
    await db.destroy();
  }
}

function print(f: Figures): void {
  const kib = (bytes: number) => `${Math.round(bytes / 1024)} KiB`;
  const goal =
    f.database === 'postgres' ? `goal < ${GOAL_MS} ms: ${f.ok ? 'met' : 'MISSED'}` : 'no goal (information)';
  console.log(
    [
      `${f.database.padEnd(8)} setup ${f.setupSeconds.toFixed(1)} s`,
      `events/index (${EVENTS} events) median ${f.indexMedianMs.toFixed(1)} ms, ${kib(f.indexBytes)}`,
      `events/view (${TEACHERS}×${SLOTS_PER_TEACHER} slots) median ${f.viewMedianMs.toFixed(1)} ms, ${kib(f.viewBytes)}`,
      `${goal}${f.problem ? ` (${f.problem})` : ''}`,
    ].join(' | '),
  );
}

async function main(): Promise<void> {
  console.log(`median of ${RUNS} requests after ${WARM_UP} warm-up requests, through app.inject`);
  const url = process.env.TEST_DATABASE_URL;
  const results: Figures[] = [];
  if (url) {
    results.push(await onPostgres(url));
    print(results[0] as Figures);
  } else {
    console.log(
      'postgres skipped (set TEST_DATABASE_URL to an admin URL to run it); PGlite for information:',
    );
    results.push(await onPglite());
    print(results[0] as Figures);
  }
  if (results.some((f) => !f.ok)) process.exitCode = 1;
}

await main();
