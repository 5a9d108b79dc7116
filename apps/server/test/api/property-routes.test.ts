import type { Role } from '@parley/domain/roles';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../src/modules/tokens/tokens.repository';
import { PUBLIC_ROUTES } from '../../src/plugins/public-routes';
import {
  booked,
  bookingPage,
  type Evening,
  evening,
  freeSlots,
  type KindEvent,
  kindEvent,
  sessionFor,
} from '../booking/booking-helpers';
import { daysAhead } from '../events/events-helpers';
import { bearer, PASSWORD, uniqueIp } from '../factories';
import { createTestApp, type TestApp } from '../test-app';
import {
  fuzzArbitrary,
  type Hint,
  hostileArbitrary,
  hostileString,
  type JsonSchema,
  typeOf,
  validArbitrary,
} from './schema-arbitrary';

// Property-based input tests over every route of the OpenAPI document (a new route is covered without a
// line here): query, path parameters and JSON bodies generated from each route's own schema by fast-check,
// mixing values the schema accepts (with the real ids of a seeded school, so calls reach the services and
// the database) with hostile ones, as the admin and a parent of that school and, on public routes, as a
// stranger. Every answer is below 500, every 4xx carries { message, errors? }; a failure names the caller,
// the route and the smallest input that breaks it (fast-check shrinks it).
//
// Bounded for CI: PROPERTY_RUNS inputs per route and caller (default 12), from PROPERTY_SEED (printed).
// Replay or dig deeper:
//   PROPERTY_SEED=7 PROPERTY_RUNS=200 PROPERTY_ROUTE='^POST /api/events/update$' \
//     npx vitest run --project api-pglite apps/server/test/api/property-routes.test.ts
// (PROPERTY_ROUTE is a regular expression on "METHOD /path".) A route's inputs depend only on the seed and
// the route, but calls change the school's data: a replay of one route may need the others before it.

const positive = (name: string, fallback: number) => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0)
    throw new Error(`${name} must be a whole number, not ${raw}`);
  return value;
};
const SEED = positive('PROPERTY_SEED', 20_251_125);
const RUNS = Math.max(1, positive('PROPERTY_RUNS', 12));
const ONLY = process.env.PROPERTY_ROUTE ? new RegExp(process.env.PROPERTY_ROUTE) : undefined;
/** Runs where the caller's role is refused before any input is read. */
const REFUSED_RUNS = 3;
/** Shrinking replays calls against a database that has moved on: a bound keeps a failing run short. */
const MAX_SHRINKS = 150;

type Parameter = { in: string; name: string; required?: boolean; schema: JsonSchema };
type Operation = {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema: JsonSchema }> };
};
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Route = { method: Method; path: string; op: Operation; isPublic: boolean };
type Caller = 'admin' | 'parent' | 'anonymous';

/** One generated request: query (a list is a repeated key), path parameters, a raw query tail, a body. */
type Call = {
  query: Record<string, string | string[]>;
  params: Record<string, string>;
  tail: string;
  body?: unknown;
  rawBody?: string;
};

type BodyPart = { body?: unknown; rawBody?: string };

/** What a seeded school holds right now: the ids and texts the hints draw from. */
type Pools = {
  users: number[];
  admins: number[];
  teachers: number[];
  parents: number[];
  students: number[];
  emails: string[];
  subjects: number[];
  events: number[];
  eventTypes: number[];
  codes: string[];
  sections: number[];
  slots: number[];
  bookings: number[];
  tickets: string[];
  mails: number[];
  /** Live links of the mails (invitation, verification, reset), minted for the routes that take one. */
  links: string[];
};

type Fixture = { e: Evening; concert: KindEvent; pools: Pools };

// ── the request ──────────────────────────────────────────────────────────────────────────────────────

/** Percent-encoding of any JS string, a lone surrogate as the bytes a careless client sends (WTF-8). */
function percentEncode(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (char.length === 1 && code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    } else out += encodeURIComponent(char);
  }
  return out;
}

/** A value as query text: numbers and booleans as written, null as empty, lists as repeated keys. */
function queryText(value: unknown): string | string[] {
  if (Array.isArray(value)) return value.map((item) => String(queryText(item)));
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function urlOf(route: Route, call: Call): string {
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => percentEncode(call.params[name] ?? ''));
  const pairs = Object.entries(call.query).flatMap(([key, value]) =>
    (Array.isArray(value) ? value : [value]).map((text) => `${percentEncode(key)}=${percentEncode(text)}`),
  );
  if (call.tail) pairs.push(call.tail);
  return pairs.length ? `${path}?${pairs.join('&')}` : path;
}

/** Malformed percent escapes and query tricks, appended raw. */
const QUERY_TAILS = [
  '%',
  '%zz',
  '%FF',
  '%C0%80',
  '%ED%A0%80',
  'id=1&id=2',
  '&&',
  '=',
  'a[b]=c',
  '__proto__[x]=1',
  'constructor=1',
  `x=${'y'.repeat(5000)}`,
];

/** Malformed JSON, sent raw. */
const RAW_BODIES = [
  '{',
  '{"a":',
  "{'a':1}",
  '[1,]',
  'undefined',
  '"\\ud800"',
  '{"__proto__":{"x":1}}',
  '1e999999',
];

function parametersOf(route: Route, where: 'query' | 'path') {
  return (route.op.parameters ?? []).filter((parameter) => parameter.in === where);
}

/** Query or path parameters: all valid (required ones present), or each now and then hostile or missing. */
function parametersArbitrary(
  parameters: Parameter[],
  hint: Hint,
  mode: 'valid' | 'fuzz',
  where: 'query' | 'path',
): fc.Arbitrary<Record<string, string | string[]>> {
  const shape: Record<string, fc.Arbitrary<string | string[] | undefined>> = {};
  for (const parameter of parameters) {
    const valid = validArbitrary(parameter.schema, { hint }, parameter.name).map(queryText);
    const present =
      mode === 'valid'
        ? valid
        : fc.oneof(
            { weight: 5, arbitrary: valid },
            {
              weight: 2,
              arbitrary: fuzzArbitrary(parameter.schema, { hint }, parameter.name).map(queryText),
            },
            { weight: 1, arbitrary: hostileString() },
            ...(where === 'query'
              ? [{ weight: 1, arbitrary: fc.array(valid.map(String), { minLength: 2, maxLength: 3 }) }]
              : []),
          );
    const always = where === 'path' || (parameter.required && mode === 'valid');
    shape[parameter.name] = always
      ? present
      : fc.option(present, { nil: undefined, freq: parameter.required ? 8 : 2 });
  }
  return fc
    .record(shape)
    .map(
      (values) =>
        Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Record<
          string,
          string | string[]
        >,
    );
}

function callArbitrary(route: Route, hint: Hint): fc.Arbitrary<Call> {
  const schema = route.op.requestBody?.content?.['application/json']?.schema;
  const query = (mode: 'valid' | 'fuzz') =>
    parametersArbitrary(parametersOf(route, 'query'), hint, mode, 'query');
  const params = (mode: 'valid' | 'fuzz') =>
    parametersArbitrary(parametersOf(route, 'path'), hint, mode, 'path') as fc.Arbitrary<
      Record<string, string>
    >;
  const noBody = fc.constant<BodyPart>({});
  const validBody: fc.Arbitrary<BodyPart> = schema
    ? validArbitrary(schema, { hint }).map((body) => ({ body }))
    : noBody;
  const fuzzBody: fc.Arbitrary<BodyPart> = schema
    ? fc.oneof(
        { weight: 6, arbitrary: fuzzArbitrary(schema, { hint }).map((body) => ({ body })) },
        { weight: 2, arbitrary: hostileArbitrary(schema, { hint }).map((body) => ({ body })) },
        { weight: 1, arbitrary: noBody },
        { weight: 1, arbitrary: fc.constantFrom(...RAW_BODIES).map((rawBody) => ({ rawBody })) },
      )
    : route.method === 'GET'
      ? noBody
      : fc.oneof(
          { weight: 6, arbitrary: noBody },
          { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((body) => ({ body })) },
        );
  const valid = fc
    .record({ query: query('valid'), params: params('valid'), body: validBody })
    .map(({ query, params, body }): Call => ({ query, params, tail: '', ...body }));
  const fuzz = fc
    .record({
      query: query('fuzz'),
      params: params('fuzz'),
      tail: fc.oneof(
        { weight: 8, arbitrary: fc.constant('') },
        { weight: 1, arbitrary: fc.constantFrom(...QUERY_TAILS) },
      ),
      body: fuzzBody,
    })
    .map(({ body, ...rest }): Call => ({ ...rest, ...body }));
  return fc.limitShrink(
    fc.oneof({ weight: 2, arbitrary: valid }, { weight: 3, arbitrary: fuzz }),
    MAX_SHRINKS,
  );
}

// ── the school's real ids, as hints ──────────────────────────────────────────────────────────────────

/** Times of day, with midnight, the last minute, and the hour a clock skips or repeats at a DST change. */
const hhmm = fc.oneof(
  fc
    .tuple(fc.integer({ min: 6, max: 21 }), fc.constantFrom(0, 10, 15, 30, 45, 50))
    .map(([hour, minute]) => `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`),
  fc.constantFrom('00:00', '01:30', '02:30', '23:55', '23:59'),
);

/** Days ahead, and the days clocks change (Europe and America), a leap day, the year's last day. */
const day = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: -3, max: 60 }).map(daysAhead) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('2027-03-28', '2027-10-31', '2027-03-14', '2028-02-29', '2027-12-31'),
  },
);

/** An instant as the event form sends it: ISO with a zone, or local time (in the school's zone) in a DST gap. */
const instant = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .integer({ min: -10, max: 30 })
      .map((days) => new Date(Date.now() + days * 86_400_000).toISOString()),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom('2027-03-28T01:30', '2027-10-31T01:30', '2027-03-14T02:30:00-05:00'),
  },
);

/** Where a route says `id`, which kind of row it means (by its path). */
function idPool(route: Route, pools: Pools): number[] {
  if (route.path.includes('/dev/mailbox')) return pools.mails;
  if (route.path.includes('/subjects/')) return pools.subjects;
  if (route.path.startsWith('/api/events/') || route.path.startsWith('/api/message-types/'))
    return pools.events;
  if (route.path.startsWith('/api/users/') || route.path.startsWith('/api/user/')) {
    // "view-teacher-for-admin" is about a teacher: the person's role first, admin last.
    for (const role of ['teacher', 'parent', 'student', 'admin'] as const)
      if (route.path.includes(role)) return pools[`${role}s`];
    return pools.users;
  }
  return [...pools.events, ...pools.users];
}

function csvFor(route: Route, pools: Pools): fc.Arbitrary<string> {
  const name = fc.constantFrom('Ada', 'Émile', 'Zoë', "O'Neil", 'Li', '"Quoted, Name"', '=cmd()');
  const email = pools.emails.length
    ? fc.oneof(fc.emailAddress(), fc.constantFrom(...pools.emails))
    : fc.emailAddress();
  if (route.path.includes('teachers')) {
    const row = fc
      .tuple(name, name, email, fc.constantFrom('Maths', 'Art;Science', '', 'Unknown'))
      .map((cells) => cells.join(','));
    return fc
      .array(row, { maxLength: 4 })
      .map((rows) => ['First name,Last name,Email,Subjects', ...rows].join('\n'));
  }
  const row = fc.tuple(name, name, email, name, name, email).map((cells) => cells.join(','));
  return fc
    .array(row, { maxLength: 4 })
    .map((rows) =>
      [
        'Student first name,Student last name,Student email,Parent first name,Parent last name,Parent email',
        ...rows,
      ].join('\n'),
    );
}

function hintFor(route: Route, pools: Pools): Hint {
  const from = <T>(values: T[]) => (values.length ? fc.constantFrom(...values) : undefined);
  const numbers: Record<string, number[]> = {
    id: idPool(route, pools),
    eventId: pools.events,
    eventTypeId: pools.eventTypes,
    sectionId: pools.sections,
    slotId: pools.slots,
    bookingId: pools.bookings,
    cancelBookingId: pools.bookings,
    userSlotId: pools.bookings,
    subjectId: pools.subjects,
    subject_id: pools.subjects,
    teacherId: pools.teachers,
    studentId: pools.students,
    parentId: pools.parents,
    userId: pools.users,
    scannedBy: pools.users,
    canScanUserId: pools.users,
  };
  const [student, teacher, subject] = [from(pools.students), from(pools.teachers), from(pools.subjects)];
  const subjectTeacher =
    student && teacher && subject
      ? fc
          .array(fc.record({ studentId: student, teacherId: teacher, subjectId: fc.option(subject) }), {
            maxLength: 4,
          })
          .map((items) => JSON.stringify(items))
      : undefined;
  const texts: Record<string, fc.Arbitrary<string> | undefined> = {
    email: from(pools.emails),
    contactEmail: from(pools.emails),
    code: from(pools.codes),
    ticketId: from(pools.tickets),
    token: from(pools.links),
    password: fc.constant(PASSWORD),
    confirmPassword: fc.constant(PASSWORD),
    currentPassword: fc.constant(PASSWORD),
    date: day,
    start: hhmm,
    end: hhmm,
    earliest: hhmm,
    latest: hhmm,
    timezone: fc.constantFrom(
      'Europe/London',
      'UTC',
      'America/New_York',
      'Asia/Kathmandu',
      'Pacific/Chatham',
    ),
    csv: csvFor(route, pools),
    subjectTeacherData: subjectTeacher,
    messageTypeName: fc.constantFrom('inviteToBook', 'reminder'),
    idempotencyKey: fc.uuid(),
    clientNonce: fc.uuid(),
    deviceToken: fc.uuid(),
    deviceId: fc.constantFrom('door-1', 'door-2'),
    gownSize: fc.constantFrom('S', 'M', 'L'),
    gownSizeId: fc.constantFrom('S', 'M', 'L'),
    gownSizes: fc.constantFrom('S', 'M', 'L', 'XL'),
    opensAt: instant,
    closesAt: instant,
    scannedAt: fc.integer({ min: 0, max: 3_600_000 }).map((ms) => new Date(Date.now() - ms).toISOString()),
    website: fc.constantFrom('https://example.org', 'http://school.example.org/a?b=c'),
    videoConferenceUrl: fc.constantFrom('https://meet.example.org/room', 'https://example.org'),
    forceRefresh: fc.constantFrom('1', 'true'),
  };
  const hint: Hint = (name, schema) => {
    const type = typeOf(schema);
    if (type === 'integer' || type === 'number') return from(numbers[name.replace(/Ids$/, 'Id')] ?? []);
    if (type === 'string') return texts[name];
    const properties = schema.properties ?? {};
    // A span (a section, an unavailable time): start before end, the other fields as the schema says.
    if (type === 'object' && properties.start && properties.end) {
      const others = Object.fromEntries(
        Object.entries(properties)
          .filter(([key]) => key !== 'start' && key !== 'end')
          .map(([key, child]) => [key, validArbitrary(child, { hint }, key)]),
      );
      const required = (schema.required ?? []).filter((key) => key in others);
      return fc
        .tuple(fc.record(others, { requiredKeys: required }), span)
        .map(([rest, [start, end]]) => ({ ...rest, start, end }));
    }
    // A section's teachers: each once.
    if (type === 'array' && name === 'teachers' && schema.items)
      return fc.uniqueArray(validArbitrary(schema.items, { hint }, name), {
        maxLength: 4,
        selector: (item) => (item as { teacherId?: unknown }).teacherId,
      });
    return undefined;
  };
  return hint;
}

const minutesOfDay = fc.integer({ min: 0, max: 24 * 12 - 1 }).map((step) => step * 5);
/** Two times of day, the first before the second. */
const span = fc
  .uniqueArray(minutesOfDay, { minLength: 2, maxLength: 2 })
  .map((pair) =>
    pair
      .sort((a, b) => a - b)
      .map(
        (minutes) =>
          `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`,
      ),
  );

// ── checks ───────────────────────────────────────────────────────────────────────────────────────────

/** What a client must never see in an error: a stack, a source path, the database's or the framework's words. */
const LEAK =
  /\n\s+at |\.ts:\d+|node_modules|SQLSTATE|syntax error|violates|relation "|column "|FST_ERR|TypeError|RangeError|is not (iterable|a function|defined)|Cannot (read|set|convert)|Maximum call stack/;

/** Why an answer is wrong, or null: a 5xx, or a 4xx without { message, errors? }. */
function problemWith(response: LightMyRequestResponse): string | null {
  const status = response.statusCode;
  if (status >= 500) return `answered ${status}`;
  if (status < 400) return null;
  if (!String(response.headers['content-type']).startsWith('application/json'))
    return `answered ${status} as ${response.headers['content-type']}, not JSON`;
  let body: unknown;
  try {
    body = response.json();
  } catch {
    return `answered ${status} with a body that is not JSON`;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return `answered ${status} without an object`;
  const { message, errors } = body as { message?: unknown; errors?: unknown };
  if (typeof message !== 'string' || message === '') return `answered ${status} without a message`;
  if (errors !== undefined) {
    const fine =
      typeof errors === 'object' &&
      errors !== null &&
      !Array.isArray(errors) &&
      Object.values(errors).every(
        (texts) =>
          Array.isArray(texts) && texts.length > 0 && texts.every((text) => typeof text === 'string' && text),
      );
    if (!fine) return `answered ${status} with errors that are not { field: [text] }`;
  }
  if (LEAK.test(response.body)) return `answered ${status} with internals in its body`;
  return null;
}

/** An input as one line: long text cut, so a 100 KB string reads as its start and its length. */
function show(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    typeof item === 'string' && item.length > 120 ? `${item.slice(0, 40)}…[${item.length} chars]` : item,
  );
}

/** A seed per route and caller, from the run's seed: one route replays alone with the same inputs. */
function seedFor(key: string): number {
  let hash = SEED | 0;
  for (const char of key) hash = (Math.imul(hash, 31) + (char.codePointAt(0) ?? 0)) | 0;
  return hash;
}

// ── the seeded school ────────────────────────────────────────────────────────────────────────────────

async function poolsOf(t: TestApp, e: Evening): Promise<Pools> {
  const schoolId = e.schoolId;
  const roles = await t.db
    .selectFrom('user_roles')
    .innerJoin('users', 'users.id', 'user_roles.user_id')
    .select(['users.id', 'users.email', 'user_roles.role'])
    .where('user_roles.school_id', '=', schoolId)
    .orderBy('users.id')
    .execute();
  const ofRole = (role: string) => roles.filter((row) => row.role === role).map((row) => row.id);
  const ids = async (table: 'subjects' | 'sections' | 'slots' | 'bookings', limit: number) =>
    (
      await t.db
        .selectFrom(table)
        .select('id')
        .where('school_id', '=', schoolId)
        .orderBy('id')
        .limit(limit)
        .execute()
    ).map((row) => row.id);
  const events = await t.db
    .selectFrom('events')
    .select(['id', 'code'])
    .where('school_id', '=', schoolId)
    .execute();
  const types = await t.db.selectFrom('event_types').select('id').where('school_id', '=', schoolId).execute();
  const tickets = await t.db
    .selectFrom('tickets')
    .select('code')
    .where('school_id', '=', schoolId)
    .limit(10)
    .execute();
  const mails = await t.db.selectFrom('dev_mailbox').select('id').orderBy('id', 'desc').limit(3).execute();
  return {
    users: [...new Set(roles.map((row) => row.id))],
    admins: ofRole('admin'),
    teachers: ofRole('teacher'),
    parents: ofRole('parent'),
    students: ofRole('student'),
    emails: [...new Set(roles.map((row) => row.email))].slice(0, 10),
    subjects: await ids('subjects', 10),
    events: events.map((row) => row.id),
    eventTypes: types.map((row) => row.id),
    codes: events.map((row) => row.code),
    sections: await ids('sections', 10),
    slots: await ids('slots', 20),
    bookings: await ids('bookings', 10),
    tickets: tickets.map((row) => row.code),
    mails: mails.map((row) => row.id),
    links: [],
  };
}

/** An evening with a booking, and a concert with three tickets: every kind of row a route names. */
async function seeded(t: TestApp): Promise<Fixture> {
  const e = await evening(t, { quick: true, schoolName: 'Property Academy' });
  const concert = await kindEvent(
    t,
    e,
    'ticketed',
    'Summer concert',
    { usersPerSlot: 100, guestAllowance: 2 },
    [{ date: daysAhead(14), start: '18:30', end: '20:30', location: 'Theatre' }],
  );
  const [child] = e.children;
  const [teacher] = e.teachers;
  const page = await bookingPage(e, e.parent.token, e.code);
  await booked(e, e.parent.token, [
    {
      slotId: freeSlots(page.grid, teacher?.id ?? 0)[0] ?? 0,
      studentId: child?.id ?? 0,
      subjectId: e.subjects[0] ?? 0,
    },
  ]);
  await booked({ http: e.http, eventId: concert.eventId }, e.parent.token, [
    { slotId: await firstSlot(t, concert.eventId), studentId: child?.id ?? 0, guests: 2 },
  ]);
  return { e, concert, pools: await poolsOf(t, e) };
}

async function firstSlot(t: TestApp, eventId: number): Promise<number> {
  const slot = await t.db
    .selectFrom('slots')
    .select('id')
    .where('event_id', '=', eventId)
    .executeTakeFirstOrThrow();
  return slot.id;
}

// ── the run ──────────────────────────────────────────────────────────────────────────────────────────

describe('property-based input over every route of the OpenAPI document', () => {
  let t: TestApp;
  let fixture: Fixture;
  let routes: Route[];
  const counts = {
    requests: 0,
    reseeds: 0,
    properties: 0,
    refused: 0,
    callers: new Set<Caller>(),
    routes: new Set<string>(),
    statuses: new Map<string, number>(),
  };

  beforeAll(async () => {
    t = await createTestApp();
    fixture = await seeded(t);
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, Operation>>;
    };
    routes = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/'))
      .flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, op]) => {
          const upper = method.toUpperCase() as Method;
          return { method: upper, path, op, isPublic: PUBLIC_ROUTES.has(`${upper} ${path}`) };
        }),
      )
      .filter((route) => !ONLY || ONLY.test(`${route.method} ${route.path}`));
  }, 120_000);

  afterAll(async () => {
    const statuses = [...counts.statuses].sort().map(([status, n]) => `${status} ${n}`);
    console.log(
      `property-routes: ${counts.routes.size} routes, ${counts.callers.size} callers (${[...counts.callers].join(', ')}), ` +
        `${counts.properties} route×caller properties (${counts.refused} refused by role: ${REFUSED_RUNS} runs), ` +
        `${counts.requests} requests (${statuses.join(', ')}), ${RUNS} runs per route and caller, ` +
        `seed ${SEED} (env PROPERTY_SEED, PROPERTY_RUNS, PROPERTY_ROUTE), ${counts.reseeds} reseeds`,
    );
    await t?.close();
  });

  async function send(route: Route, call: Call, caller: Caller): Promise<LightMyRequestResponse> {
    const { e } = fixture;
    // A fresh session per call: a logout or password change by the previous call does not end the next.
    const auth =
      caller === 'anonymous'
        ? {}
        : bearer(await sessionFor(t, caller === 'admin' ? e.admin.id : e.parent.id));
    const payload = call.rawBody ?? (call.body === undefined ? undefined : JSON.stringify(call.body));
    const response = await t.app.inject({
      method: route.method,
      url: urlOf(route, call),
      // The dev mailbox answers the loopback address only: its routes are fuzzed from there.
      remoteAddress: route.path.startsWith('/api/dev/') ? '127.0.0.1' : uniqueIp(),
      headers: { ...auth, ...(payload !== undefined && { 'content-type': 'application/json' }) },
      ...(payload !== undefined && { payload }),
    });
    counts.requests += 1;
    const status = `${String(response.statusCode).slice(0, 1)}xx`;
    counts.statuses.set(status, (counts.statuses.get(status) ?? 0) + 1);
    return response;
  }

  /** The admin and the parent can still call, and both events still take bookings: else a fresh school. */
  async function keepFixture(): Promise<void> {
    const { e, concert } = fixture;
    const answers = async (userId: number, url: string) =>
      (await t.app.inject({ url, headers: bearer(await sessionFor(t, userId)) })).statusCode === 200;
    const fine =
      (await answers(e.admin.id, '/api/users/admins')) &&
      (await answers(e.parent.id, `/api/events/booking-view?eventId=${e.eventId}`)) &&
      (await answers(e.parent.id, `/api/events/booking-view?eventId=${concert.eventId}`));
    if (fine) fixture.pools = await poolsOf(t, e);
    else {
      counts.reseeds += 1;
      fixture = await seeded(t);
    }
  }

  /** Fresh links of every kind a mail carries (an invitation per role, a verification, a reset). */
  async function mintLinks(): Promise<string[]> {
    const { e } = fixture;
    const link = (userId: number | undefined, kind: 'invite' | 'verify' | 'reset', role?: Role) =>
      issueToken(t.db, { userId: userId ?? e.admin.id, schoolId: e.schoolId, kind, ...(role && { role }) });
    return Promise.all([
      link(e.admin.id, 'invite', 'admin'),
      link(e.teachers[0]?.id, 'invite', 'teacher'),
      link(e.otherParent.id, 'invite', 'parent'),
      link(e.otherChild.id, 'invite', 'student'),
      link(e.admin.id, 'verify'),
      link(e.otherParent.id, 'reset'),
    ]);
  }

  it('reads the whole document', () => {
    if (ONLY) expect(routes.length, `no route matches PROPERTY_ROUTE=${ONLY}`).toBeGreaterThan(0);
    else expect(routes.length).toBeGreaterThan(60);
  });

  const callers: Caller[] = ['anonymous', 'admin', 'parent'];

  it.each(callers)(
    'as %s: no 5xx, every 4xx is { message, errors? }',
    async (caller) => {
      const failures: string[] = [];
      for (const route of routes) {
        // A stranger's only answer on a signed-in route is 401 (every-route.test.ts proves it).
        if (caller === 'anonymous' && !route.isPublic) continue;
        const key = `${caller} ${route.method} ${route.path}`;
        counts.properties += 1;
        counts.callers.add(caller);
        counts.routes.add(`${route.method} ${route.path}`);
        await keepFixture();
        if (JSON.stringify(route.op).includes('"token"')) fixture.pools.links = await mintLinks();
        // Refused by role before any input is read (403 to an empty call): a few runs prove the refusal holds.
        const refused =
          caller !== 'anonymous' &&
          (await send(route, { query: {}, params: {}, tail: '' }, caller)).statusCode === 403;
        if (refused) counts.refused += 1;
        const seen = new Map<Call, LightMyRequestResponse>();
        const property = fc.asyncProperty(
          callArbitrary(route, hintFor(route, fixture.pools)),
          async (call) => {
            const response = await send(route, call, caller);
            seen.set(call, response);
            const problem = problemWith(response);
            if (problem) throw new Error(problem);
          },
        );
        const details = await fc.check(property, {
          seed: seedFor(key),
          numRuns: refused ? Math.min(RUNS, REFUSED_RUNS) : RUNS,
        });
        if (!details.failed) continue;
        const [call] = details.counterexample ?? [];
        const response = call ? seen.get(call) : undefined;
        const why =
          details.errorInstance instanceof Error
            ? details.errorInstance.message
            : String(details.errorInstance);
        failures.push(
          [
            `${key}: ${why}${response ? `: ${response.body.slice(0, 400)}` : ''}`,
            `  smallest input (after ${details.numShrinks} shrinks): ${call ? show(call) : 'none'}`,
            call ? `  request: ${route.method} ${show(urlOf(route, call))}` : '',
            `  replay: PROPERTY_SEED=${SEED} PROPERTY_ROUTE='^${route.method} ${route.path}$' ` +
              `(this property's fast-check seed ${seedFor(key)}, path ${details.counterexamplePath})`,
          ]
            .filter(Boolean)
            .join('\n'),
        );
      }
      expect(failures, `\n${failures.join('\n\n')}`).toEqual([]);
    },
    600_000,
  );
});
