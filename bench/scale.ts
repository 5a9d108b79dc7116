// District scale (issue 39): one school at a chosen size, its history included, and what the screens that
// grow with it cost. The school: teachers, families (a parent and a child each), 5 past events and 3
// current ones, one of them a parent-teacher evening with 5-minute slots for every teacher, every family a
// recipient and 80 % of the families booked; the past events are booked too, so history is there.
//
//   npm run bench:scale               SCALE=small|large|huge (default small), BENCH_RUNS (30 per call)
//   (BENCH_DATABASE_URL or TEST_DATABASE_URL as the admin URL, else postgres://postgres@127.0.0.1:5432/test)
//
// Sizes: small 20 teachers / 300 families, large 150 / 3,000, huge 600 / 20,000. The events are made
// through the API (a handful of calls: the app plans their slots); the people and the bookings in
// set-based SQL (generate_series), so that even huge seeds in well under a few minutes.
// Measured through the real app listening on a port in a child process (its CPU is the server's alone),
// with an admin's, a teacher's or a parent's token: per call, runs, p50 and p95, bytes of the body, the
// server's CPU and PostgreSQL's per call, and the statements sent. The admin's "reminder to those not
// booked" sends mail (into this database's outbox, never out), so it is measured once.
// Goals at the huge size, printed as met or missed, not enforced: every interactive call p95 < 300 ms and
// a body < 1 MB; a download (the CSV) streamed as it is made, whatever its size. It creates its own database (parley_bench_<random>) and drops it at the end, also on
// failure; it exits non-zero only on a wrong answer (a non-2xx).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '../apps/server/src/app';
import type { Db } from '../apps/server/src/db/database';
import { asOwner } from '../apps/server/src/db/scope';
import { MemoryStore } from '../apps/server/src/lib/rate-limiter';
import { issueToken } from '../apps/server/src/modules/tokens/tokens.repository';
import {
  adminToken,
  apiCall,
  type BenchDatabase,
  benchConfig,
  type ForkedServer,
  forkServer,
  listenApp,
  onBenchDatabase,
  percentile,
  postgresBackendsCpu,
  postgresCpuSince,
  serveChild,
  stopServers,
} from './bench-support';
import { statementCounter } from './statement-counter';

const SIZES = {
  small: { teachers: 20, families: 300 },
  large: { teachers: 150, families: 3_000 },
  huge: { teachers: 600, families: 20_000 },
} as const;
type Size = keyof typeof SIZES;
const asked = process.env.SCALE ?? 'small';
if (!(asked in SIZES)) throw new Error(`SCALE=${asked}: one of ${Object.keys(SIZES).join(', ')}`);
const SCALE = asked as Size;
const { teachers: TEACHERS, families: FAMILIES } = SIZES[SCALE];
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const WARM_UP = 3;
const BOOKED_SHARE = 0.8;
/** A section takes at most 500 teachers (sectionRequest): the evening's teachers go in sections of 300. */
const TEACHERS_PER_SECTION = 300;
const GOAL = { p95Ms: 300, bytes: 1_000_000, rssMb: 400 };
const DAY_MS = 86_400_000;

// ── the school ───────────────────────────────────────────────────────────────────────────────────────

type School = {
  schoolId: number;
  evening: number;
  admin: string;
  teacher: string;
  parent: string;
  /** The parent's grid request as the booking page sends it: their child with four of the teachers. */
  parentGrid: string;
  bookings: number;
};

const localDate = (daysFromNow: number) =>
  new Date(Date.now() + daysFromNow * DAY_MS).toISOString().slice(0, 10);

/** Teachers and families in three statements each kind; the emails carry a tag so they never collide. */
async function seedPeople(db: Db, schoolId: number): Promise<void> {
  const tag = randomBytes(3).toString('hex');
  // Twelve surnames so that a search by name finds many people, as in a real school.
  const surname = sql`(array['Smith','Jones','Taylor','Brown','Williams','Wilson','Johnson','Davies','Patel',
    'Robinson','Wright','Thompson'])[1 + i % 12] || i`;
  await sql`INSERT INTO users (school_id, email, first_name, last_name)
    SELECT ${schoolId}::int, format('teacher%s.%s@scale.example.org', i, ${tag}::text), 'Teacher', ${surname}
    FROM generate_series(1, ${TEACHERS}) i
    UNION ALL
    SELECT ${schoolId}::int, format('parent%s.%s@scale.example.org', i, ${tag}::text), 'Parent', ${surname}
    FROM generate_series(1, ${FAMILIES}) i
    UNION ALL
    SELECT ${schoolId}::int, format('child%s.%s@scale.example.org', i, ${tag}::text), 'Child', ${surname}
    FROM generate_series(1, ${FAMILIES}) i`.execute(db);
  await sql`INSERT INTO user_roles (user_id, school_id, role)
    SELECT id, school_id, CASE first_name WHEN 'Teacher' THEN 'teacher' WHEN 'Parent' THEN 'parent'
      ELSE 'student' END
    FROM users WHERE school_id = ${schoolId} AND email LIKE ${`%.${tag}@scale.example.org`}`.execute(db);
  await sql`INSERT INTO parent_students (school_id, parent_id, student_id)
    SELECT ${schoolId}, p.id, c.id FROM users p
    JOIN users c ON c.email = 'child' || substr(p.email, 7)
    WHERE p.school_id = ${schoolId} AND p.email LIKE ${`parent%.${tag}@scale.example.org`}`.execute(db);
}

/**
 * 80 % of the families booked at an event, each once in a slot of its own (or sharing one up to its
 * capacity), slots taken in time order across the teachers: one booking per parent and child, so no
 * appointment overlaps another and no slot holds more than it may; the places triggers count them.
 */
async function seedBookings(db: Db, schoolId: number, eventId: number): Promise<number> {
  // Each slot spread into its places, so that the k-th family takes the k-th place by an equi-join.
  const insert = sql`WITH places AS (
      SELECT s.id, s.teacher_id, s.starts_at, s.ends_at,
        generate_series(sum(s.capacity) OVER w - s.capacity, sum(s.capacity) OVER w - 1) AS n
      FROM slots s WHERE s.school_id = ${schoolId} AND s.event_id = ${eventId}
      WINDOW w AS (ORDER BY s.starts_at, s.teacher_id, s.id)),
    f AS (
      SELECT parent_id, student_id, row_number() OVER (ORDER BY parent_id) - 1 AS n
      FROM parent_students WHERE school_id = ${schoolId}
      ORDER BY parent_id LIMIT ${Math.round(FAMILIES * BOOKED_SHARE)})
    INSERT INTO bookings (school_id, event_id, slot_id, teacher_id, starts_at, ends_at, parent_id, student_id,
      booked_by, confirmed_at)
    SELECT ${schoolId}, ${eventId}, p.id, p.teacher_id, p.starts_at, p.ends_at, f.parent_id, f.student_id,
      f.parent_id, now()
    FROM f JOIN places p USING (n)`;
  // The app's pool stops a statement after 10 s: the huge size's inserts (a trigger per row) take longer.
  const result = await db.transaction().execute(async (trx) => {
    await sql`SET LOCAL statement_timeout = 0`.execute(trx);
    return insert.execute(trx);
  });
  return Number(result.numAffectedRows ?? 0);
}

/** The slowest of the set-up calls seeding makes through the API, in ms (issue 39: jobs or not). */
const slowestSetup = { section: 0, recipients: 0 };
async function timed<T>(kind: keyof typeof slowestSetup, call: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await call();
  slowestSetup[kind] = Math.max(slowestSetup[kind], performance.now() - started);
  return result;
}

/** One event through the API: its section(s), every family a recipient, 80 % of them booked. */
async function seedEvent(
  app: FastifyInstance,
  db: Db,
  token: string,
  school: { schoolId: number; typeOf: (group: number) => number; teacherIds: number[] },
  event: { name: string; group: 1 | 4; daysFromNow: number },
) {
  const post = <T>(url: string, body: object) => apiCall<T>(app, token, 'POST', url, body);
  const { id } = await post<{ id: number }>('events/create', {
    name: event.name,
    eventTypeId: school.typeOf(event.group),
  });
  const date = localDate(event.daysFromNow);
  if (event.group === 1) {
    await post(`events/update?id=${id}`, { slotMinutes: 5, status: 1 });
    // 16:00–20:00: 48 five-minute slots per teacher, enough for every booked family at the small size.
    for (let first = 0; first < school.teacherIds.length; first += TEACHERS_PER_SECTION) {
      const teachers = school.teacherIds.slice(first, first + TEACHERS_PER_SECTION);
      await timed('section', () =>
        post(`events/create-section?eventId=${id}`, {
          date,
          start: '16:00',
          end: '20:00',
          location: `Block ${first / TEACHERS_PER_SECTION + 1}`,
          teachers: teachers.map((teacherId, index) => ({
            teacherId,
            location: `Room ${first + index + 1}`,
          })),
        }),
      );
    }
  } else {
    // 09:00–12:00 in 10-minute slots, each holding enough families for 80 % of them to fit.
    await post(`events/update?id=${id}`, {
      usersPerSlot: Math.ceil((FAMILIES * BOOKED_SHARE) / 18),
      status: 1,
    });
    await post(`events/create-section?eventId=${id}`, {
      date,
      start: '09:00',
      end: '12:00',
      location: 'Hall',
    });
  }
  await timed('recipients', () => post(`events/add-recipients?eventId=${id}&saveme=1`, { all: 'parents' }));
  return { id, bookings: await asOwner(() => seedBookings(db, school.schoolId, id)) };
}

const EVENTS: Array<{ name: string; group: 1 | 4; daysFromNow: number }> = [
  { name: 'Year 7 Parents Evening (autumn)', group: 1, daysFromNow: -120 },
  { name: 'Year 9 Parents Evening (autumn)', group: 1, daysFromNow: -90 },
  { name: 'Open morning (autumn)', group: 4, daysFromNow: -75 },
  { name: 'Year 11 Parents Evening (winter)', group: 1, daysFromNow: -40 },
  { name: 'Careers morning', group: 4, daysFromNow: -20 },
  { name: 'Parents Evening (spring)', group: 1, daysFromNow: 14 },
  { name: 'Open morning (spring)', group: 4, daysFromNow: 21 },
  { name: 'Sports morning', group: 4, daysFromNow: 28 },
];
const EVENING = 'Parents Evening (spring)';

async function seedSchool(db: Db): Promise<School> {
  const app = await buildApp({ db, config: benchConfig(), logger: false, rateLimitStore: new MemoryStore() });
  try {
    const admin = await adminToken(app, db, 'admin@scale.example.org');
    const { schoolId } = await db
      .selectFrom('auth_tokens')
      .select('school_id as schoolId')
      .executeTakeFirstOrThrow();
    // The sample events sign-up makes: this school's events are the bench's own.
    await asOwner(() => db.deleteFrom('events').where('school_id', '=', schoolId).execute());
    const { eventTypes } = await apiCall<{ eventTypes: Array<{ id: number; groupInt: number }> }>(
      app,
      admin,
      'GET',
      'events/index',
    );
    const typeOf = (group: number) => eventTypes.find((type) => type.groupInt === group)?.id ?? 0;
    await asOwner(() => seedPeople(db, schoolId));
    const people = await asOwner(() =>
      db
        .selectFrom('user_roles')
        .select(['user_id', 'role'])
        .where('school_id', '=', schoolId)
        .where('role', 'in', ['teacher', 'parent'])
        .orderBy('user_id')
        .execute(),
    );
    const teacherIds = people.filter((p) => p.role === 'teacher').map((p) => p.user_id);
    let evening = 0;
    let bookings = 0;
    for (const event of EVENTS) {
      const seeded = await seedEvent(app, db, admin, { schoolId, typeOf, teacherIds }, event);
      bookings += seeded.bookings;
      if (event.name === EVENING) evening = seeded.id;
    }
    await asOwner(() => sql`VACUUM ANALYZE`.execute(db));
    // Sessions as a login issues them: the first teacher, and the first parent (booked at the evening).
    const firstOf = (role: string) => people.find((p) => p.role === role)?.user_id ?? 0;
    const session = (userId: number) => issueToken(db, { userId, schoolId, kind: 'access' });
    const child = await asOwner(() =>
      db
        .selectFrom('parent_students')
        .select('student_id')
        .where('parent_id', '=', firstOf('parent'))
        .executeTakeFirstOrThrow(),
    );
    const chosen = teacherIds.slice(0, 4).map((teacherId) => ({ studentId: child.student_id, teacherId }));
    return {
      schoolId,
      evening,
      admin,
      teacher: await session(firstOf('teacher')),
      parent: await session(firstOf('parent')),
      parentGrid: encodeURIComponent(JSON.stringify(chosen)),
      bookings,
    };
  } finally {
    await app.close();
  }
}

// ── the calls ────────────────────────────────────────────────────────────────────────────────────────

/** streamed: sent as it was made (chunked), as a download of any size must be. */
type Answer = { status: number; bytes: number; streamed: boolean };

/** One request over a kept-alive connection; the body is read in full and counted, not parsed. */
function request(
  agent: http.Agent,
  port: number,
  token: string,
  method: string,
  path: string,
  body?: object,
) {
  const payload = body ? JSON.stringify(body) : undefined;
  return new Promise<Answer>((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: '127.0.0.1',
        port,
        method,
        path: `/api/${path}`,
        headers: {
          authorization: `Bearer ${token}`,
          ...(payload && {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(payload),
          }),
        },
      },
      (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            bytes,
            streamed: res.headers['transfer-encoding'] === 'chunked',
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

type Call = {
  name: string;
  token: keyof Pick<School, 'admin' | 'teacher' | 'parent'>;
  path: string;
  once?: boolean;
  /** A file: not an interactive call, but it must be streamed, never built whole (issue 39). */
  download?: boolean;
  /** Sent as a POST with this body (a call that changes nothing, as a preview). */
  body?: object;
};
type Row = {
  name: string;
  /** A call that left a job: how long until the job had ended, from the call (ms). */
  finishedMs?: number | undefined;
  once: boolean;
  download: boolean;
  streamed: boolean;
  runs: number;
  p50: number;
  p95: number;
  bytes: number;
  serverCpu: number;
  pgCpu: number;
  statements: number;
  status: number;
};

function callsOf(school: School): Call[] {
  const e = school.evening;
  return [
    { name: 'admin events list', token: 'admin', path: 'events/index' },
    { name: 'admin evening set-up', token: 'admin', path: `events/view?id=${e}` },
    { name: 'recipients, a page', token: 'admin', path: `events/recipients?eventId=${e}` },
    {
      name: 'recipients, searched',
      token: 'admin',
      path: `events/recipients?eventId=${e}&q=smith&notBooked=1`,
    },
    // "Add all parents" previewed: every family is a recipient already, so all 20,000 are counted as such.
    {
      name: 'recipients: add all (preview)',
      token: 'admin',
      path: `events/add-recipients?eventId=${e}`,
      body: { all: 'parents' },
    },
    { name: 'bookings, a page', token: 'admin', path: `events/bookings?eventId=${e}` },
    { name: 'bookings, searched', token: 'admin', path: `events/bookings?eventId=${e}&q=smith` },
    { name: 'directory: parents, a page', token: 'admin', path: 'users/parents?pageSize=50' },
    { name: 'directory: parents, last page', token: 'admin', path: 'users/parents?pageSize=50&page=400' },
    { name: 'directory: parents, by email', token: 'admin', path: 'users/parents?pageSize=50&sort=email' },
    { name: 'directory: parents, searched', token: 'admin', path: 'users/parents?pageSize=50&q=smith' },
    { name: 'people search', token: 'admin', path: 'users/search-email?q=smith' },
    {
      name: 'evening CSV export',
      token: 'admin',
      path: `events/download-bookings?eventId=${e}`,
      download: true,
    },
    { name: 'teacher schedule', token: 'teacher', path: `events/details-teacher?eventId=${e}` },
    { name: 'parent booking page', token: 'parent', path: `events/booking-view?eventId=${e}` },
    // The grid of the teachers the parent chose, as the booking page asks for it every 15 s.
    {
      name: 'parent evening slots',
      token: 'parent',
      path: `events/user-slots-for-pt?eventId=${e}&subjectTeacherData=${school.parentGrid}`,
    },
    { name: 'parent home', token: 'parent', path: 'site/index' },
    // Mail to every family not booked (into this database's outbox): once, after the reads.
    { name: 'reminder to not booked', token: 'admin', path: `message-types/send?eventId=${e}`, once: true },
  ];
}

/** One call as a family or the admin makes it. */
const sendCall = (agent: http.Agent, port: number, school: School, item: Call) =>
  item.once
    ? request(agent, port, school.admin, 'POST', item.path, {
        messageTypeName: 'reminder',
        audience: 'notBooked',
      })
    : item.body
      ? request(agent, port, school[item.token], 'POST', item.path, item.body)
      : request(agent, port, school[item.token], 'GET', item.path);

/** The high-water mark of a process's resident memory, in MB (Linux). */
function peakRssMb(pid: number | undefined): number | undefined {
  const peak =
    pid === undefined
      ? undefined
      : /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return peak === undefined ? undefined : Math.round(Number(peak) / 1024);
}

/**
 * Until the jobs a call left running have ended (a reminder beyond JOB_LIMITS.inline goes on after its
 * answer, decision 037): how long that took from `started`, in ms.
 */
async function jobsDone(db: Db, started: number): Promise<number> {
  for (;;) {
    const running = await asOwner(() =>
      db
        .selectFrom('jobs')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('status', '=', 'running')
        .executeTakeFirstOrThrow(),
    );
    if (Number(running.n) === 0) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function measure(
  server: ForkedServer,
  database: { db: Db; name: string },
  school: School,
  item: Call,
): Promise<Row> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const send = () => sendCall(agent, server.port, school, item);
  const runs = item.once ? 1 : RUNS;
  let status = 200;
  for (let i = 0; i < (item.once ? 0 : WARM_UP); i++) status = Math.max(status, (await send()).status);
  const before = { server: await server.stats(), postgres: postgresBackendsCpu(database.name) };
  const times: number[] = [];
  let bytes = 0;
  let streamed = false;
  let finishedMs: number | undefined;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const answer = await send();
    times.push(performance.now() - started);
    bytes = answer.bytes;
    streamed = answer.streamed;
    if (answer.status < 200 || answer.status > 299) status = answer.status;
    // Its CPU includes the work it left to a job.
    if (item.once) finishedMs = await jobsDone(database.db, started);
  }
  const after = await server.stats();
  const pgCpu = postgresCpuSince(before.postgres, database.name);
  agent.destroy();
  times.sort((x, y) => x - y);
  const serverCpu = after.cpuUserMs + after.cpuSystemMs - before.server.cpuUserMs - before.server.cpuSystemMs;
  return {
    name: item.name,
    once: item.once === true,
    download: item.download === true,
    streamed,
    runs,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    bytes,
    serverCpu: serverCpu / runs,
    pgCpu: pgCpu / runs,
    statements: (after.queries - before.server.queries) / runs,
    status,
    finishedMs,
  };
}

function print(rows: Row[]): void {
  const line = (cells: string[]) =>
    console.log(cells.map((cell, i) => (i === 0 ? cell.padEnd(30) : cell.padStart(10))).join(' '));
  line(['call', 'runs', 'p50 ms', 'p95 ms', 'bytes', 'app CPU ms', 'pg CPU ms', 'statements', 'goal']);
  for (const row of rows) {
    const met = row.p95 < GOAL.p95Ms && row.bytes < GOAL.bytes;
    line([
      row.name,
      String(row.runs),
      row.p50.toFixed(1),
      row.p95.toFixed(1),
      row.bytes.toLocaleString('en'),
      row.serverCpu.toFixed(2),
      row.pgCpu.toFixed(2),
      row.statements.toFixed(1),
      row.status > 299
        ? `HTTP ${row.status}`
        : row.once
          ? '(mail)'
          : row.download
            ? row.streamed
              ? '(streamed)'
              : 'not streamed'
            : met
              ? 'met'
              : 'missed',
    ]);
  }
}

// ── the run ──────────────────────────────────────────────────────────────────────────────────────────

async function run({ db, name, databaseUrl }: BenchDatabase): Promise<void> {
  const servers: ForkedServer[] = [];
  try {
    const started = performance.now();
    const school = await seedSchool(db);
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `scale ${SCALE}: ${TEACHERS} teachers, ${FAMILIES.toLocaleString('en')} families, ${EVENTS.length} events ` +
        `(5 past, 3 current), ${school.bookings.toLocaleString('en')} bookings; seeded in ${seconds.toFixed(1)} s ` +
        `(${cpus().length} CPUs, load average ${loadavg()[0]?.toFixed(1)})`,
    );
    console.log(
      `set-up calls while seeding (in process, slowest): a section of ${Math.min(TEACHERS, TEACHERS_PER_SECTION)} ` +
        `teachers ${Math.round(slowestSetup.section)} ms, every parent added as recipients ` +
        `${Math.round(slowestSetup.recipients)} ms`,
    );
    const server = await forkServer(fileURLToPath(import.meta.url), 'app', [databaseUrl]);
    servers.push(server);
    console.log(
      `per call: ${RUNS} runs after ${WARM_UP} warm-up (the reminder once), one at a time over HTTP; CPU per call ` +
        'of the app (its own process) and of PostgreSQL (its backends for this database); bytes of the body',
    );
    const mails = () =>
      db
        .selectFrom('mail_outbox')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
    const mailsBefore = Number((await mails()).n);
    const rows: Row[] = [];
    for (const item of callsOf(school)) rows.push(await measure(server, { db, name }, school, item));
    print(rows);
    // The reminder reaches the families not booked at the evening, one mail each.
    const reminded = Number((await mails()).n) - mailsBefore;
    const notBooked = FAMILIES - Math.round(FAMILIES * BOOKED_SHARE);
    const reminder = rows.find((row) => row.once);
    console.log(
      `reminder: ${reminded} mails queued for ${notBooked} families not booked; answered in ` +
        `${Math.round(reminder?.p50 ?? 0)} ms, the last queued ${Math.round(reminder?.finishedMs ?? 0)} ms after the call`,
    );
    const wrong = rows.filter((row) => row.status > 299).map((row) => `${row.name} HTTP ${row.status}`);
    if (reminded !== notBooked) wrong.push(`the reminder queued ${reminded} mails, not ${notBooked}`);
    const missed = rows.filter(
      (row) => !row.once && (row.download ? !row.streamed : row.p95 >= GOAL.p95Ms || row.bytes >= GOAL.bytes),
    );
    console.log(
      `goals (huge size: interactive p95 < ${GOAL.p95Ms} ms and < 1 MB): ${missed.length === 0 ? 'met' : `missed by ${missed.map((row) => row.name).join(', ')}`}` +
        (SCALE === 'huge' ? '' : ` (at ${SCALE}, for information)`),
    );
    // The server's peak resident memory over the whole run (Linux: the process's high-water mark). The
    // bench's server runs from TypeScript with the bench loaded and no page renderer; the goal is the
    // production build's, as `npm run build` makes it and the Dockerfile starts it, renderer included.
    console.log(
      `bench server (tsx, no page renderer) peak RSS: ${peakRssMb(server.child.pid) ?? 'unknown'} MB`,
    );
    const production = await productionPeakRss(databaseUrl, school);
    console.log(
      production === undefined
        ? 'production build peak RSS: not measured (no apps/server/dist/main.js: run npm run build first)'
        : `production build peak RSS, the same calls: ${production} MB (goal at the huge size < ${GOAL.rssMb} MB: ${
            production < GOAL.rssMb ? 'met' : 'missed'
          })`,
    );
    if (wrong.length > 0) {
      console.log(`wrong answers: ${wrong.join(', ')}`);
      process.exitCode = 1;
    }
  } finally {
    await stopServers(servers.map((server) => server.child));
  }
}

/** A port nothing listens on now, from the system. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** The image's NODE_OPTIONS (its heap ceiling, decision 036), read from the Dockerfile's runtime stage. */
const IMAGE_NODE_OPTIONS =
  /^ENV .*\bNODE_OPTIONS=(\S+)/m.exec(readFileSync(new URL('../Dockerfile', import.meta.url), 'utf8'))?.[1] ??
  '';

/**
 * The production build on the same database, started as the Dockerfile starts it (its NODE_OPTIONS, the
 * mail worker on the dev mailbox, the page renderer warmed): every call again, as many times, then its peak
 * resident memory.
 */
async function productionPeakRss(databaseUrl: string, school: School): Promise<number | undefined> {
  const main = fileURLToPath(new URL('../apps/server/dist/main.js', import.meta.url));
  if (!existsSync(main)) return undefined;
  const port = await freePort();
  const child = spawn(process.execPath, ['--enable-source-maps', main], {
    env: {
      ...process.env,
      NODE_OPTIONS: IMAGE_NODE_OPTIONS,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    for (let tries = 0; ; tries++) {
      const ready = await fetch(`http://127.0.0.1:${port}/api/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) break;
      if (tries > 600 || child.exitCode !== null) throw new Error('the production build did not start');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    for (const item of callsOf(school))
      for (let i = 0; i < (item.once ? 1 : WARM_UP + RUNS); i++) await sendCall(agent, port, school, item);
    agent.destroy();
    return peakRssMb(child.pid);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

/** The server child: the app as main.ts runs it, its statements counted. */
async function serve(databaseUrl: string): Promise<void> {
  const statements = statementCounter({ timed: false });
  const { port, close } = await listenApp(databaseUrl, 'silent', statements.hook);
  serveChild(port, close, statements.counted);
}

const serveAt = process.argv.indexOf('--serve');
if (serveAt >= 0) await serve(process.argv[serveAt + 2] ?? '');
else await onBenchDatabase(run);
