import { randomBytes } from 'node:crypto';
import type { BookingResult } from '@parley/domain/booking';
import type { DoorState } from '@parley/domain/tickets';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { issueToken } from '../../src/modules/tokens/tokens.repository';
import { book, kindEvent, OPEN_DOOR } from '../booking/booking-helpers';
import { type Api, api, expectStatus } from '../directory/directory-helpers';
import { daysAhead, type EventSchool, type SectionBody } from '../events/events-helpers';
import type { TestApp } from '../test-app';
import { findIntegrityViolations, seedFamilies } from './race-support';

// The machinery of places-model.test.ts: a small school per run (families with two children and two
// parents, three events), steps generated as numbers and turned into requests against what the database
// holds when they run, a ledger of what the successful requests did, and the five invariants read back
// by SQL (and the door's own count through its API).

// ── the world of one run ─────────────────────────────────────────────────────────────────────────────

export type EventKey = 'pt' | 'general' | 'ticketed';
export type Person = { id: number; token: string };
/** A parent, a second parent of the same two children, and the children (siblings), all signed in. */
export type Household = { parent: Person; coParent: Person; children: [Person, Person] };
export type ModelEvent = { key: EventKey; eventId: number; slotIds: number[] };
export type World = {
  http: Api;
  admin: Person;
  households: Household[];
  events: Record<EventKey, ModelEvent>;
  eventIds: number[];
};

/** Families per run: few, so that steps keep meeting on the same bookings and slots. */
export const HOUSEHOLDS = 3;
/** People the ticketed event takes: fewer than three families can bring (2 children × 3 people each). */
export const TICKETED_PLACES = 7;
/** The general booking event's three slots take 1, 2 and 3 families. */
const GENERAL_CAPACITIES = [1, 2, 3];

/**
 * `count` households made straight in the database: seedFamilies' parent and child, then a sibling and a
 * co-parent of both children, each with a session issued as a login issues it.
 */
async function seedHouseholds(t: TestApp, schoolId: number, count: number): Promise<Household[]> {
  const families = await seedFamilies(t.db, schoolId, count);
  const tag = randomBytes(4).toString('hex');
  const email = (kind: string, i: number) => `${kind}${i}.${tag}@model.example.org`;
  const rows = await t.db
    .insertInto('users')
    .values(
      families.flatMap((_, i) => [
        { school_id: schoolId, email: email('sibling', i), first_name: 'Sibling', last_name: `Home${i}` },
        { school_id: schoolId, email: email('coparent', i), first_name: 'Coparent', last_name: `Home${i}` },
      ]),
    )
    .returning(['id', 'email'])
    .execute();
  const idOf = new Map(rows.map((row) => [row.email, row.id]));
  const extra = families.map((family, i) => ({
    family,
    siblingId: idOf.get(email('sibling', i)) ?? 0,
    coParentId: idOf.get(email('coparent', i)) ?? 0,
  }));
  await t.db
    .insertInto('user_roles')
    .values(
      extra.flatMap(({ siblingId, coParentId }) => [
        { user_id: siblingId, school_id: schoolId, role: 'student' as const },
        { user_id: coParentId, school_id: schoolId, role: 'parent' as const },
      ]),
    )
    .execute();
  await t.db
    .insertInto('parent_students')
    .values(
      extra.flatMap(({ family, siblingId, coParentId }) => [
        { school_id: schoolId, parent_id: family.parentId, student_id: siblingId },
        { school_id: schoolId, parent_id: coParentId, student_id: family.studentId },
        { school_id: schoolId, parent_id: coParentId, student_id: siblingId },
      ]),
    )
    .execute();
  const signIn = async (userId: number): Promise<Person> => ({
    id: userId,
    token: await issueToken(t.db, { userId, schoolId, kind: 'access' }),
  });
  return Promise.all(
    extra.map(async ({ family, siblingId, coParentId }) => ({
      parent: { id: family.parentId, token: family.token },
      coParent: await signIn(coParentId),
      children: [await signIn(family.studentId), await signIn(siblingId)] as [Person, Person],
    })),
  );
}

/** An enabled event with its options and one section (kindEvent, through the API); its slots in id order. */
async function modelEvent(
  t: TestApp,
  school: EventSchool,
  key: EventKey,
  name: string,
  options: Record<string, unknown>,
  section: SectionBody,
): Promise<ModelEvent> {
  const kind = { pt: 'parentTeacher', general: 'booking', ticketed: 'ticketed' } as const;
  // Its door open (issue 35): the model scans an event days ahead.
  const { eventId } = await kindEvent(
    t,
    { ...school, http: api(t.app) },
    kind[key],
    name,
    { ...options, ...OPEN_DOOR },
    [section],
  );
  const slots = await t.db
    .selectFrom('slots')
    .select('id')
    .where('event_id', '=', eventId)
    .orderBy('id')
    .execute();
  return { key, eventId, slotIds: slots.map((slot) => slot.id) };
}

/**
 * A run's world: fresh households (so no run's bookings overlap another's) and three fresh events on one
 * day at separate hours: a parent-teacher evening (the teachers given, 10-minute slots of one place), a
 * booking event (group 4) with slots of 1, 2 and 3 places, and a ticketed event (group 2) counting people.
 */
export async function buildWorld(
  t: TestApp,
  school: EventSchool,
  teacherIds: number[],
  run: number,
): Promise<World> {
  const date = daysAhead(7);
  const [households, pt, general, ticketed] = await Promise.all([
    seedHouseholds(t, school.schoolId, HOUSEHOLDS),
    modelEvent(
      t,
      school,
      'pt',
      `Model evening ${run}`,
      { slotMinutes: 10 },
      { date, start: '16:00', end: '16:40', teachers: teacherIds.map((teacherId) => ({ teacherId })) },
    ),
    modelEvent(
      t,
      school,
      'general',
      `Model open day ${run}`,
      { slotMinutes: 20, usersPerSlot: 3 },
      { date, start: '17:00', end: '18:00' },
    ),
    modelEvent(
      t,
      school,
      'ticketed',
      `Model concert ${run}`,
      { usersPerSlot: TICKETED_PLACES, guestAllowance: 2 },
      { date, start: '19:00', end: '21:00', location: 'Hall' },
    ),
  ]);
  // Places per slot are the event's (usersPerSlot); 1–3 side by side is set here, before anyone books.
  await Promise.all(
    general.slotIds.map((id, i) =>
      t.db
        .updateTable('slots')
        .set({ capacity: GENERAL_CAPACITIES[i % GENERAL_CAPACITIES.length] ?? 1 })
        .where('id', '=', id)
        .execute(),
    ),
  );
  return {
    http: api(t.app),
    admin: { id: school.admin.id, token: school.admin.token },
    households,
    events: { pt, general, ticketed },
    eventIds: [pt.eventId, general.eventId, ticketed.eventId],
  };
}

// ── steps as generated ───────────────────────────────────────────────────────────────────────────────

export type Actor = 'parent' | 'coParent' | 'student' | 'admin';
/** Whom a booking is for: one child, or both siblings into one slot by one parent (two rows, one place). */
export type Who = 'A' | 'B' | 'AB';
export type Kind = 'book' | 'cancel' | 'move' | 'scan' | 'undo';

/**
 * One step, as numbers: the household, the booking (`pick`: which of the household's live bookings),
 * slot and ticket are taken modulo what exists when the step runs, so every generated step means
 * something whatever the steps before it did.
 */
export type Op = {
  kind: Kind;
  event: EventKey;
  actor: Actor;
  family: number;
  who: Who;
  pick: number;
  slot: number;
  guests: number;
  ticket: number;
  /** A family's cancel as update-slot-for-booking with cancelBookingIds only (else remove-booking). */
  viaChange: boolean;
};
/**
 * A step as drawn: a null kind, household or booking is the batch's, so a batch's steps often meet on one
 * booking; a null actor is the batch's next in its cast, so they come from different people.
 */
export type Step = Omit<Op, 'kind' | 'family' | 'pick' | 'actor'> & {
  kind: Kind | null;
  family: number | null;
  pick: number | null;
  actor: Actor | null;
};
export type Batch = { kind: Kind; family: number; pick: number; cast: Actor[]; steps: Step[] };
export type Script = { prelude: Op[]; batches: Batch[] };

/** Which steps a property draws: the full mix, or one narrowed to show a single hole. */
export type Mix = {
  name: string;
  kinds: Partial<Record<Kind, number>>;
  events: EventKey[];
  actors: Partial<Record<Actor, number>>;
  who: Who[];
  /** Steps fired together per batch (1: one after another). */
  batch: [number, number];
  batches: number;
};

const weighted = <T>(weights: Array<[T, number]>): fc.Arbitrary<T> =>
  fc.oneof(...weights.map(([value, weight]) => ({ weight, arbitrary: fc.constant(value) })));
/** The batch's value (null) two times in three, else one drawn for the step alone. */
const orBatch = <T>(own: fc.Arbitrary<T>): fc.Arbitrary<T | null> =>
  fc.oneof({ weight: 2, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: own });

const kindArb = (kinds: Partial<Record<Kind, number>>) =>
  weighted(Object.entries(kinds) as Array<[Kind, number]>);
const PICKS = 4;

const actorArb = (mix: Mix) => weighted(Object.entries(mix.actors) as Array<[Actor, number]>);

function stepArb(mix: Mix) {
  return {
    event: fc.constantFrom(...mix.events),
    who: fc.constantFrom(...mix.who),
    slot: fc.nat(23),
    guests: fc.nat(2),
    ticket: fc.nat(2),
    viaChange: fc.boolean(),
  };
}

/** A run: a few bookings made one at a time, then batches of steps fired together. */
export function scriptArb(mix: Mix): fc.Arbitrary<Script> {
  const prelude: fc.Arbitrary<Op> = fc.record({
    ...stepArb(mix),
    actor: actorArb(mix),
    kind: fc.constant('book' as const),
    family: fc.nat(HOUSEHOLDS - 1),
    pick: fc.constant(0),
  });
  const step: fc.Arbitrary<Step> = fc.record({
    ...stepArb(mix),
    actor: orBatch(actorArb(mix)),
    kind: orBatch(kindArb(mix.kinds)),
    family: orBatch(fc.nat(HOUSEHOLDS - 1)),
    pick: orBatch(fc.nat(PICKS - 1)),
  });
  return fc.record({
    prelude: fc.array(prelude, { minLength: 3, maxLength: 6 }),
    batches: fc.array(
      fc.record({
        kind: kindArb(mix.kinds),
        family: fc.nat(HOUSEHOLDS - 1),
        pick: fc.nat(PICKS - 1),
        cast: fc.shuffledSubarray(Object.keys(mix.actors) as Actor[], {
          minLength: Object.keys(mix.actors).length,
        }),
        steps: fc.array(step, { minLength: mix.batch[0], maxLength: mix.batch[1] }),
      }),
      { minLength: mix.batches, maxLength: mix.batches },
    ),
  });
}

// ── steps as requests ────────────────────────────────────────────────────────────────────────────────

type BookingRow = {
  id: number;
  event_id: number;
  slot_id: number | null;
  parent_id: number | null;
  student_id: number | null;
  guests: number;
};
type TicketRow = { booking_id: number; guest_index: number; code: string; scanned: boolean };
type SlotRow = { id: number; teacher_id: number | null; starts_at: Date; free: boolean };
/** What the database holds before a batch: the steps are resolved against it. */
export type Snapshot = { live: BookingRow[]; tickets: TicketRow[]; slots: SlotRow[] };

export async function snapshot(t: TestApp, world: World): Promise<Snapshot> {
  const [live, tickets, slots] = await Promise.all([
    t.db
      .selectFrom('bookings')
      .select(['id', 'event_id', 'slot_id', 'parent_id', 'student_id', 'guests'])
      .where('event_id', 'in', world.eventIds)
      .where('status', '=', 'booked')
      .orderBy('id')
      .execute(),
    t.db
      .selectFrom('tickets')
      .select(['booking_id', 'guest_index', 'code', sql<boolean>`scanned_at is not null`.as('scanned')])
      .where('event_id', '=', world.events.ticketed.eventId)
      .where('status', '=', 'valid')
      .orderBy('booking_id')
      .orderBy('guest_index')
      .execute(),
    t.db
      .selectFrom('slots')
      .select(['id', 'teacher_id', 'starts_at', sql<boolean>`booked_count < capacity`.as('free')])
      .where('event_id', 'in', world.eventIds)
      .orderBy('id')
      .execute(),
  ]);
  return { live, tickets, slots };
}

/** A step made concrete: its request, and the bookings a success must have ended (cancelled or moved). */
export type Call = {
  label: string;
  kind: Kind;
  actor: Actor;
  event: EventKey;
  /** The slot a booking goes to. */
  slotId?: number;
  /** The booking acted on, as the snapshot had it: its slot and holder, whether admitted at the door. */
  target?: { id: number; slotId: number | null; parentId: number | null; admitted: boolean };
  consumes: number[];
  /** A change of guests, which may keep its booking (same id, new guests) rather than make a new one. */
  inPlace?: boolean;
  send(): Promise<LightMyRequestResponse>;
};

const pickOf = <T>(items: T[], n: number): T | undefined => items[n % Math.max(items.length, 1)];

/**
 * A batch's steps as requests against the snapshot: any of them on any booking, a cancel of a booking
 * someone was admitted on and a cancel racing the door included (the door counts every admission, whatever
 * happens to the booking after it).
 */
export function resolveBatch(world: World, snap: Snapshot, mix: Mix, batch: Batch): Call[] {
  const ended = new Set<number>();
  const atDoor = new Set<number>();
  const calls: Call[] = [];
  for (const [i, step] of batch.steps.entries()) {
    const op: Op = {
      ...step,
      actor: step.actor ?? batch.cast[i % batch.cast.length] ?? 'parent',
      kind: step.kind ?? batch.kind,
      family: step.family ?? batch.family,
      pick: step.pick ?? batch.pick,
    };
    const home = world.households[op.family % world.households.length];
    if (!home) continue;
    const call = resolveOp(world, snap, mix, home, op, { ended, atDoor });
    if (call) calls.push(call);
  }
  return calls;
}

function eventOf(world: World, eventId: number): ModelEvent {
  return Object.values(world.events).find((event) => event.eventId === eventId) ?? world.events.pt;
}

const tag = (home: Household, id: number) =>
  id === home.parent.id
    ? 'parent'
    : id === home.coParent.id
      ? 'co-parent'
      : id === home.children[0].id
        ? 'child A'
        : id === home.children[1].id
          ? 'child B'
          : `user ${id}`;

export function resolveOp(
  world: World,
  snap: Snapshot,
  mix: Mix,
  home: Household,
  op: Op,
  batch: { ended: Set<number>; atDoor: Set<number> } = { ended: new Set(), atDoor: new Set() },
): Call | undefined {
  const { http, admin } = world;
  const family = `family ${world.households.indexOf(home)}`;
  const post = (path: string, token: string, body: unknown) => () => http.post(path, token, body);
  const familyToken = (actor: Actor, child: Person) =>
    actor === 'parent' ? home.parent.token : actor === 'coParent' ? home.coParent.token : child.token;

  if (op.kind === 'book') {
    const event = world.events[op.event];
    const slotId = pickOf(event.slotIds, op.slot) ?? 0;
    const [a, b] = home.children;
    const children = op.who === 'AB' ? [a, b] : op.who === 'A' ? [a] : [b];
    const guests = op.event === 'ticketed' ? op.guests : 0;
    const one = children[0] ?? a;
    const label = `${family}: ${op.actor} books ${op.actor === 'parent' || op.actor === 'coParent' ? op.who : tag(home, one.id)} into ${event.key} slot ${slotId}${guests ? ` with ${guests} guests` : ''}`;
    const send =
      op.actor === 'admin'
        ? post(`events/update-slot-by-admin?id=${event.eventId}`, admin.token, {
            slotId,
            parentId: home.parent.id,
            studentId: one.id,
            guests,
          })
        : op.actor === 'student'
          ? () => book({ http, eventId: event.eventId }, one.token, [{ slotId, studentId: one.id, guests }])
          : () =>
              book(
                { http, eventId: event.eventId },
                familyToken(op.actor, one),
                children.map((child) => ({ slotId, studentId: child.id, guests })),
              );
    return { label, kind: 'book', actor: op.actor, event: op.event, slotId, consumes: [], send };
  }

  // Every other step acts on one of the household's live bookings in the mix's events.
  const childIds = new Set(home.children.map((child) => child.id));
  const mixEvents = new Set(mix.events.map((key) => world.events[key].eventId));
  const ticketedOnly = op.kind === 'scan' || op.kind === 'undo';
  const mine = snap.live.filter(
    (row) =>
      row.student_id !== null &&
      childIds.has(row.student_id) &&
      mixEvents.has(row.event_id) &&
      (!ticketedOnly || row.event_id === world.events.ticketed.eventId),
  );
  const target = pickOf(mine, op.pick);
  if (!target) return undefined;
  const event = eventOf(world, target.event_id);
  const child = home.children.find((person) => person.id === target.student_id) ?? home.children[0];
  const admitted = snap.tickets.some((ticket) => ticket.booking_id === target.id && ticket.scanned);
  const acting = {
    actor: op.actor,
    event: event.key,
    target: { id: target.id, slotId: target.slot_id, parentId: target.parent_id, admitted },
  };
  const what = `#${target.id} (${event.key} slot ${target.slot_id}, ${tag(home, child.id)}${target.guests ? ` + ${target.guests} guests` : ''}, held by ${tag(home, target.parent_id ?? child.id)})`;
  const who = op.actor === 'student' ? tag(home, child.id) : op.actor;

  if (op.kind === 'cancel') {
    batch.ended.add(target.id);
    const via = op.actor !== 'admin' && op.viaChange;
    const send =
      op.actor === 'admin'
        ? post(`events/remove-booking?eventId=${event.eventId}`, admin.token, { bookingId: target.id })
        : via
          ? () =>
              book({ http, eventId: event.eventId }, familyToken(op.actor, child), [], {
                cancelBookingIds: [target.id],
              })
          : post(`events/remove-booking?eventId=${event.eventId}`, familyToken(op.actor, child), {
              bookingId: target.id,
            });
    return {
      label: `${family}: ${who} ${op.actor === 'admin' ? 'removes' : 'cancels'} ${what}${via ? ' (update-slot-for-booking)' : ''}`,
      kind: 'cancel',
      ...acting,
      consumes: [target.id],
      send,
    };
  }

  if (op.kind === 'move') {
    // A ticketed booking changes its guests as the web app does (places-logic.ts): the booking cancelled
    // and one item on the same slot with the new number; elsewhere a move is to another slot.
    const ticketed = event.key === 'ticketed';
    const guests = ticketed ? (op.guests === target.guests ? (op.guests + 1) % 3 : op.guests) : 0;
    let slotId = target.slot_id ?? 0;
    if (!ticketed) {
      // As a family chooses from the grid: a free slot, not with a teacher or at a time the child
      // already has (else any other slot: a 409 is an answer too).
      const others = snap.slots.filter(
        (slot) => slot.id !== target.slot_id && event.slotIds.includes(slot.id),
      );
      const held = snap.slots.filter((slot) =>
        snap.live.some(
          (row) => row.id !== target.id && row.student_id === child.id && row.slot_id === slot.id,
        ),
      );
      const choice = others.filter(
        (slot) =>
          slot.free &&
          !held.some(
            (mine) =>
              (mine.teacher_id !== null && mine.teacher_id === slot.teacher_id) ||
              +mine.starts_at === +slot.starts_at,
          ),
      );
      slotId = (pickOf(choice, op.slot) ?? pickOf(others, op.slot))?.id ?? slotId;
    }
    const send =
      op.actor === 'admin'
        ? post(`events/update-slot-by-admin?id=${event.eventId}`, admin.token, {
            bookingId: target.id,
            slotId,
            guests,
          })
        : () =>
            book(
              { http, eventId: event.eventId },
              familyToken(op.actor, child),
              [{ slotId, studentId: child.id, guests }],
              {
                cancelBookingIds: [target.id],
              },
            );
    return {
      label: `${family}: ${who} ${ticketed ? `changes the guests of ${what} to ${guests}` : `moves ${what} to slot ${slotId}`}`,
      kind: 'move',
      ...acting,
      consumes: [target.id],
      inPlace: ticketed,
      send,
    };
  }

  if (batch.ended.has(target.id)) return undefined;
  const tickets = snap.tickets.filter(
    (ticket) => ticket.booking_id === target.id && (op.kind === 'scan' || ticket.scanned),
  );
  const ticket = pickOf(tickets, op.ticket);
  if (!ticket) return undefined;
  batch.atDoor.add(target.id);
  const whose = `${ticket.guest_index === 0 ? 'the attendee' : `guest ${ticket.guest_index}`} of ${what}`;
  if (op.kind === 'scan')
    return {
      label: `${family}: the door scans ${whose}`,
      kind: 'scan',
      ...acting,
      actor: 'admin',
      consumes: [],
      send: post('tickets/scan-ticket', admin.token, {
        ticketId: ticket.code,
        eventId: world.events.ticketed.eventId,
        deviceId: `door-${op.ticket}`,
      }),
    };
  return {
    label: `${family}: the admin undoes the scan of ${whose}`,
    kind: 'undo',
    ...acting,
    actor: 'admin',
    consumes: [],
    send: post('tickets/undo-scan', admin.token, { ticketId: ticket.code }),
  };
}

// ── the ledger ───────────────────────────────────────────────────────────────────────────────────────

/**
 * What the successful requests did, as their answers say: the bookings each created and those it ended.
 * A booking ended by two successes is one booking become two appointments (or a place given back twice).
 */
export class Ledger {
  readonly live = new Set<number>();
  private readonly endedBy = new Map<number, Call>();
  readonly problems: string[] = [];
  readonly doubles: Array<{ id: number; calls: [Call, Call] }> = [];

  /**
   * A success: the bookings it asked to end, those it created, and the live bookings its answer lists. A
   * booking it returns as created stays; so does one a change of guests kept in place (its answer lists it).
   */
  success(
    call: Pick<Call, 'label' | 'consumes'> & Partial<Call>,
    created: number[],
    listed: number[] = [],
  ): void {
    const kept = (id: number) => created.includes(id) || (call.inPlace === true && listed.includes(id));
    for (const id of call.consumes.filter((id) => !kept(id))) {
      const first = this.endedBy.get(id);
      if (first) {
        this.problems.push(`#${id} ended by two successes: "${first.label}" and "${call.label}"`);
        this.doubles.push({ id, calls: [first, call as Call] });
      } else if (!this.live.has(id)) this.problems.push(`"${call.label}" ended #${id}, which was not live`);
      this.endedBy.set(id, first ?? (call as Call));
      this.live.delete(id);
    }
    for (const id of created) {
      // A booking changed in place (its guests) is neither made nor ended by the change: a cancel of it in
      // the same batch may have come after it, and both succeed.
      if (call.inPlace === true && call.consumes.includes(id)) continue;
      if (this.endedBy.has(id) && !call.consumes.includes(id))
        this.problems.push(`"${call.label}" created #${id}, an id already ended`);
      this.live.add(id);
    }
  }
}

/** What a booking change's 200 says: the ids it created, and the live bookings it lists after it. */
function answered(response: LightMyRequestResponse): { created: number[]; listed: number[] } {
  const body = response.json() as BookingResult;
  return {
    created: body.created ?? [],
    listed: (body.bookings ?? []).filter((row) => row.status === 'booked').map((row) => row.id),
  };
}

// ── the invariants ───────────────────────────────────────────────────────────────────────────────────

export const INVARIANTS = {
  1: 'I1 families per slot ≤ capacity and = booked_count',
  2: 'I2 people per ticketed slot ≤ capacity and = booked_count',
  3: 'I3 valid tickets = 1 + guests per live booking, none for a cancelled one',
  4: 'I4 one live appointment per booking (the ledger)',
  5: "I5 the door's admitted count = admits − undos",
  0: 'no double bookings (race-support: same teacher twice, overlaps, misplaced rows)',
} as const;
export type InvariantNo = keyof typeof INVARIANTS;
export type Findings = Map<InvariantNo, string[]>;

/** Every invariant, read back from the database (and the door's API); each list empty when all is sound. */
export async function checkInvariants(t: TestApp, world: World, ledger: Ledger): Promise<Findings> {
  const found: Findings = new Map();
  const add = (no: InvariantNo, line: string) => found.set(no, [...(found.get(no) ?? []), line]);
  const ticketedSlots = new Set(world.events.ticketed.slotIds);
  const eventId = world.events.ticketed.eventId;
  // Read side by side (the batch is over, nothing writes): one round of the pool rather than ten in a row.
  const [report, tickets, live, door, scans] = await Promise.all([
    // I1, I2: findIntegrityViolations counts families (coalesce(parent, student)) and, at a ticketed event,
    // people (1 + guests) in one pass.
    findIntegrityViolations(t.db, world.eventIds),
    // I3: a ticket per head of every live booking of the ticketed event (the attendee's, and one per guest,
    // whatever their numbers: fewer guests void the highest not yet admitted), none left on a cancelled one.
    sql<{ id: number; status: string; guests: number; valid: number; attendee: number }>`
      select b.id, b.status, b.guests,
        count(t.id) filter (where t.status = 'valid')::int as valid,
        count(t.id) filter (where t.status = 'valid' and t.guest_index = 0)::int as attendee
      from bookings b left join tickets t on t.booking_id = b.id
      where b.event_id = ${eventId}
      group by b.id
      having (b.status = 'booked' and (count(t.id) filter (where t.status = 'valid') <> 1 + b.guests
          or count(t.id) filter (where t.status = 'valid' and t.guest_index = 0) <> 1))
        or (b.status <> 'booked' and count(t.id) filter (where t.status = 'valid') > 0)`.execute(t.db),
    // I4: the live bookings, against the ledger.
    t.db
      .selectFrom('bookings')
      .select('id')
      .where('event_id', 'in', world.eventIds)
      .where('status', '=', 'booked')
      .execute(),
    // I5: the door's count (its API) against the admissions recorded at the door.
    world.http.get(`tickets/door?eventId=${eventId}`, world.admin.token),
    sql<{ admits: number; undos: number }>`
      select count(*) filter (where action = 'admit')::int as admits,
        count(*) filter (where action = 'undo')::int as undos
      from ticket_scans where event_id = ${eventId}`.execute(t.db),
  ]);

  for (const slot of report.overCapacity)
    add(
      ticketedSlots.has(slot.slotId) ? 2 : 1,
      `slot ${slot.slotId} over capacity: ${slot.parties} ${ticketedSlots.has(slot.slotId) ? 'people' : 'families'} (booked_count ${slot.bookedCount}) in ${slot.capacity} places`,
    );
  for (const slot of report.countDrift)
    add(
      ticketedSlots.has(slot.slotId) ? 2 : 1,
      `slot ${slot.slotId}: booked_count ${slot.bookedCount}, but its live bookings take ${slot.parties}`,
    );
  for (const key of [
    'parentSameTeacher',
    'studentSameTeacher',
    'parentOverlaps',
    'studentOverlaps',
    'misplaced',
  ] as const)
    for (const row of report[key]) add(0, `${key}: ${JSON.stringify(row)}`);

  for (const row of tickets.rows)
    add(
      3,
      `#${row.id} (${row.status}, ${row.guests} guests) holds ${row.valid} valid tickets${row.status === 'booked' && row.attendee !== 1 ? `, ${row.attendee} of them the attendee's` : ''}`,
    );

  for (const problem of ledger.problems) add(4, problem);
  const dbLive = new Set(live.map((row) => row.id));
  const extra = [...dbLive].filter((id) => !ledger.live.has(id));
  const missing = [...ledger.live].filter((id) => !dbLive.has(id));
  if (extra.length > 0)
    add(4, `live in the database, not in the ledger: ${extra.map((id) => `#${id}`).join(', ')}`);
  if (missing.length > 0)
    add(4, `live in the ledger, not in the database: ${missing.map((id) => `#${id}`).join(', ')}`);

  const { admitted } = expectStatus<DoorState>(door, 200);
  const { admits = 0, undos = 0 } = scans.rows[0] ?? {};
  if (admitted !== admits - undos)
    add(
      5,
      `the door says ${admitted} admitted; the scans say ${admits} admits − ${undos} undos = ${admits - undos}`,
    );
  return found;
}

/** The findings as lines, by invariant. */
export function describeFindings(found: Findings): string {
  return [...found]
    .sort(([a], [b]) => a - b)
    .map(([no, lines]) => `${INVARIANTS[no]}:\n${lines.map((line) => `    ${line}`).join('\n')}`)
    .join('\n');
}

// ── a run ────────────────────────────────────────────────────────────────────────────────────────────

/** What an answer may be: a success, a lost race or broken rule (409), a booking already gone (404). */
const ALLOWED: Record<Kind, number[]> = {
  book: [200, 409],
  cancel: [200, 404, 409],
  move: [200, 404, 409],
  scan: [200],
  undo: [200, 409],
};

export type Tally = { batches: number; requests: number; statuses: Map<number, number> };
/** A run that broke an invariant: what broke, its shape in a line, which batch, and the run's log. */
export type Played = { log: string[]; problem?: string; shape?: string; batch?: number };

const EMPTY: Snapshot = { live: [], tickets: [], slots: [] };

function said(response: LightMyRequestResponse): string {
  try {
    const body = response.json() as { message?: string; data?: { message?: string } };
    return body.message ?? body.data?.message ?? '';
  } catch {
    return response.body.slice(0, 200);
  }
}

type Outcome = { call: Call; status: number };

/**
 * A failure in a line, from what broke, the batch that broke it and the live bookings after it (what a
 * survey of many runs counts): one booking ended by two successes, the door's count dropping after a change
 * of guests, places miscounted after a child's own cancel or move out of a slot a sibling still holds with
 * the parent, or the invariants alone.
 */
export function shapeOf(
  found: Findings,
  batch: Outcome[],
  doubles: Ledger['doubles'],
  after: Snapshot,
): string {
  const who = (call: Call) => `${call.actor} ${call.kind}`;
  const [double] = doubles;
  if (double)
    return `one booking ended by two successes: ${double.calls.map(who).sort().join(' + ')} (${double.calls[0].event})`;
  const ok = batch.filter((outcome) => outcome.status === 200).map((outcome) => outcome.call);
  if (found.has(5)) {
    const atDoor = new Set(ok.filter((call) => call.kind === 'scan').map((call) => call.target?.id));
    const change = ok.find(
      (call) =>
        call.kind === 'move' &&
        call.event === 'ticketed' &&
        (call.target?.admitted || atDoor.has(call.target?.id)),
    );
    if (change) return `the door's count dropped: ${who(change)} (guests) of an admitted booking`;
  }
  if (found.has(1) || found.has(2)) {
    const stays = (target: Call['target']) =>
      after.live.some(
        (row) => target?.parentId && row.parent_id === target.parentId && row.slot_id === target.slotId,
      );
    const own = ok.find(
      (call) =>
        call.actor === 'student' && (call.kind === 'cancel' || call.kind === 'move') && stays(call.target),
    );
    if (own)
      return `places miscounted: a child's own ${own.kind} out of a slot a sibling still holds (${own.event})`;
    const joined = ok.find(
      (call) =>
        call.actor === 'student' &&
        call.kind === 'book' &&
        ok.some(
          (other) =>
            other.actor !== 'student' && other.kind !== 'book' && other.target?.slotId === call.slotId,
        ),
    );
    if (joined)
      return `places miscounted: a child booked into a slot while the child's booking there was ended (${joined.event})`;
  }
  return `invariants ${[...found.keys()].sort().join(', ')}`;
}

/**
 * Plays a script in a fresh world: the prelude one request at a time, then each batch's requests all at
 * once (Promise.all: side by side on the pool), the invariants checked after each. Stops at the first
 * batch that breaks one (or answers a status no request may get), with the run's log; `playOn` plays the
 * rest anyway (a survey: the time a run takes when nothing breaks), keeping the first failure.
 */
export async function playScript(
  t: TestApp,
  world: World,
  mix: Mix,
  script: Script,
  tally: Tally,
  { playOn = false } = {},
): Promise<Played> {
  let first: Played | undefined;
  const ledger = new Ledger();
  const log: string[] = [];
  const fire = async (calls: Call[], heading: string) => {
    const answers = await Promise.all(calls.map((call) => call.send()));
    const wrong: string[] = [];
    const outcomes: Outcome[] = [];
    if (heading) log.push(heading);
    calls.forEach((call, i) => {
      const answer = answers[i];
      if (!answer) return;
      const status = answer.statusCode;
      outcomes.push({ call, status });
      tally.requests += 1;
      tally.statuses.set(status, (tally.statuses.get(status) ?? 0) + 1);
      let created: number[] = [];
      if (status === 200 && (call.kind === 'book' || call.kind === 'cancel' || call.kind === 'move')) {
        const reply = answered(answer);
        created = reply.created;
        ledger.success(call, created, reply.listed);
      }
      const detail =
        status === 200 && created.length > 0
          ? `created ${created.map((id) => `#${id}`).join(', ')}`
          : said(answer);
      log.push(`    ${call.label} → ${status}${detail ? ` ${detail}` : ''}`);
      if (!ALLOWED[call.kind].includes(status))
        wrong.push(`${call.label} answered ${status}: ${answer.body.slice(0, 300)}`);
    });
    return { wrong, outcomes };
  };
  for (const [i, op] of script.prelude.entries()) {
    const household = world.households[op.family % world.households.length];
    const call = household && resolveOp(world, EMPTY, mix, household, op);
    if (call) await fire([call], i === 0 ? 'one at a time:' : '');
  }
  for (const [i, batch] of script.batches.entries()) {
    const calls = resolveBatch(world, await snapshot(t, world), mix, batch);
    if (calls.length === 0) continue;
    tally.batches += 1;
    const { wrong, outcomes } = await fire(calls, `batch ${i + 1}${calls.length > 1 ? ', together' : ''}:`);
    const found = await checkInvariants(t, world, ledger);
    if (first || (wrong.length === 0 && found.size === 0)) continue;
    first = {
      log: [...log],
      problem: [
        wrong.length > 0 ? `unexpected answers:\n    ${wrong.join('\n    ')}` : '',
        describeFindings(found),
      ]
        .filter(Boolean)
        .join('\n'),
      shape:
        wrong.length > 0
          ? 'unexpected answers'
          : shapeOf(found, outcomes, ledger.doubles, await snapshot(t, world)),
      batch: i + 1,
    };
    if (!playOn) return first;
  }
  return first ?? { log };
}
