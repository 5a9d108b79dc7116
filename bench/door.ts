// The door (issue 10): ticket holders arrive at the doors of a ticketed event and each one is checked as the
// scanner app checks them (apps/web scan-logic.ts checkCode): validate-ticket, then scan-ticket only for a
// valid, unscanned ticket. A "person" is that check, one validate and usually one scan. Through the real app
// listening on a port, beside a bare Fastify + pg endpoint that sends the very same SQL statements (the
// app's are captured for one person each run and compared with the bare endpoint's, statement by statement).
//
//   npm run bench:door          (BENCH_DATABASE_URL or TEST_DATABASE_URL, else the local postgres)
//
// 1. Latency: 10 doors, each letting in its own queue of 2,000 people (20,000 tickets, each presented
//    once), one person after another at each door with no pause (a real door takes seconds per person:
//    this is its worst case), the doors side by side. Goal: p95 per person < 50 ms.
// 2. Throughput: 50 doors flat out on 5,000 people per round, one in 20 of them presenting a ticket that
//    another door is presenting at the same moment (a shared screenshot); app and bare endpoint alternate,
//    3 rounds each after a warm-up, on the same queue. Goals: 0 double admissions (SQL after each round),
//    0 5xx, app at least 0.7× the bare endpoint's people/s.
// It creates its own database (parley_bench_<random>), drops it at the end, and exits non-zero when a goal
// is missed. The app and the bare endpoint each run in a child process (the load generator stays here),
// both with the app's pool (BENCH_POOL_SIZE: the app's default of 5 connections unless set; named prepared
// statements), and both as the app's role parley_app under row-level security in the school's scope
// (bench-support asAppRole); the app runs as main.ts runs it
// (logger at LOG_LEVEL, default info, written to /dev/null). Knobs: BENCH_DOORS (10),
// BENCH_PEOPLE_PER_DOOR (2000), BENCH_CONNECTIONS (50), BENCH_PEOPLE (5000 per throughput round),
// BENCH_ROUNDS (3), BENCH_LOG_LEVEL (info), BENCH_PROFILE=1 (time the SQL statements in both servers),
// BENCH_CPU_PROF=<dir> (V8 CPU profiles of both servers, named by pid, to compare where their time goes).
import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { SCAN_WINDOW_HOURS_MAX } from '@parley/domain/events';
import { scanWindowState } from '@parley/domain/tickets';
import Fastify from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app';
import type { Db } from '../apps/server/src/db/database';
import { asOwner } from '../apps/server/src/db/scope';
import { MemoryStore } from '../apps/server/src/lib/rate-limiter';
import { issueToken } from '../apps/server/src/modules/tokens/tokens.repository';
import { seedFamilies, seedTickets as seedFamilyTickets } from '../apps/server/test/concurrency/race-support';
import {
  adminToken,
  asAppRole,
  BENCH_POOL_SIZE,
  type BenchDatabase,
  benchConfig,
  type ForkedServer,
  forkServer,
  listenApp,
  listenOn,
  machineBusyMs,
  onBenchDatabase,
  percentile,
  postgresBackendsCpu,
  postgresCpuSince,
  serveChild,
  stopServers,
} from './bench-support';
import { type RecordedStatement, type StatementCounter, statementCounter } from './statement-counter';

const DOORS = Number(process.env.BENCH_DOORS ?? 10);
const PEOPLE_PER_DOOR = Number(process.env.BENCH_PEOPLE_PER_DOOR ?? 2000);
const TICKETS = DOORS * PEOPLE_PER_DOOR;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const PEOPLE = Math.min(TICKETS, Number(process.env.BENCH_PEOPLE ?? 5000));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** One person in SHARED presents a ticket that another door is presenting at the same moment. */
const SHARED = 20;
const WARM_UP = 1000;
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
const PROFILE = process.env.BENCH_PROFILE === '1';
const CPU_PROF = process.env.BENCH_CPU_PROF;
/** The app's pool (db/database.ts), for the bare endpoint too. */
const POOL = {
  max: BENCH_POOL_SIZE,
  connectionTimeoutMillis: 5000,
  options: '-c lock_timeout=3000 -c statement_timeout=10000',
};
const GOAL = { p95Ms: 50, ratio: 0.7 };

// ── what the bare endpoint sends: the app's statements, word for word ───────────────────────────────

const TICKET_SELECT = [
  'select "t"."id", "t"."code", "t"."event_id", "t"."user_id", "t"."guest_index", "t"."status",',
  '"t"."scanned_at", "t"."scanned_by", "u"."first_name", "u"."last_name", "u"."email",',
  '"e"."name" as "event_name", "et"."group_int", "sc"."timezone", "b"."starts_at", "s"."location",',
  "nullif(trim(coalesce(sb.first_name, '') || ' ' || coalesce(sb.last_name, '')), '') as \"scanned_by_name\",",
  'exists (select 1 from event_scanners es where es.event_id = t.event_id and es.user_id = $1) as "i_scan",',
  // The door's window (issue 35) and the database's clock it is judged by, as doorRead selects them.
  '(select min(ws.starts_at) from sections ws where ws.school_id = t.school_id and ws.event_id = t.event_id)',
  '- make_interval(hours => e.scan_opens_hours_before) as "scan_opens_at",',
  '(select max(ws.ends_at) from sections ws where ws.school_id = t.school_id and ws.event_id = t.event_id)',
  '+ make_interval(hours => e.scan_closes_hours_after) as "scan_closes_at", now() as "checked_at"',
  'from "tickets" as "t" inner join "users" as "u" on "u"."id" = "t"."user_id"',
  'inner join "events" as "e" on "e"."id" = "t"."event_id"',
  'inner join "event_types" as "et" on "et"."id" = "e"."event_type_id"',
  'inner join "schools" as "sc" on "sc"."id" = "t"."school_id"',
  'inner join "bookings" as "b" on "b"."id" = "t"."booking_id"',
  'left join "slots" as "sl" on "sl"."id" = "b"."slot_id"',
  'left join "sections" as "s" on "s"."id" = "sl"."section_id"',
  'left join "users" as "sb" on "sb"."id" = "t"."scanned_by"',
].join(' ');

const BARE_SQL = {
  session:
    'select "s"."user_id" as "userId", "s"."school_id" as "schoolId", "s"."roles", "s"."expires_at" as "expiresAt" from parley_session($1) as "s"',
  scanner:
    'select "user_id" from "event_scanners" where "school_id" = $1 and "event_id" = $2 and "user_id" = $3',
  ticket: `${TICKET_SELECT} where "t"."school_id" = $2 and "t"."code" = $3`,
  scanAnswer:
    'select "answer" from "ticket_scans" where "school_id" = $1 and "by_user" = $2 and "client_nonce" = $3',
  recordScan: [
    'insert into "ticket_scans" ("school_id", "event_id", "ticket_id", "action", "by_user", "device_id",',
    '"client_nonce", "device_time", "answer") values ($1, $2, $3, $4, $5, $6, $7, $8, $9)',
    'on conflict ("by_user", "client_nonce") where "client_nonce" is not null do nothing returning "id"',
  ].join(' '),
  admit: [
    'update "tickets" set "scanned_at" = now(), "scanned_by" = $1, "scanned_device" = $2',
    'where "school_id" = $3 and "id" = $4 and "status" = $5 and "scanned_at" is null returning "scanned_at",',
    "(select nullif(trim(u.first_name || ' ' || u.last_name), '') from users u where u.id = $6) as \"scanned_by_name\"",
  ].join(' '),
};

// ── the two servers (child processes) ────────────────────────────────────────────────────────────────

/** One statement as a server sent it, and the ids its rows came back with (to match per-request values). */
type Statement = RecordedStatement;

type Session = { userId: number; schoolId: number; roles: string[] };
type TicketRow = {
  id: number;
  code: string;
  event_id: number;
  status: string;
  scanned_at: Date | null;
  i_scan: boolean;
  scan_opens_at: Date | null;
  scan_closes_at: Date | null;
  checked_at: Date;
};
type Run = <T>(text: string, values: unknown[]) => Promise<T[]>;

/** Named prepared statements, as the app sends them (db/statement-pool.ts): planned once per connection. */
const statementNames = new Map(
  Object.values(BARE_SQL).map((text) => [
    text,
    `k${createHash('sha1').update(text).digest('hex').slice(0, 20)}`,
  ]),
);
const runOn =
  (statements: StatementCounter, target: pg.Pool | pg.PoolClient): Run =>
  async <T>(text: string, values: unknown[]) =>
    (await statements.run(target, text, values, statementNames.get(text))).rows as T[];

/**
 * The bare endpoint: the same routes, the same statements with the same parameters in the same order, the
 * scan in one transaction on one connection, as tickets.service.ts does; nothing else (no schemas, no
 * logger, an answer made of the row as it came).
 */
function bareApp(pool: pg.Pool, statements: StatementCounter) {
  const app = Fastify({ logger: false });
  const onPool = runOn(statements, pool);
  // Sessions kept in the process, as the app keeps them (decision 029; the bench changes none).
  const kept = new Map<string, Session>();
  const session = async (authorization: string | undefined): Promise<Session | undefined> => {
    const token = authorization?.match(/^Bearer\s+(\S+)$/i)?.[1];
    if (!token) return undefined;
    const hash = createHash('sha256').update(token).digest('hex');
    const found = kept.get(hash) ?? (await onPool<Session>(BARE_SQL.session, [hash]))[0];
    if (found) kept.set(hash, found);
    return found;
  };
  const ticketFor = async (run: Run, who: Session, code: string, eventId: number | undefined) => {
    const row = (await run<TicketRow>(BARE_SQL.ticket, [who.userId, who.schoolId, code]))[0];
    const door = eventId ?? row?.event_id;
    if (door === undefined)
      return who.roles.includes('admin') ? ({ refusal: 'unknown' } as const) : ({ forbidden: true } as const);
    const mayScan =
      who.roles.includes('admin') ||
      (row && row.event_id === door
        ? row.i_scan
        : (await run(BARE_SQL.scanner, [who.schoolId, door, who.userId])).length > 0);
    if (!mayScan) return { forbidden: true } as const;
    if (!row) return { refusal: 'unknown' } as const;
    if (row.event_id !== door) return { row, refusal: 'other event' } as const;
    if (row.status !== 'valid') return { row, refusal: 'voided' } as const;
    // The window, judged as the app judges it (by the database's clock read with the ticket).
    const window = { opensAt: row.scan_opens_at, closesAt: row.scan_closes_at };
    if (scanWindowState(window, row.checked_at) !== 'open') return { row, refusal: 'window' } as const;
    return { row } as const;
  };
  const ticket = (row: TicketRow) => ({
    ...row,
    ticketId: row.code,
    eventId: row.event_id,
    scanned: row.scanned_at !== null,
  });

  app.get('/api/tickets/validate-ticket', async (request, reply) => {
    const who = await session(request.headers.authorization);
    if (!who) return reply.code(401).send({ action: 'logout' });
    const query = request.query as { ticketId: string; eventId?: string };
    const found = await ticketFor(
      onPool,
      who,
      query.ticketId,
      query.eventId ? Number(query.eventId) : undefined,
    );
    if ('forbidden' in found) return reply.code(403).send({ message: 'forbidden' });
    if (!found.row || found.refusal) return { data: { valid: false, message: found.refusal } };
    return { data: { valid: true, message: 'valid', ticket: ticket(found.row) } };
  });

  app.post('/api/tickets/scan-ticket', async (request, reply) => {
    const who = await session(request.headers.authorization);
    if (!who) return reply.code(401).send({ action: 'logout' });
    const body = request.body as {
      ticketId: string;
      eventId?: number;
      clientNonce?: string;
      deviceId?: string;
    };
    const nonce = body.clientNonce ?? null;
    const device = body.deviceId ?? null;
    const client = await pool.connect();
    const run = runOn(statements, client);
    const send = (text: 'begin' | 'commit' | 'rollback') => statements.run(client, text);
    try {
      await send('begin');
      const found = await ticketFor(run, who, body.ticketId, body.eventId);
      if ('forbidden' in found) {
        await send('rollback');
        return reply.code(403).send({ message: 'forbidden' });
      }
      const { row, refusal } = found;
      let answer: string;
      if (!row) {
        answer = JSON.stringify({ data: { success: false, message: refusal, alreadyScanned: false } });
      } else {
        const admitted = refusal
          ? undefined
          : (
              await run<{ scanned_at: Date; scanned_by_name: string | null }>(BARE_SQL.admit, [
                who.userId,
                device,
                who.schoolId,
                row.id,
                'valid',
                who.userId,
              ])
            )[0];
        const already = !refusal && !admitted;
        const now = admitted
          ? { ...row, ...admitted }
          : already && !row.scanned_at
            ? ((await run<TicketRow>(BARE_SQL.ticket, [who.userId, who.schoolId, body.ticketId]))[0] ?? row)
            : row;
        const message = admitted ? 'admitted' : already ? 'already scanned' : refusal;
        answer = JSON.stringify({
          data: { success: Boolean(admitted), message, alreadyScanned: already, ticket: ticket(now) },
        });
        const scan = (
          await run<{ id: number }>(BARE_SQL.recordScan, [
            who.schoolId,
            row.event_id,
            row.id,
            admitted ? 'admit' : 'refused',
            who.userId,
            device,
            nonce,
            null, // device_time: only an offline door's synced scan has one
            answer,
          ])
        )[0];
        if (!scan && nonce) {
          // An answered nonce: undo this attempt and give the first answer.
          await send('rollback');
          const first = (
            await onPool<{ answer: unknown }>(BARE_SQL.scanAnswer, [who.schoolId, who.userId, nonce])
          )[0];
          return first?.answer;
        }
      }
      await send('commit');
      return reply.type('application/json').send(answer);
    } catch (error) {
      await send('rollback').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  });
  return app;
}

async function serve(kind: 'app' | 'bare', databaseUrl: string, schoolId: number): Promise<void> {
  // Every statement the server sends is counted (and timed with BENCH_PROFILE), and recorded on demand.
  const statements = statementCounter({ timed: PROFILE });
  const capture = (message: { type: string; on?: unknown }) =>
    message.type === 'capture'
      ? { type: 'captured', statements: statements.record(message.on === true) }
      : undefined;
  if (kind === 'app') {
    const { port, close } = await listenApp(databaseUrl, LOG_LEVEL, statements.hook);
    serveChild(port, close, statements.counted, capture);
    return;
  }
  // As the app's connections work: the app's role, under row-level security, in the school's scope.
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    ...POOL,
    options: `${POOL.options} ${asAppRole(schoolId)}`,
  });
  const app = bareApp(pool, statements);
  const port = await listenOn(app);
  serveChild(
    port,
    async () => {
      await app.close();
      await pool.end();
    },
    statements.counted,
    capture,
  );
}

type Server = ForkedServer & {
  /** Starts recording the statements sent, or stops and returns them. */
  capture(on: boolean): Promise<Statement[]>;
};

async function startServer(kind: 'app' | 'bare', databaseUrl: string, schoolId: number): Promise<Server> {
  const server = await forkServer(
    fileURLToPath(import.meta.url),
    kind,
    [databaseUrl, String(schoolId)],
    CPU_PROF,
  );
  return {
    ...server,
    capture: async (on) =>
      (await server.ask<{ statements: Statement[] }>({ type: 'capture', on }, 'captured')).statements,
  };
}

// ── the event ────────────────────────────────────────────────────────────────────────────────────────

/** A scanner at a door: a member of staff named in the event's canScanUserIds, on their own phone. */
type Door = { userId: number; token: string; device: string };
type Evening = { schoolId: number; eventId: number; doors: Door[]; codes: string[] };

/** A ticketed event (one section, 18:00–21:00 a week ahead), its scanners, and TICKETS tickets. */
async function setUp(db: Db): Promise<Evening> {
  const config = benchConfig();
  const app = await buildApp({ db, config, logger: false, rateLimitStore: new MemoryStore() });
  try {
    const email = 'admin@door.example.org';
    const token = await adminToken(app, db, email);
    const call = async <T>(url: string, payload: unknown) => {
      const res = await app.inject({
        method: 'POST',
        url: `/api/${url}`,
        headers: { authorization: `Bearer ${token}` },
        payload: payload as Record<string, unknown>,
      });
      if (res.statusCode !== 200)
        throw new Error(`${url} failed: ${res.statusCode} ${res.body.slice(0, 300)}`);
      return res.json() as T;
    };
    const { school_id: schoolId } = await db
      .selectFrom('users')
      .select('school_id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const type = await db
      .selectFrom('event_types')
      .select('id')
      .where('school_id', '=', schoolId)
      .where('group_int', '=', 2)
      .executeTakeFirstOrThrow();
    const concert = async (name: string, days: number) => {
      const { id } = await call<{ id: number }>('events/create', { name, eventTypeId: type.id });
      // Its door open whenever the bench runs (issue 35's window: two months either side).
      await call(`events/update?id=${id}`, {
        status: 1,
        usersPerSlot: 10000,
        scanOpensHoursBefore: SCAN_WINDOW_HOURS_MAX,
        scanClosesHoursAfter: SCAN_WINDOW_HOURS_MAX,
      });
      await call(`events/create-section?eventId=${id}`, {
        date: new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10),
        start: '18:00',
        end: '21:00',
        location: 'Sports hall',
      });
      return id;
    };
    const pastEventId = await concert('Spring concert', -60);
    const eventId = await concert('Summer concert', 7);
    const doors: Door[] = [];
    for (let i = 0; i < Math.max(DOORS, CONNECTIONS); i++) {
      const { id } = await call<{ id: number }>('users/create-teacher', {
        firstName: `Door${i}`,
        lastName: 'Steward',
        email: `door${i}@door.example.org`,
        sendInvite: false,
      });
      // A session as a login issues it (argon2 logins for 50 people would only slow the setup).
      doors.push({
        userId: id,
        token: await issueToken(db, { userId: id, schoolId, kind: 'access' }),
        device: '',
      });
    }
    for (const door of doors) door.device = `door-phone-${door.userId}`;
    await call(`events/update-can-scan-user-ids?id=${eventId}`, {
      canScanUserIds: doors.map((d) => d.userId),
    });
    const codes = await seedTickets(db, schoolId, eventId, pastEventId);
    await seedHistory(db, pastEventId, doors[0]?.userId ?? 0);
    // VACUUM is the tables' owner's: as the app's role it would skip them with a warning.
    await asOwner(() => sql`VACUUM ANALYZE`.execute(db));
    return { schoolId, eventId, doors, codes };
  } finally {
    await app.close();
  }
}

/**
 * One ticket per family (the child's) for each event, booked straight in the database as the door-race
 * suite does; the codes of the first event's.
 */
async function seedTickets(db: Db, schoolId: number, ...eventIds: number[]): Promise<string[]> {
  const families = await seedFamilies(db, schoolId, TICKETS);
  const codes: string[][] = [];
  for (const eventId of eventIds) codes.push(await seedFamilyTickets(db, schoolId, eventId, families));
  return codes[0] ?? [];
}

/**
 * Last term's concert, every ticket scanned and its scan recorded: the door's tables hold a school's
 * history, as they would. (Empty and analysed, they would also make PostgreSQL cache a sequential scan of
 * ticket_scans as the generic plan of the prepared nonce lookup: a first-event artefact, not the door.)
 */
async function seedHistory(db: Db, eventId: number, doorId: number): Promise<void> {
  await sql`UPDATE tickets t SET scanned_at = b.starts_at + random() * interval '1 hour', scanned_by = ${doorId},
      scanned_device = 'door-phone-history'
    FROM bookings b WHERE b.id = t.booking_id AND t.event_id = ${eventId}`.execute(db);
  await sql`INSERT INTO ticket_scans (school_id, event_id, ticket_id, action, by_user, device_id, client_nonce,
      answer, created_at)
    SELECT school_id, event_id, id, 'admit', scanned_by, scanned_device, gen_random_uuid()::text,
      jsonb_build_object('data', jsonb_build_object('success', true, 'message', 'Ticket Scanned Successfully!',
        'alreadyScanned', false, 'ticket', jsonb_build_object('ticketId', code, 'eventId', event_id,
        'userId', user_id, 'scannedBy', scanned_by, 'scanned', true, 'scannedDate', scanned_at))),
      scanned_at
    FROM tickets WHERE event_id = ${eventId}`.execute(db);
}

// ── the load generator ───────────────────────────────────────────────────────────────────────────────

type Tally = {
  people: number;
  scans: number;
  seconds: number;
  /** Per person (validate and, when valid, scan), per validate, per scan, in ms. */
  person: number[];
  validate: number[];
  scan: number[];
  statuses: Map<number, number>;
  /** Answers "admitted", by ticket code. */
  admitted: Map<string, number>;
  already: number;
  /** Answers that were neither admitted nor already scanned (an error, or the ticket refused). */
  other: number;
};

const emptyTally = (): Tally => ({
  people: 0,
  scans: 0,
  seconds: 0,
  person: [],
  validate: [],
  scan: [],
  statuses: new Map(),
  admitted: new Map(),
  already: 0,
  other: 0,
});

function request(
  agent: http.Agent,
  port: number,
  method: 'GET' | 'POST',
  path: string,
  door: Door,
  body?: string,
) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: {
          authorization: `Bearer ${door.token}`,
          ...(body !== undefined && {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          }),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

type Validated = { data: { valid: boolean; ticket?: { scanned: boolean; eventId: number } } };
type Scanned = { data: { success: boolean; alreadyScanned: boolean } };

/** One person at a door, as the scanner app checks them: validate, then scan a valid, unscanned ticket. */
async function checkPerson(
  agent: http.Agent,
  port: number,
  eventId: number,
  door: Door,
  code: string,
  tally: Tally,
) {
  const count = (status: number) => tally.statuses.set(status, (tally.statuses.get(status) ?? 0) + 1);
  const started = performance.now();
  const validate = await request(
    agent,
    port,
    'GET',
    `/api/tickets/validate-ticket?ticketId=${code}&eventId=${eventId}`,
    door,
  );
  const validated = performance.now();
  tally.validate.push(validated - started);
  tally.people += 1;
  count(validate.status);
  let outcome: 'admitted' | 'already' | 'other' = 'other';
  if (validate.status === 200) {
    const { data } = JSON.parse(validate.body) as Validated;
    if (data.ticket?.scanned && data.ticket.eventId === eventId) outcome = 'already';
    else if (data.valid) {
      const body = JSON.stringify({
        ticketId: code,
        eventId,
        clientNonce: randomUUID(),
        deviceId: door.device,
        scannedBy: door.userId,
      });
      const scan = await request(agent, port, 'POST', '/api/tickets/scan-ticket', door, body);
      tally.scan.push(performance.now() - validated);
      tally.scans += 1;
      count(scan.status);
      if (scan.status === 200) {
        const answer = (JSON.parse(scan.body) as Scanned).data;
        outcome = answer.success ? 'admitted' : answer.alreadyScanned ? 'already' : 'other';
      }
    }
  }
  tally.person.push(performance.now() - started);
  if (outcome === 'admitted') tally.admitted.set(code, (tally.admitted.get(code) ?? 0) + 1);
  else if (outcome === 'already') tally.already += 1;
  else tally.other += 1;
}

/** Each door checks its own queue, one person after another; the doors run side by side. */
async function atDoors(
  port: number,
  eventId: number,
  queues: Array<{ door: Door; codes: Iterable<string> }>,
) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: queues.length });
  const tally = emptyTally();
  const started = performance.now();
  await Promise.all(
    queues.map(async ({ door, codes }) => {
      for (const code of codes) await checkPerson(agent, port, eventId, door, code, tally);
    }),
  );
  tally.seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return tally;
}

/** Every door takes the next person of one shared line as soon as it is free, as fast as it can. */
function flatOut(port: number, eventId: number, doors: Door[], line: string[]) {
  let next = 0;
  function* nextPeople(): Generator<string> {
    for (let code = line[next++]; code !== undefined; code = line[next++]) yield code;
  }
  return atDoors(
    port,
    eventId,
    doors.map((door) => ({ door, codes: nextPeople() })),
  );
}

const shuffled = <T>(items: T[]): T[] => {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
};

/** PEOPLE people in a random order; one in SHARED is followed at once by a copy of their ticket. */
function throughputLine(codes: string[]): { line: string[]; distinct: number } {
  const people = shuffled(codes).slice(0, PEOPLE);
  return {
    line: people.flatMap((code, i) => (i % SHARED === SHARED - 1 ? [code, code] : [code])),
    distinct: people.length,
  };
}

// ── checks and resets ────────────────────────────────────────────────────────────────────────────────

/** What the rows say after a phase: no ticket admitted twice, one admit recorded per scanned ticket. */
async function checkAdmissions(db: Db, eventId: number, tally: Tally, distinct: number, kind: string) {
  const { rows } = await sql<{ scanned: number; admits: number; twice: number }>`
    select
      (select count(*)::int from tickets where event_id = ${eventId} and scanned_at is not null) as scanned,
      (select count(*)::int from ticket_scans where event_id = ${eventId} and action = 'admit') as admits,
      (select count(*)::int from (select ticket_id from ticket_scans where event_id = ${eventId}
        and action = 'admit' group by ticket_id having count(*) > 1) as twice) as twice`.execute(db);
  const row = rows[0] ?? { scanned: -1, admits: -1, twice: -1 };
  const answeredTwice = [...tally.admitted.values()].filter((n) => n > 1).length;
  const problems: string[] = [];
  if (row.admits !== row.scanned)
    problems.push(`${kind}: ${row.admits} admits recorded for ${row.scanned} tickets scanned`);
  if (row.scanned !== tally.admitted.size)
    problems.push(`${kind}: ${row.scanned} tickets scanned for ${tally.admitted.size} answered "admitted"`);
  if (tally.admitted.size !== distinct)
    problems.push(`${kind}: ${tally.admitted.size} of ${distinct} people admitted`);
  if (tally.already !== tally.people - distinct)
    problems.push(
      `${kind}: ${tally.already} "already scanned" for ${tally.people - distinct} second presentations`,
    );
  return { doubleAdmissions: Math.max(row.twice, answeredTwice), problems };
}

async function reset(db: Db, eventId: number): Promise<void> {
  await sql`UPDATE tickets SET scanned_at = NULL, scanned_by = NULL, scanned_device = NULL
    WHERE event_id = ${eventId} AND scanned_at IS NOT NULL`.execute(db);
  await sql`DELETE FROM ticket_scans WHERE event_id = ${eventId}`.execute(db);
  await asOwner(() => sql`VACUUM ANALYZE tickets, ticket_scans`.execute(db));
}

// ── the statements, captured ─────────────────────────────────────────────────────────────────────────

type Probe = { validate: Statement[]; scan: Statement[] };

/** One person checked at a door with every statement the server sends recorded, call by call. */
async function probe(
  server: Server,
  eventId: number,
  door: Door,
  code: string,
  nonce: string,
): Promise<Probe> {
  const agent = new http.Agent({ keepAlive: false });
  try {
    await server.capture(true);
    const validate = await request(
      agent,
      server.port,
      'GET',
      `/api/tickets/validate-ticket?ticketId=${code}&eventId=${eventId}`,
      door,
    );
    const validateStatements = await server.capture(false);
    await server.capture(true);
    const body = JSON.stringify({
      ticketId: code,
      eventId,
      clientNonce: nonce,
      deviceId: door.device,
      scannedBy: door.userId,
    });
    const scan = await request(agent, server.port, 'POST', '/api/tickets/scan-ticket', door, body);
    const scanStatements = await server.capture(false);
    if (validate.status !== 200 || scan.status !== 200 || !(JSON.parse(scan.body) as Scanned).data.success)
      throw new Error(
        `${server.kind} probe: validate ${validate.status}, scan ${scan.status} ${scan.body.slice(0, 200)}`,
      );
    // Not the call's own work: a connection's switch into the caller's school (db/scope.ts; a server busy
    // with one school sends none), a session's last-used touch (once a minute per door's session), and the
    // session lookup (once per door's session: both sides keep sessions, decision 029).
    const perCall = (statements: Statement[]) =>
      statements.filter(
        ({ text }) =>
          !text.startsWith("select set_config('role'") &&
          !text.startsWith('update "auth_tokens" set "last_used_at"') &&
          text !== BARE_SQL.session,
      );
    return { validate: perCall(validateStatements), scan: perCall(scanStatements) };
  } finally {
    agent.destroy();
  }
}

/**
 * Where the bare endpoint's statements differ from the app's: text, protocol, parameter count and type,
 * and value, except a value that legitimately differs per request: the answer's JSON, or an id that the
 * same earlier statement returned on each side (the new scan row's id).
 */
function differences(call: string, app: Statement[], bare: Statement[]): string[] {
  const found: string[] = [];
  if (app.length !== bare.length)
    found.push(`${call}: the app sends ${app.length} statements, the bare endpoint ${bare.length}`);
  app.forEach((ours, i) => {
    const theirs = bare[i];
    if (!theirs) return;
    const where = `${call} statement ${i + 1}`;
    if (ours.text !== theirs.text) found.push(`${where}: text differs: ${theirs.text}`);
    if (ours.prepared !== theirs.prepared)
      found.push(`${where}: prepared ${ours.prepared} vs ${theirs.prepared}`);
    if (ours.values.length !== theirs.values.length)
      found.push(`${where}: ${ours.values.length} vs ${theirs.values.length} parameters`);
    ours.values.forEach((value, j) => {
      const other = theirs.values[j];
      if (value === other) return;
      const json =
        typeof value === 'string' &&
        typeof other === 'string' &&
        value.startsWith('{') &&
        other.startsWith('{');
      // An id each side got back from the same earlier statement (ids may coincide across tables: any will do).
      const sameSource = app
        .slice(0, i)
        .some(
          (earlier, k) => earlier.ids.includes(value as number) && bare[k]?.ids.includes(other as number),
        );
      if (!json && !sameSource)
        found.push(`${where} $${j + 1}: ${JSON.stringify(value)} vs ${JSON.stringify(other)}`);
    });
  });
  return found;
}

function printStatements(probe: Probe): void {
  const seen: string[] = [];
  const show = (value: unknown) => {
    const text = JSON.stringify(value);
    return text.length > 60 ? `${text.slice(0, 57)}…"` : text;
  };
  for (const [call, statements] of [
    ['validate-ticket', probe.validate],
    ['scan-ticket', probe.scan],
  ] as const) {
    console.log(`  ${call}: ${statements.length} statements`);
    statements.forEach((statement, i) => {
      const before = seen.indexOf(statement.text);
      if (before < 0) seen.push(statement.text);
      const text = before >= 0 ? `[${before + 1}] again` : `[${seen.length}] ${statement.text}`;
      const values = statement.values.length ? ` ← ${statement.values.map(show).join(', ')}` : '';
      console.log(`    ${i + 1}. ${text}${statement.prepared ? '' : ' (not prepared)'}${values}`);
    });
  }
}

// ── figures ──────────────────────────────────────────────────────────────────────────────────────────

/**
 * Where the time of a phase went: CPU (ms) of the server, its PostgreSQL backends, the load generator, and
 * of every other process of the machine (the machine is shared: this says how quiet it was).
 */
type Cost = {
  serverCpu: number;
  postgresCpu: number;
  clientCpu: number;
  otherCpu: number;
  queries: number;
  queryMs: number;
};
type Side = { tally: Tally; doubleAdmissions: number; problems: string[]; cost: Cost };

const emptySide = (): Side => ({
  tally: emptyTally(),
  doubleAdmissions: 0,
  problems: [],
  cost: { serverCpu: 0, postgresCpu: 0, clientCpu: 0, otherCpu: 0, queries: 0, queryMs: 0 },
});

function add(side: Side, tally: Tally, check: { doubleAdmissions: number; problems: string[] }, cost: Cost) {
  const into = side.tally;
  into.people += tally.people;
  into.scans += tally.scans;
  into.seconds += tally.seconds;
  into.person.push(...tally.person);
  into.validate.push(...tally.validate);
  into.scan.push(...tally.scan);
  for (const [status, n] of tally.statuses) into.statuses.set(status, (into.statuses.get(status) ?? 0) + n);
  into.already += tally.already;
  into.other += tally.other;
  side.doubleAdmissions += check.doubleAdmissions;
  side.problems.push(...check.problems);
  for (const key of Object.keys(cost) as Array<keyof Cost>) side.cost[key] += cost[key];
}

/** Runs one measured phase and what it cost. */
async function measured(server: Server, database: string, run: () => Promise<Tally>) {
  const before = {
    server: await server.stats(),
    postgres: postgresBackendsCpu(database),
    client: process.cpuUsage(),
    machine: machineBusyMs(),
  };
  const tally = await run();
  const after = await server.stats();
  const client = process.cpuUsage(before.client);
  const ours = {
    serverCpu: after.cpuUserMs + after.cpuSystemMs - before.server.cpuUserMs - before.server.cpuSystemMs,
    postgresCpu: postgresCpuSince(before.postgres, database),
    clientCpu: (client.user + client.system) / 1000,
  };
  const cost: Cost = {
    ...ours,
    otherCpu: Math.max(
      0,
      machineBusyMs() - before.machine - ours.serverCpu - ours.postgresCpu - ours.clientCpu,
    ),
    queries: after.queries - before.server.queries,
    queryMs: after.queryMs - before.server.queryMs,
  };
  return { tally, cost };
}

const fiveXx = (tally: Tally) =>
  [...tally.statuses].reduce((n, [status, count]) => n + (status >= 500 ? count : 0), 0);
const at = (samples: number[], p: number) =>
  percentile(
    [...samples].sort((a, b) => a - b),
    p,
  );
const ms = (value: number) => `${value.toFixed(1)} ms`;
const peopleRate = (tally: Tally) => tally.people / tally.seconds;

function figures(name: string, side: Side): string {
  const { tally } = side;
  const statuses = [...tally.statuses].map(([status, n]) => `${status}×${n}`).join(' ');
  return [
    `${name.padEnd(4)} ${peopleRate(tally).toFixed(0).padStart(5)} people/s (${(tally.scans / tally.seconds).toFixed(0)} scans/s)`,
    `person p50 ${ms(at(tally.person, 50))}, p95 ${ms(at(tally.person, 95))}, p99 ${ms(at(tally.person, 99))}`,
    `validate p50 ${ms(at(tally.validate, 50))}, p99 ${ms(at(tally.validate, 99))}`,
    `scan p50 ${ms(at(tally.scan, 50))}, p99 ${ms(at(tally.scan, 99))}`,
    `${tally.people} people, ${tally.scans} scans (${statuses}), ${tally.already} already scanned`,
    `5xx ${fiveXx(tally)}`,
    `double admissions ${side.doubleAdmissions}`,
  ].join(' | ');
}

function costLine(name: string, side: Side): string {
  const per = (value: number) => (value / side.tally.people).toFixed(2);
  const { cost } = side;
  const waiting = PROFILE ? `, ${per(cost.queryMs)} ms waiting on them` : '';
  const others = (100 * cost.otherCpu) / (side.tally.seconds * 1000 * cpus().length);
  return (
    `  ${name} per person: CPU ${per(cost.serverCpu)} ms server + ${per(cost.postgresCpu)} ms PostgreSQL + ` +
    `${per(cost.clientCpu)} ms load generator; ${per(cost.queries)} SQL statements${waiting}; meanwhile ` +
    `the rest of the machine (other processes, PostgreSQL's own) kept ${others.toFixed(0)}% of its CPUs busy`
  );
}

// ── main ─────────────────────────────────────────────────────────────────────────────────────────────

async function main({ db, name, databaseUrl }: BenchDatabase): Promise<void> {
  const servers: Server[] = [];
  try {
    const started = performance.now();
    const { schoolId, eventId, doors, codes } = await setUp(db);
    console.log(
      `door: a ticketed event with ${TICKETS.toLocaleString('en')} tickets and ${doors.length} scanners ` +
        `(setup ${((performance.now() - started) / 1000).toFixed(1)} s; ${cpus().length} CPUs, load average ${loadavg()[0]?.toFixed(1)}); ` +
        `a person is validate-ticket then, for a valid unscanned ticket, scan-ticket; app log level ${LOG_LEVEL}`,
    );
    const app = await startServer('app', databaseUrl, schoolId);
    servers.push(app);
    const bare = await startServer('bare', databaseUrl, schoolId);
    servers.push(bare);
    if (CPU_PROF)
      console.log(`CPU profiles in ${CPU_PROF}: app pid ${app.child.pid}, bare pid ${bare.child.pid}`);
    const problems: string[] = [];

    // The statements: the app's for one person, then the bare endpoint's for the same person (same
    // scanner, ticket, nonce and device, the ticket unscanned again in between).
    const [probeDoor] = doors;
    const [probeCode] = codes;
    if (!probeDoor || !probeCode) throw new Error('no door or ticket');
    const nonce = randomUUID();
    const appProbe = await probe(app, eventId, probeDoor, probeCode, nonce);
    await reset(db, eventId);
    const bareProbe = await probe(bare, eventId, probeDoor, probeCode, nonce);
    await reset(db, eventId);
    const perPerson = appProbe.validate.length + appProbe.scan.length;
    console.log(
      `SQL statements per person (the app's, captured; the bare endpoint sends the same): ${perPerson}`,
    );
    printStatements(appProbe);
    problems.push(
      ...differences('validate-ticket', appProbe.validate, bareProbe.validate),
      ...differences('scan-ticket', appProbe.scan, bareProbe.scan),
    );

    // Warm-up: unmeasured, each side (JIT, pools, prepared statements on every connection).
    for (const server of [app, bare]) {
      await flatOut(server.port, eventId, doors.slice(0, CONNECTIONS), shuffled(codes).slice(0, WARM_UP));
      await reset(db, eventId);
    }

    // 1. Latency: DOORS doors, PEOPLE_PER_DOOR people each, every ticket presented once.
    const order = shuffled(codes);
    const queues = doors.slice(0, DOORS).map((door, i) => ({
      door,
      codes: order.slice(i * PEOPLE_PER_DOOR, (i + 1) * PEOPLE_PER_DOOR),
    }));
    const latency = emptySide();
    const opening = await measured(app, name, () => atDoors(app.port, eventId, queues));
    add(
      latency,
      opening.tally,
      await checkAdmissions(db, eventId, opening.tally, TICKETS, 'latency'),
      opening.cost,
    );
    await reset(db, eventId);
    console.log(
      `latency: ${DOORS} doors × ${PEOPLE_PER_DOOR.toLocaleString('en')} people each (every ticket presented once, ` +
        'one person after another at each door with no pause, the doors side by side), app only',
    );
    console.log(figures('app', latency));
    console.log(costLine('app', latency));

    // 2. Throughput: CONNECTIONS doors flat out, app and bare alternating on the same line of people.
    const sides = { app: emptySide(), bare: emptySide() };
    const rounds: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const { line, distinct } = throughputLine(codes);
      for (const server of [app, bare]) {
        const { tally, cost } = await measured(server, name, () =>
          flatOut(server.port, eventId, doors.slice(0, CONNECTIONS), line),
        );
        add(
          sides[server.kind === 'app' ? 'app' : 'bare'],
          tally,
          await checkAdmissions(db, eventId, tally, distinct, server.kind),
          cost,
        );
        rounds.push(peopleRate(tally));
        await reset(db, eventId);
      }
    }
    const ratio = peopleRate(sides.app.tally) / peopleRate(sides.bare.tally);
    console.log(
      `throughput: ${CONNECTIONS} doors flat out, ${ROUNDS} rounds per side after a warm-up, each ` +
        `${PEOPLE.toLocaleString('en')} people, one in ${SHARED} presenting a ticket another door presents at the same moment`,
    );
    console.log(figures('app', sides.app));
    console.log(figures('bare', sides.bare));
    const perRound = rounds.flatMap((rate, i) => (i % 2 === 0 ? [rate / (rounds[i + 1] ?? Number.NaN)] : []));
    console.log(
      `app/bare throughput ${ratio.toFixed(3)} (round by round: ${perRound.map((r) => r.toFixed(2)).join(', ')})`,
    );
    console.log(costLine('app', sides.app));
    console.log(costLine('bare', sides.bare));

    const p95 = at(latency.tally.person, 95);
    const doubles = latency.doubleAdmissions + sides.app.doubleAdmissions + sides.bare.doubleAdmissions;
    const errors = fiveXx(latency.tally) + fiveXx(sides.app.tally);
    const goals = [
      [`latency p95 < ${GOAL.p95Ms} ms (${p95.toFixed(1)})`, p95 < GOAL.p95Ms],
      [`0 double admissions (${doubles})`, doubles === 0],
      [`0 5xx (${errors})`, errors === 0],
      [`app/bare throughput ≥ ${GOAL.ratio} (${ratio.toFixed(3)})`, ratio >= GOAL.ratio],
    ] as const;
    console.log(`goals: ${goals.map(([goal, met]) => `${goal} ${met ? 'met' : 'MISSED'}`).join(' | ')}`);
    problems.push(...latency.problems, ...sides.app.problems, ...sides.bare.problems);
    for (const problem of problems) console.log(`problem: ${problem}`);
    if (goals.some(([, met]) => !met) || problems.length > 0) process.exitCode = 1;
  } finally {
    await stopServers(servers.map((server) => server.child));
  }
}

const serveAt = process.argv.indexOf('--serve');
if (serveAt >= 0) {
  await serve(
    process.argv[serveAt + 1] === 'bare' ? 'bare' : 'app',
    process.argv[serveAt + 2] ?? '',
    Number(process.argv[serveAt + 3]),
  );
} else {
  await onBenchDatabase(main);
}
