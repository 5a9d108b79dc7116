import { type Compilable, CompiledQuery, type RawBuilder, sql } from 'kysely';
import { EVENT_COLUMNS, qualified } from '../../db/columns';
import { compiledOnce } from '../../db/compiled-once';
import type { Db } from '../../db/database';
import type { BookingStatus } from '../../db/schema';
import { hashToken } from '../../lib/tokens';
import { messageCtes, messageParameters, type OutgoingMessages } from '../../mail/messages.repository';
import { bookingsQuery } from '../events/events.repository';

// Booking reads and writes. The writes follow decision 008's lock order: the event (FOR SHARE here, so
// bookings run side by side but wait for a section edit), then the booking party's user row, then slots in
// id order, then bookings.

const fullName = (alias: string) =>
  sql<string>`${sql.ref(`${alias}.first_name`)} || ' ' || ${sql.ref(`${alias}.last_name`)}`;

function eventQuery(db: Db) {
  return db
    .selectFrom('events as e')
    .innerJoin('event_types as t', (join) =>
      join.onRef('t.id', '=', 'e.event_type_id').onRef('t.school_id', '=', 'e.school_id'),
    )
    .innerJoin('schools as sc', 'sc.id', 'e.school_id')
    .select(qualified('e', EVENT_COLUMNS))
    .select([
      't.name as type_name',
      't.group_int',
      'sc.name as school_name',
      'sc.timezone',
      (eb) =>
        eb
          .selectFrom('sections as s')
          .select(sql<Date | null>`max(s.ends_at)`.as('last'))
          .whereRef('s.event_id', '=', 'e.id')
          .as('last_ends_at'),
    ]);
}

export type BookingEventRow = NonNullable<Awaited<ReturnType<typeof findEventById>>>;

export function findEventByCode(db: Db, code: string) {
  return eventQuery(db).where('e.code', '=', code).executeTakeFirst();
}

export function findEventById(db: Db, schoolId: number, eventId: number) {
  return eventQuery(db).where('e.school_id', '=', schoolId).where('e.id', '=', eventId).executeTakeFirst();
}

// Sentinels for the statements compiled once (db/compiled-once.ts): values no query holds as a constant.
const SCHOOL = -910_001;
const EVENT = -910_002;
const USER = -910_003;
const SLOT_IDS: number[] = [-910_004];
const SLOT_ID = -910_005;

type Kind = 'parent' | 'student';
/** The slots asked for: one (the usual case, a plain parameter the planner sees through) or a list. */
type Asked = number | number[];
const inAsked = (asked: Asked) => (typeof asked === 'number' ? sql`= ${asked}` : sql`= any(${asked}::int[])`);

/**
 * A statement about a party and the slots it asks for, compiled once per kind of party and per shape
 * (one slot, several): with one slot the plan PostgreSQL keeps for the prepared statement looks the slot
 * up by its key, where a list's generic plan scans the event's slots.
 */
type PartyAndSlots = [db: Db, kind: Kind, schoolId: number, eventId: number, userId: number, asked: Asked];

function perPartyAndSlots<R>(build: (...args: PartyAndSlots) => Compilable<R>) {
  const make = (kind: Kind, asked: Asked) =>
    compiledOnce(
      (db: Db, schoolId: number, eventId: number, userId: number, slots: Asked) =>
        build(db, kind, schoolId, eventId, userId, slots),
      [SCHOOL, EVENT, USER, asked],
    );
  const variants = {
    parent: { one: make('parent', SLOT_ID), many: make('parent', SLOT_IDS) },
    student: { one: make('student', SLOT_ID), many: make('student', SLOT_IDS) },
  };
  return (db: Db, kind: Kind, schoolId: number, eventId: number, userId: number, slotIds: number[]) => {
    const [only] = slotIds;
    return only !== undefined && slotIds.length === 1
      ? variants[kind].one(db, schoolId, eventId, userId, only)
      : variants[kind].many(db, schoolId, eventId, userId, slotIds);
  };
}

const kindOf = (party: { parentId: number | null }): Kind => (party.parentId !== null ? 'parent' : 'student');

/**
 * A live booking, for the reads of one party's bookings made on every attempt: said as "not cancelled"
 * (the CHECK bookings_cancelled_at makes it the same) rather than status = 'booked', which would let the
 * plan use the indexes kept of live bookings only (by start, the exclusion constraints). A plan made on
 * statistics of an empty table (a new school's first evening, the bench's every rush) takes those as free
 * and reads every live booking of the evening on each attempt, ~300 buffers where a few do (issue 14).
 */
const LIVE = 'b.cancelled_at is null';
const live = sql.raw(LIVE);

/** Which bookings are a party's own: a parent's (any of their children), or a student's. */
const heldBy = (kind: Kind) => (kind === 'parent' ? sql`b.parent_id = u.id` : sql`b.student_id = u.id`);

/**
 * Of the slots asked for, those already full and not the party's own (siblings share theirs): a request
 * that has lost the race ends with them. Only a hint: the database's count of the places is the rule.
 */
const fullSlotsOf = (kind: Kind, asked: Asked, eventId: RawBuilder<unknown>) =>
  sql<number>`select s.id from slots s where s.id ${inAsked(asked)}
    and s.event_id = ${eventId} and s.booked_count >= s.capacity
    and not exists (select 1 from bookings b where b.slot_id = s.id and ${live} and ${heldBy(kind)})`;

// Before any transaction, what parley_booking_open reads under its locks about the event and the party
// (migration 022), read without locks and with the lost race's answer (lostRaceSelections): a request that
// has lost (a slot asked for is already full) ends with it, in one statement and no transaction. It runs
// only when a slot asked for was last seen full (full-slot-hints.ts): the answer's plan is set up on every
// execution, used or not, and setting up a plan costs more than running it.
const peek = perPartyAndSlots((db, kind, schoolId, eventId, userId, asked) =>
  db
    .selectFrom('events as e')
    .innerJoin('users as u', (join) => join.on('u.id', '=', userId).on('u.school_id', '=', schoolId))
    .select([
      'e.version',
      'u.email',
      'u.first_name',
      'u.settings',
      sql<number[]>`array(select ps.student_id from parent_students ps where ps.school_id = e.school_id
        and ps.parent_id = u.id)`.as('children'),
      sql<number[]>`array(select ps.parent_id from parent_students ps where ps.school_id = e.school_id
        and ps.student_id = u.id)`.as('parents'),
      sql<number[]>`array(${fullSlotsOf(kind, asked, sql`e.id`)})`.as('full_slots'),
      ...lostRaceSelections(db, kind, schoolId, eventId, userId, asked),
    ])
    .where('e.school_id', '=', schoolId)
    .where('e.id', '=', eventId),
);

/**
 * What runChange checks a change against before it books (what openChange reads of the party), read
 * without locks, with the answer a lost race gets. Its full slots are only a hint, like openChange's: the
 * database's count of the places is the rule.
 */
export async function peekEventAndParty(
  db: Db,
  schoolId: number,
  eventId: number,
  party: { userId: number; parentId: number | null },
  slotIds: number[],
) {
  const [row] = await peek(db, kindOf(party), schoolId, eventId, party.userId, slotIds);
  if (!row) return undefined;
  const { places, holds_bookings, ...read } = row;
  const { version, family, fullSlots } = partyRead(read);
  return { version, family, fullSlots, lostRace: lostRacePlacesOf({ places, holds_bookings }) };
}

/** The event's version, the party (the family a change mails and checks) and the full slots asked for. */
type PartyReadRow = {
  version: number;
  email: string;
  first_name: string;
  settings: Record<string, Record<string, unknown>>;
  children: number[];
  parents: number[];
  full_slots: number[];
};

function partyRead(row: PartyReadRow) {
  const { version, email, first_name, settings, children, parents, full_slots } = row;
  return { version, family: { email, first_name, settings, children, parents }, fullSlots: full_slots };
}

export type PartyRow = ReturnType<typeof partyRead>['family'];

export type HoldingRow = {
  id: number;
  slot_id: number | null;
  teacher_id: number | null;
  starts_at: Date;
  ends_at: Date;
  student_id: number | null;
  status: BookingStatus;
  idempotency_key: string | null;
  guests: number;
};

export type EventSlotRow = {
  id: number;
  teacher_id: number | null;
  starts_at: Date;
  ends_at: Date;
  capacity: number;
  booked_count: number;
};

// Its columns named (a `*` would leave the statement unprepared: statement-pool.ts).
const OPEN_CHANGE = `select row_kind, version, email, first_name, settings, children, parents, full_slots, id,
  slot_id, teacher_id, starts_at, ends_at, student_id, status, idempotency_key, guests, capacity, booked_count
  from parley_booking_open($1, $2, $3, $4, $5::int[], $6)`;

type OpenRow = PartyReadRow &
  HoldingRow & { row_kind: 'party' | 'held' | 'slot'; capacity: number; booked_count: number };

/**
 * Opens a booking change, inside its transaction, in one call (parley_booking_open, migration 022): the
 * event share-locked (bookings of one event run together; a section edit, FOR NO KEY UPDATE, waits for
 * them and they for it) and the booking party's row locked, then, under those locks, the event's version
 * (what the process keeps about the event is checked against it: event-contexts.ts), the family (children,
 * parents, address and settings for the mail), the slots asked for that are full, what the party holds in
 * the event (live bookings, and any this idempotency key already made) and the slots asked for still to
 * come, unlocked (the database counts their places as the rows go in). The party lock makes one family's changes take
 * turns, so what they hold (siblings sharing a slot, the travel gap, a child's limit) is read
 * consistently; capacity and overlaps are the database's whatever the order. Undefined when the event or
 * the party is not the school's.
 */
export async function openChange(
  db: Db,
  schoolId: number,
  eventId: number,
  party: { userId: number; parentId: number | null },
  key: string | null,
  slotIds: number[],
) {
  const { rows } = await db.executeQuery<OpenRow>(
    CompiledQuery.raw(OPEN_CHANGE, [
      schoolId,
      eventId,
      party.userId,
      kindOf(party) === 'parent',
      slotIds,
      key,
    ]),
  );
  const read = rows.find((row) => row.row_kind === 'party');
  if (!read) return undefined;
  const holdings: HoldingRow[] = [];
  const slots: EventSlotRow[] = [];
  for (const row of rows) {
    const { id, slot_id, teacher_id, starts_at, ends_at } = row;
    if (row.row_kind === 'party') continue;
    if (row.row_kind === 'held') {
      const { student_id, status, idempotency_key, guests } = row;
      holdings.push({
        id,
        slot_id,
        teacher_id,
        starts_at,
        ends_at,
        student_id,
        status,
        idempotency_key,
        guests,
      });
    } else
      slots.push({
        id,
        teacher_id,
        starts_at,
        ends_at,
        capacity: row.capacity,
        booked_count: row.booked_count,
      });
  }
  // In time order, whatever order the function's branches come back in.
  holdings.sort((x, y) => x.starts_at.getTime() - y.starts_at.getTime() || x.id - y.id);
  const { version, family, fullSlots } = partyRead(read);
  return { version, family, fullSlots, holdings, slots };
}

/**
 * What a booking reads about its event besides the slots, which each process keeps (event-contexts.ts):
 * the event as findEventById reads it (its version with it) and its recipient list.
 */
export async function eventContext(db: Db, schoolId: number, eventId: number) {
  const row = await eventQuery(db)
    .select(
      sql<number[]>`array(select r.user_id from event_recipients r where r.school_id = e.school_id
        and r.event_id = e.id)`.as('recipient_ids'),
    )
    .where('e.school_id', '=', schoolId)
    .where('e.id', '=', eventId)
    .executeTakeFirst();
  if (!row) return undefined;
  const { recipient_ids, ...event } = row;
  return { event, recipientIds: recipient_ids };
}

/** The party's row alone, locked the same way (an admin confirming a booking). */
export function lockParty(db: Db, schoolId: number, userId: number) {
  return db
    .selectFrom('users as u')
    .select(['u.email', 'u.first_name', 'u.settings'])
    .where('u.school_id', '=', schoolId)
    .where('u.id', '=', userId)
    .forNoKeyUpdate('u')
    .executeTakeFirst();
}

/** The user behind a personal booking link, for its one event. */
export function findEventLink(db: Db, token: string) {
  return db
    .selectFrom('auth_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select(['u.id as userId', 'u.school_id as schoolId', 't.event_id as eventId'])
    .where('t.token_hash', '=', hashToken(token))
    .where('t.kind', '=', 'event')
    .where('t.used_at', 'is', null)
    .where('t.expires_at', '>', sql<Date>`now()`)
    .where('u.status', '=', 1)
    .executeTakeFirst();
}

export async function findUser(db: Db, schoolId: number, userId: number) {
  return db
    .selectFrom('users as u')
    .select(['u.id', 'u.email', 'u.first_name', 'u.last_name', fullName('u').as('name')])
    .where('u.school_id', '=', schoolId)
    .where('u.id', '=', userId)
    .executeTakeFirst();
}

export async function rolesOf(db: Db, schoolId: number, userId: number) {
  const rows = await db
    .selectFrom('user_roles')
    .select('role')
    .where('school_id', '=', schoolId)
    .where('user_id', '=', userId)
    .execute();
  return rows.map((row) => row.role);
}

/**
 * Children with the teachers (and subjects) the directory links them to: a parent's active children, or
 * one student.
 */
export function childrenWithTeachers(
  db: Db,
  schoolId: number,
  who: { parentId: number } | { studentId: number },
) {
  return db
    .selectFrom('users as c')
    .leftJoin('student_subjects as ss', 'ss.student_id', 'c.id')
    .leftJoin('users as t', 't.id', 'ss.teacher_id')
    .leftJoin('subjects as sub', 'sub.id', 'ss.subject_id')
    .select([
      'c.id as student_id',
      fullName('c').as('student_name'),
      'ss.teacher_id',
      sql<string | null>`case when t.id is null then null else ${fullName('t')} end`.as('teacher_name'),
      'ss.subject_id',
      'sub.name as subject_name',
    ])
    .where('c.school_id', '=', schoolId)
    .where((eb) =>
      'parentId' in who
        ? eb.and([
            eb('c.status', '=', 1),
            eb(
              'c.id',
              'in',
              eb
                .selectFrom('parent_students as ps')
                .select('ps.student_id')
                .where('ps.school_id', '=', schoolId)
                .where('ps.parent_id', '=', who.parentId),
            ),
          ])
        : eb('c.id', '=', who.studentId),
    )
    .orderBy('c.first_name')
    .orderBy('c.id')
    .orderBy('sub.name')
    .execute();
}

export async function childIds(db: Db, schoolId: number, parentId: number): Promise<Set<number>> {
  const rows = await db
    .selectFrom('parent_students')
    .select('student_id')
    .where('school_id', '=', schoolId)
    .where('parent_id', '=', parentId)
    .execute();
  return new Set(rows.map((row) => row.student_id));
}

export type EventTeacherRow = Awaited<ReturnType<typeof eventTeachers>>[number];

/** The event's teachers (those with slots), with their subjects and the location of their table. */
export async function eventTeachers(db: Db, schoolId: number, eventId: number) {
  return db
    .selectFrom('section_teachers as st')
    .innerJoin('sections as s', 's.id', 'st.section_id')
    .innerJoin('users as t', 't.id', 'st.teacher_id')
    .select([
      't.id as teacher_id',
      fullName('t').as('name'),
      sql<string | null>`max(coalesce(st.location, s.location))`.as('location'),
      sql<Array<{ id: number; name: string }>>`coalesce((
        select json_agg(json_build_object('id', sub.id, 'name', sub.name) order by sub.name)
        from teacher_subjects ts join subjects sub on sub.id = ts.subject_id
        where ts.teacher_id = t.id), '[]'::json)`.as('subjects'),
    ])
    .where('s.school_id', '=', schoolId)
    .where('s.event_id', '=', eventId)
    .groupBy(['t.id', 't.first_name', 't.last_name'])
    .orderBy('t.last_name')
    .orderBy('t.first_name')
    .execute();
}

export type GridSlotRow = Awaited<ReturnType<typeof gridSlots>>[number];
export type SlotLabelRow = Awaited<ReturnType<typeof slotLabels>>[number];

/** Which teachers' columns: by id, or those of some slots (plus others by id); all when absent. */
export type GridTeachers = number[] | { ofSlots: number[]; also?: number[] };

/** An event's slots with what labels them (who, when, where), in the grid's order. */
function slotLabelsQuery(db: Db, schoolId: number, eventId: number) {
  return db
    .selectFrom('slots as sl')
    .innerJoin('sections as s', 's.id', 'sl.section_id')
    .leftJoin('section_teachers as st', (join) =>
      join.onRef('st.section_id', '=', 'sl.section_id').onRef('st.teacher_id', '=', 'sl.teacher_id'),
    )
    .leftJoin('users as t', 't.id', 'sl.teacher_id')
    .select([
      'sl.id',
      'sl.section_id',
      'sl.teacher_id',
      sql<string | null>`case when t.id is null then null else ${fullName('t')} end`.as('teacher_name'),
      'sl.starts_at',
      'sl.ends_at',
      sql<string | null>`coalesce(sl.location, st.location, s.location)`.as('location'),
      's.starts_at as section_starts_at',
    ])
    .where('sl.school_id', '=', schoolId)
    .where('sl.event_id', '=', eventId)
    .orderBy('s.starts_at')
    .orderBy('sl.section_id')
    .orderBy('teacher_name')
    .orderBy('sl.teacher_id')
    .orderBy('sl.starts_at');
}

/**
 * What labels an event's slots (or some of them), in the grid's order, whatever their time: what each
 * process keeps for a lost race's answer (slot-labels.ts).
 */
export function slotLabels(db: Db, schoolId: number, eventId: number, slotIds?: number[]) {
  return slotLabelsQuery(db, schoolId, eventId)
    .$if(slotIds !== undefined, (qb) => qb.where(sql<boolean>`sl.id = any(${slotIds ?? []}::int[])`))
    .execute();
}

/** An event's slots with their places and where they are. */
function gridSlotsQuery(db: Db, schoolId: number, eventId: number) {
  return (
    slotLabelsQuery(db, schoolId, eventId)
      .select(['sl.capacity', 'sl.booked_count'])
      // A family never sees, nor books, a time that has passed.
      .where('sl.starts_at', '>', sql<Date>`now()`)
  );
}

/** Slots of an event (for some teachers, or all) with where they are. */
export function gridSlots(db: Db, schoolId: number, eventId: number, teachers?: GridTeachers) {
  return gridSlotsQuery(db, schoolId, eventId)
    .$if(Array.isArray(teachers), (qb) =>
      qb.where('sl.teacher_id', 'in', Array.isArray(teachers) && teachers.length > 0 ? teachers : [0]),
    )
    .$if(teachers !== undefined && !Array.isArray(teachers), (qb) => {
      const { ofSlots = [], also = [] } = teachers && !Array.isArray(teachers) ? teachers : {};
      return qb.where((eb) =>
        eb.or([
          eb(
            'sl.teacher_id',
            'in',
            eb
              .selectFrom('slots as of')
              .select('of.teacher_id')
              .where('of.id', 'in', ofSlots.length > 0 ? ofSlots : [0]),
          ),
          eb('sl.teacher_id', 'in', also.length > 0 ? also : [0]),
        ]),
      );
    })
    .execute();
}

// A lost race's answer in a statement's select list (its own, or the peek's), compiled once per kind of
// party: the places left in the columns of the teachers of the slots asked for and of those the party has
// booked, as one JSON array, and whether the party holds live bookings. What labels those slots (names,
// times, where) changes only with the event's sections, so each process keeps it (slot-labels.ts) and the
// statement reads no join for it. The teachers in question (one to a few) are a table the slots are joined
// to, so the generic plan reads only their slots through (event, teacher, start) (migration 017); as a
// filter (`teacher_id = any(array(…))`) it read every slot of the evening, a few dozen times the rows. The
// party's bookings themselves, with their eight joins, are partyBookings' own statement, sent only when
// there are some: inside this one they tripled its plan (set up on every execution, made again after each
// ANALYZE) for families that mostly hold nothing yet (docs/perf-log/2026-12-06-booking-path.md, 18).
function lostRaceSelections(...[db, kind, schoolId, eventId, userId, asked]: PartyAndSlots) {
  const holder = sql.ref(kind === 'parent' ? 'b.parent_id' : 'b.student_id');
  const teachers = sql<{
    teacher_id: number;
  }>`(select of.teacher_id from slots of where of.id ${inAsked(asked)}
    union select b.teacher_id from bookings b where b.event_id = ${eventId}
      and ${live} and ${holder} = ${userId})`;
  const places = db
    .selectFrom('slots as sl')
    .innerJoin(teachers.as('tt'), 'tt.teacher_id', 'sl.teacher_id')
    .select(['sl.id', 'sl.capacity', 'sl.booked_count'])
    .where('sl.school_id', '=', schoolId)
    .where('sl.event_id', '=', eventId)
    .where('sl.starts_at', '>', sql<Date>`now()`);
  return [
    sql<Array<[number, number, number]>>`(select coalesce(json_agg(json_build_array(x.id, x.capacity,
      x.booked_count)), '[]'::json) from (${places}) x)`.as('places'),
    sql<boolean>`exists (select from bookings b where b.school_id = ${schoolId} and b.event_id = ${eventId}
      and ${live} and ${holder} = ${userId})`.as('holds_bookings'),
  ];
}

const lostRace = perPartyAndSlots((db, kind, schoolId, eventId, userId, asked) =>
  db.selectNoFrom(lostRaceSelections(db, kind, schoolId, eventId, userId, asked)),
);

/**
 * What a family that lost a race chooses again from, in one statement: the places left in the columns of
 * the teachers it asked for and of those it has booked, and whether it holds live bookings (partyBookings
 * reads them).
 */
export async function lostRacePlaces(
  db: Db,
  schoolId: number,
  eventId: number,
  party: { parentId: number | null; studentId: number | null },
  slotIds: number[],
): Promise<LostRacePlaces> {
  const [row] = await lostRace(
    db,
    kindOf(party),
    schoolId,
    eventId,
    party.parentId ?? party.studentId ?? 0,
    slotIds,
  );
  return lostRacePlacesOf(row ?? { places: [], holds_bookings: false });
}

/** A slot's places: what a grid shows of it that changes with every booking. */
export type SlotPlaces = { id: number; capacity: number; booked_count: number };
export type LostRacePlaces = { places: SlotPlaces[]; holdsBookings: boolean };

const lostRacePlacesOf = (row: {
  places: Array<[number, number, number]>;
  holds_bookings: boolean;
}): LostRacePlaces => ({
  places: row.places.map(([id, capacity, booked_count]) => ({ id, capacity, booked_count })),
  holdsBookings: row.holds_bookings,
});

function partyBookingsQuery(
  db: Db,
  schoolId: number,
  eventId: number,
  party: { parentId: number | null; studentId: number | null },
  options: { withCancelled?: boolean; bookingIds?: number[] },
) {
  return (
    bookingsQuery(db, schoolId)
      .select([
        't.email as teacher_email',
        't.video_conference_url as video_url',
        't.settings as teacher_settings',
        'b.confirmed_at',
        'b.idempotency_key',
      ])
      .where('b.event_id', '=', eventId)
      // A student sees every booking for them, their parents' included.
      .where((eb) =>
        party.parentId !== null
          ? eb('b.parent_id', '=', party.parentId)
          : eb('b.student_id', '=', party.studentId ?? 0),
      )
      .$if(!options.withCancelled, (qb) => qb.where('b.status', '=', 'booked'))
      .$if(options.bookingIds !== undefined, (qb) => qb.where('b.id', 'in', options.bookingIds ?? [0]))
      .orderBy('b.starts_at')
      .orderBy('b.id')
  );
}

// The live bookings of a party: the answer of every booking change, compiled once per kind of party.
const liveOfParent = compiledOnce(
  (db: Db, schoolId: number, eventId: number, parentId: number) =>
    partyBookingsQuery(db, schoolId, eventId, { parentId, studentId: null }, {}),
  [SCHOOL, EVENT, USER],
);
const liveOfStudent = compiledOnce(
  (db: Db, schoolId: number, eventId: number, studentId: number) =>
    partyBookingsQuery(db, schoolId, eventId, { parentId: null, studentId }, {}),
  [SCHOOL, EVENT, USER],
);

export type PartyBookingRow = Awaited<ReturnType<typeof partyBookings>>[number];

/**
 * A party's bookings in an event with everything a family sees: as parent (any of their children) or as a
 * student (their own). Live only unless `withCancelled`.
 */
export function partyBookings(
  db: Db,
  schoolId: number,
  eventId: number,
  party: { parentId: number | null; studentId: number | null },
  options: { withCancelled?: boolean; bookingIds?: number[] } = {},
) {
  if (!options.withCancelled && options.bookingIds === undefined)
    return party.parentId !== null
      ? liveOfParent(db, schoolId, eventId, party.parentId)
      : liveOfStudent(db, schoolId, eventId, party.studentId ?? 0);
  return partyBookingsQuery(db, schoolId, eventId, party, options).execute();
}

/** Bookings with full detail by id (an admin's action on any family's booking). */
export function bookingsById(db: Db, schoolId: number, eventId: number, bookingIds: number[]) {
  return db
    .selectFrom('bookings')
    .select(['id', 'parent_id', 'student_id', 'subject_id', 'slot_id', 'status'])
    .where('school_id', '=', schoolId)
    .where('event_id', '=', eventId)
    .where('id', 'in', bookingIds.length > 0 ? bookingIds : [0])
    .execute();
}

/**
 * Locks the slots in id order (two families booking the same pair of slots never deadlock). FOR NO KEY
 * UPDATE, as the UPDATE itself would: it does not wait for the key-share locks that other bookings'
 * foreign keys hold on a slot.
 */
export async function lockSlotsInOrder(db: Db, schoolId: number, slotIds: number[]): Promise<number[]> {
  const ids = [...new Set(slotIds)];
  if (ids.length < 2) return []; // one slot: the count of its places locks it as the rows change
  return lockInIdOrder(db, 'slots', schoolId, ids);
}

/** The school's rows locked FOR NO KEY UPDATE in id order; their ids (what the scoping test checks). */
async function lockInIdOrder(db: Db, table: 'slots' | 'users', schoolId: number, ids: number[]) {
  const rows = await db
    .selectFrom(table)
    .select('id')
    .where('school_id', '=', schoolId)
    .where('id', 'in', ids)
    .orderBy('id')
    .forNoKeyUpdate()
    .execute();
  return rows.map((row) => row.id);
}

// The change's messages are written by its last statement, which also says which of the slots booked are
// full now (what this process remembers of them: full-slot-hints.ts). The places were taken before it, by
// the database's own count of the rows the change wrote (migration 023), which refused the change in the
// statement that wrote them if a slot had no room: nothing is left for the COMMIT after it to decide.
const SEND = `
  with ${messageCtes(1, 3)}
  select s.id, s.booked_count >= s.capacity as now_full from slots s
  where s.school_id = $1 and s.id = any($2::int[])`;

/** Writes the change's messages. Returns the slots given, each with whether it is full now. */
export async function sendMessages(
  db: Db,
  schoolId: number,
  slotIds: number[],
  messages: OutgoingMessages,
): Promise<Array<{ id: number; now_full: boolean }>> {
  const { rows } = await db.executeQuery<{ id: number; now_full: boolean }>(
    CompiledQuery.raw(SEND, [schoolId, slotIds, ...messageParameters(messages)]),
  );
  return rows;
}

/**
 * Locks the children a parent books for, in id order, so two parents of one child (or the child booking
 * themself) take turns: the rules per child are read and kept under this lock.
 */
export function lockChildren(db: Db, schoolId: number, childIds: number[]): Promise<number[]> {
  return lockInIdOrder(db, 'users', schoolId, childIds);
}

/** The children's live appointments in the event that another party booked (the other parent, the child). */
export function childrenBookedElsewhere(
  db: Db,
  schoolId: number,
  eventId: number,
  childIds: number[],
  parentId: number,
) {
  return db
    .selectFrom('bookings')
    .select(['slot_id', 'starts_at', 'ends_at', 'student_id'])
    .where('school_id', '=', schoolId)
    .where('event_id', '=', eventId)
    .where('status', '=', 'booked')
    .where('student_id', 'in', childIds)
    .where((eb) => eb.or([eb('parent_id', 'is', null), eb('parent_id', '!=', parentId)]))
    .execute();
}

export type NewBooking = {
  school_id: number;
  event_id: number;
  slot_id: number;
  teacher_id: number | null;
  starts_at: Date;
  ends_at: Date;
  parent_id: number | null;
  student_id: number | null;
  subject_id: number | null;
  guests: number;
  gown_size: string | null;
  booked_by: number;
  idempotency_key: string | null;
};

// Fixed text whatever the number of rows: each column as one array. A row of another school or event than
// the one given ($14, $15) gets a null there, which the NOT NULL column refuses: the whole insert fails, as
// idInSchool (db/same-school.ts) makes a foreign id fail, instead of writing into the school the row names.
const INSERT_BOOKINGS = `
  insert into bookings (school_id, event_id, slot_id, teacher_id, starts_at, ends_at, parent_id, student_id,
    subject_id, guests, gown_size, booked_by, idempotency_key)
  select case when v.school_id = $14 then v.school_id end, case when v.event_id = $15 then v.event_id end,
    v.slot_id, v.teacher_id, v.starts_at, v.ends_at, v.parent_id, v.student_id, v.subject_id, v.guests,
    v.gown_size, v.booked_by, v.idempotency_key
  from unnest($1::int[], $2::int[], $3::int[], $4::int[], $5::timestamptz[], $6::timestamptz[],
    $7::int[], $8::int[], $9::int[], $10::int[], $11::text[], $12::int[], $13::text[])
    as v(school_id, event_id, slot_id, teacher_id, starts_at, ends_at, parent_id, student_id, subject_id,
      guests, gown_size, booked_by, idempotency_key)
  returning id`;

// The new rows and the party's live bookings after them, in partyBookings' columns (bookingsQuery's and the
// answer's): the INSERT's rows come from its RETURNING, the others from the table (one snapshot).
const insertAndRead = (kind: 'parent' | 'student') => `
  with ins as (${INSERT_BOOKINGS.replace('returning id', 'returning *')}),
  mine as (
    select * from ins
    union all
    select b.* from bookings b
    where b.school_id = $14 and b.event_id = $15 and b.${kind === 'parent' ? 'parent_id' : 'student_id'} = $16
      and ${LIVE}
  )
  select b.id, b.slot_id, sl.section_id, b.starts_at, b.ends_at, b.teacher_id,
    case when t.id is null then null else t.first_name || ' ' || t.last_name end as teacher_name,
    b.parent_id, case when p.id is null then null else p.first_name || ' ' || p.last_name end as parent_name,
    p.email as parent_email, b.student_id,
    case when c.id is null then null else c.first_name || ' ' || c.last_name end as student_name,
    c.email as student_email, b.subject_id, sub.name as subject_name, b.guests, b.gown_size, b.status,
    b.created_at, coalesce(sl.location, st.location, s.location) as location,
    t.email as teacher_email, t.video_conference_url as video_url, t.settings as teacher_settings,
    b.confirmed_at, b.idempotency_key, b.id in (select id from ins) as created
  from mine b
  left join slots sl on sl.id = b.slot_id
  left join sections s on s.id = sl.section_id
  left join section_teachers st on st.section_id = sl.section_id and st.teacher_id = sl.teacher_id
  left join users t on t.id = b.teacher_id
  left join users p on p.id = b.parent_id
  left join users c on c.id = b.student_id
  left join subjects sub on sub.id = b.subject_id
  where b.status = 'booked'
  order by b.starts_at, b.id`;
const INSERT_AND_READ = { parent: insertAndRead('parent'), student: insertAndRead('student') };

/**
 * Inserts the new bookings and reads the party's live bookings after them (what the answer and the mail
 * say), in one statement. `created`: the new rows' ids in the order given.
 */
export async function insertAndReadBookings(
  db: Db,
  schoolId: number,
  eventId: number,
  party: { parentId: number | null; studentId: number | null },
  rows: NewBooking[],
): Promise<{ created: number[]; after: PartyBookingRow[] }> {
  const column = <K extends keyof NewBooking>(key: K) => rows.map((row) => row[key]);
  const { rows: read } = await db.executeQuery<PartyBookingRow & { created: boolean }>(
    CompiledQuery.raw(INSERT_AND_READ[party.parentId !== null ? 'parent' : 'student'], [
      column('school_id'),
      column('event_id'),
      column('slot_id'),
      column('teacher_id'),
      column('starts_at'),
      column('ends_at'),
      column('parent_id'),
      column('student_id'),
      column('subject_id'),
      column('guests'),
      column('gown_size'),
      column('booked_by'),
      column('idempotency_key'),
      schoolId,
      eventId,
      party.parentId ?? party.studentId ?? 0,
    ]),
  );
  // Identity values are drawn in insertion order: ascending ids are the rows' order.
  const created = read.flatMap((row) => (row.created ? [row.id] : [])).sort((x, y) => x - y);
  return { created, after: read.map(({ created: _, ...row }) => row) };
}

export async function cancelBookingRows(db: Db, schoolId: number, bookingIds: number[]) {
  if (bookingIds.length === 0) return [];
  return db
    .updateTable('bookings')
    .set({ status: 'cancelled', cancelled_at: sql`now()`, updated_at: sql`now()` })
    .where('school_id', '=', schoolId)
    .where('id', 'in', bookingIds)
    .where('status', '=', 'booked')
    .returning(['id', 'slot_id'])
    .execute();
}

/**
 * A live booking's guests and gown changed in place (a ticketed event: it keeps its row and tickets). The
 * database moves the slot's people by the row's change, and refuses it past the slot's capacity. Undefined
 * when the booking is no longer live (another request cancelled it first).
 */
export async function changeGuests(
  db: Db,
  schoolId: number,
  bookingId: number,
  change: { guests: number; gownSize: string | null },
) {
  return db
    .updateTable('bookings')
    .set({ guests: change.guests, gown_size: change.gownSize, updated_at: sql`now()` })
    .where('school_id', '=', schoolId)
    .where('id', '=', bookingId)
    .where('status', '=', 'booked')
    .returning('id')
    .executeTakeFirst();
}

export async function setGownSize(db: Db, schoolId: number, bookingId: number, gownSize: string) {
  return db
    .updateTable('bookings')
    .set({ gown_size: gownSize, updated_at: sql`now()` })
    .where('school_id', '=', schoolId)
    .where('id', '=', bookingId)
    .where('status', '=', 'booked')
    .returning('id')
    .executeTakeFirst();
}

export async function markConfirmed(db: Db, schoolId: number, bookingId: number): Promise<void> {
  await db
    .updateTable('bookings')
    .set({ confirmed_at: sql`now()`, updated_at: sql`now()` })
    .where('school_id', '=', schoolId)
    .where('id', '=', bookingId)
    .execute();
}

/** A teacher's evening: every slot, and who booked it. */
export function teacherSlots(db: Db, schoolId: number, eventId: number, teacherId: number) {
  return db
    .selectFrom('slots as sl')
    .innerJoin('sections as s', 's.id', 'sl.section_id')
    .leftJoin('section_teachers as st', (join) =>
      join.onRef('st.section_id', '=', 'sl.section_id').onRef('st.teacher_id', '=', 'sl.teacher_id'),
    )
    .select([
      'sl.id',
      'sl.section_id',
      'sl.starts_at',
      'sl.ends_at',
      sql<string | null>`coalesce(sl.location, st.location, s.location)`.as('location'),
      sql<
        Array<{
          bookingId: number;
          parentName: string | null;
          parentEmail: string | null;
          studentName: string | null;
          subjectName: string | null;
        }>
      >`coalesce((
        select json_agg(json_build_object(
          'bookingId', b.id,
          'parentName', p.first_name || ' ' || p.last_name,
          'parentEmail', p.email,
          'studentName', c.first_name || ' ' || c.last_name,
          'subjectName', sub.name) order by b.id)
        from bookings b
        left join users p on p.id = b.parent_id
        left join users c on c.id = b.student_id
        left join subjects sub on sub.id = b.subject_id
        where b.slot_id = sl.id and b.status = 'booked'), '[]'::json)`.as('bookings'),
    ])
    .where('sl.school_id', '=', schoolId)
    .where('sl.event_id', '=', eventId)
    .where('sl.teacher_id', '=', teacherId)
    .orderBy('sl.starts_at')
    .execute();
}

/** Enabled events whose last section has not ended, with each viewer role's figures (home "My Events"). */
export function openEventsFor(
  db: Db,
  schoolId: number,
  userId: number,
  role: 'teacher' | 'parent' | 'student',
  now: Date,
) {
  const mine =
    role === 'teacher'
      ? sql<number>`(select count(*) from bookings b where b.event_id = e.id and b.teacher_id = ${userId} and b.status = 'booked')`
      : role === 'parent'
        ? sql<number>`(select count(*) from bookings b where b.event_id = e.id and b.parent_id = ${userId} and b.status = 'booked')`
        : sql<number>`(select count(*) from bookings b where b.event_id = e.id and b.student_id = ${userId} and b.status = 'booked')`;
  // Teachers see the evenings they teach at and the events they scan tickets at (the door needs them).
  const involved =
    role === 'teacher'
      ? sql<boolean>`(exists (select 1 from section_teachers st join sections s2 on s2.id = st.section_id
          where s2.event_id = e.id and st.teacher_id = ${userId})
          or exists (select 1 from event_scanners es where es.event_id = e.id and es.user_id = ${userId}))`
      : sql<boolean>`(exists (select 1 from event_recipients r where r.event_id = e.id and r.user_id = ${userId})
          or exists (select 1 from event_scanners es where es.event_id = e.id and es.user_id = ${userId})
          or ${mine} > 0)`;
  return db
    .selectFrom('events as e')
    .innerJoin('event_types as t', (join) =>
      join.onRef('t.id', '=', 'e.event_type_id').onRef('t.school_id', '=', 'e.school_id'),
    )
    .innerJoin('schools as sc', 'sc.id', 'e.school_id')
    .select([
      'e.id',
      'e.name',
      'e.code',
      'e.status',
      'e.opens_at',
      'e.closes_at',
      't.group_int',
      'sc.name as school_name',
      'sc.timezone',
      sql<Date | null>`(select min(s.starts_at) from sections s where s.event_id = e.id)`.as(
        'first_starts_at',
      ),
      sql<Date | null>`(select max(s.ends_at) from sections s where s.event_id = e.id)`.as('last_ends_at'),
      sql<
        string | null
      >`(select s.location from sections s where s.event_id = e.id order by s.starts_at limit 1)`.as(
        'location',
      ),
      mine.as('my_bookings'),
      sql<boolean>`exists (select 1 from event_scanners es where es.event_id = e.id and es.user_id = ${userId})`.as(
        'i_can_scan',
      ),
    ])
    .where('e.school_id', '=', schoolId)
    .where(involved)
    .where(
      sql<boolean>`coalesce((select max(s.ends_at) from sections s where s.event_id = e.id), ${now}) >= ${now}`,
    )
    .orderBy('first_starts_at')
    .orderBy('e.id')
    .execute();
}

/**
 * What an event's recipient list says about one family member, in one read: whether the list names
 * anyone, which of the member, their children and their parents it names, and those children and parents.
 */
export async function recipientAccess(
  db: Db,
  schoolId: number,
  eventId: number,
  userId: number,
): Promise<RecipientAccess> {
  const family = sql`(select ps.student_id from parent_students ps where ps.school_id = ${schoolId} and ps.parent_id = ${userId}
    union select ps.parent_id from parent_students ps where ps.school_id = ${schoolId} and ps.student_id = ${userId})`;
  const row = await db
    .selectNoFrom([
      sql<boolean>`exists (select 1 from event_recipients r where r.school_id = ${schoolId} and r.event_id = ${eventId})`.as(
        'any',
      ),
      sql<number[]>`array(select r.user_id from event_recipients r where r.school_id = ${schoolId}
        and r.event_id = ${eventId} and (r.user_id = ${userId} or r.user_id in ${family}))`.as('among'),
      sql<
        number[]
      >`array(select ps.student_id from parent_students ps where ps.school_id = ${schoolId} and ps.parent_id = ${userId})`.as(
        'children',
      ),
      sql<
        number[]
      >`array(select ps.parent_id from parent_students ps where ps.school_id = ${schoolId} and ps.student_id = ${userId})`.as(
        'parents',
      ),
    ])
    .executeTakeFirstOrThrow();
  return { any: row.any, among: new Set(row.among), children: row.children, parents: row.parents };
}

/** What an event's recipient list says about one family member (recipientAccess, or event-contexts.ts). */
export type RecipientAccess = {
  any: boolean;
  among: Set<number>;
  children: number[];
  parents: number[];
};

/** A teacher's name and video link as their schedule shows them. */
export function findScheduleTeacher(db: Db, schoolId: number, userId: number) {
  return db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name', 'video_conference_url'])
    .where('school_id', '=', schoolId)
    .where('id', '=', userId)
    .executeTakeFirst();
}
