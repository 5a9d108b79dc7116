import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { hashToken } from '../../lib/tokens';
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
    .selectAll('e')
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

/**
 * The event share-locked (bookings of one event run together; a section edit, FOR NO KEY UPDATE, waits
 * for them and they for it) and the booking party's row locked, in one statement. The party lock makes one
 * family's changes take turns, so what they already hold (siblings sharing a slot, the travel gap, a
 * child's limit) is read consistently; capacity and overlaps are the database's whatever the order. With
 * it come the family's children, and their address and settings for the confirmation mail.
 */
export async function lockEventAndParty(
  db: Db,
  schoolId: number,
  eventId: number,
  party: { userId: number; parentId: number | null },
  slotIds: number[],
) {
  // Of the slots asked for, those already full and not the party's own (siblings share theirs): a request
  // that has lost the race ends here, before it reads or writes anything else. Only a hint: the
  // conditional UPDATE that takes the place is the rule.
  const held =
    party.parentId !== null ? sql`b.parent_id = ${party.userId}` : sql`b.student_id = ${party.userId}`;
  const full =
    slotIds.length === 0
      ? sql<number[]>`'{}'::int[]`
      : sql<number[]>`array(select s.id from slots s where s.id in (${sql.join(slotIds)})
          and s.event_id = e.id and s.booked_count >= s.capacity
          and not exists (select 1 from bookings b where b.slot_id = s.id and b.status = 'booked' and ${held}))`;
  const row = await eventQuery(db)
    .innerJoin('users as u', (join) => join.on('u.id', '=', party.userId).on('u.school_id', '=', schoolId))
    .select([
      'u.email as party_email',
      'u.first_name as party_first_name',
      'u.settings as party_settings',
      sql<number[]>`array(select ps.student_id from parent_students ps where ps.parent_id = u.id)`.as(
        'party_children',
      ),
      full.as('full_slots'),
    ])
    .where('e.school_id', '=', schoolId)
    .where('e.id', '=', eventId)
    .modifyEnd(sql`for share of e for no key update of u`)
    .executeTakeFirst();
  if (!row) return undefined;
  const { party_email, party_first_name, party_settings, party_children, full_slots, ...event } = row;
  const family = {
    email: party_email,
    first_name: party_first_name,
    settings: party_settings,
    children: party_children,
  };
  return { event, family, fullSlots: full_slots };
}

export type PartyRow = NonNullable<Awaited<ReturnType<typeof lockEventAndParty>>>['family'];

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

export async function rolesOf(db: Db, userId: number) {
  const rows = await db.selectFrom('user_roles').select('role').where('user_id', '=', userId).execute();
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

/** Which teachers' columns: by id, or those of some slots (plus others by id); all when absent. */
export type GridTeachers = number[] | { ofSlots: number[]; also?: number[] };

/** Slots of an event (for some teachers, or all) with where they are. */
export function gridSlots(db: Db, schoolId: number, eventId: number, teachers?: GridTeachers) {
  return (
    db
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
        'sl.capacity',
        'sl.booked_count',
        sql<string | null>`coalesce(sl.location, st.location, s.location)`.as('location'),
        's.starts_at as section_starts_at',
      ])
      .where('sl.school_id', '=', schoolId)
      .where('sl.event_id', '=', eventId)
      // A family never sees, nor books, a time that has passed.
      .where('sl.starts_at', '>', sql<Date>`now()`)
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
      .orderBy('s.starts_at')
      .orderBy('sl.section_id')
      .orderBy('teacher_name')
      .orderBy('sl.teacher_id')
      .orderBy('sl.starts_at')
      .execute()
  );
}

/** The event's slots still to come among these ids, unlocked (the booking takes its place with takePlaces). */
export function eventSlots(db: Db, schoolId: number, eventId: number, slotIds: number[]) {
  return db
    .selectFrom('slots')
    .select(['id', 'teacher_id', 'starts_at', 'ends_at', 'capacity', 'booked_count'])
    .where('school_id', '=', schoolId)
    .where('event_id', '=', eventId)
    .where('starts_at', '>', sql<Date>`now()`)
    .where('id', 'in', slotIds.length > 0 ? slotIds : [0])
    .execute();
}

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
      .execute()
  );
}

/**
 * What a party holds in an event (live bookings, bookings table alone), and any booking this idempotency
 * key already made: the booking transaction's one read before it writes.
 */
export function partyHoldings(
  db: Db,
  schoolId: number,
  eventId: number,
  party: { parentId: number | null; studentId: number | null },
  key: string | null,
) {
  return db
    .selectFrom('bookings as b')
    .select([
      'b.id',
      'b.slot_id',
      'b.teacher_id',
      'b.starts_at',
      'b.ends_at',
      'b.student_id',
      'b.status',
      'b.idempotency_key',
      'b.guests',
    ])
    .where('b.school_id', '=', schoolId)
    .where('b.event_id', '=', eventId)
    .where((eb) =>
      party.parentId !== null
        ? eb('b.parent_id', '=', party.parentId)
        : eb('b.student_id', '=', party.studentId ?? 0),
    )
    .where((eb) => eb.or([eb('b.status', '=', 'booked'), eb('b.idempotency_key', '=', key ?? '')]))
    .orderBy('b.starts_at')
    .orderBy('b.id')
    .execute();
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
export async function lockSlotsInOrder(db: Db, slotIds: number[]): Promise<void> {
  const ids = [...new Set(slotIds)];
  if (ids.length < 2) return; // one slot: its conditional UPDATE is the lock
  await db.selectFrom('slots').select('id').where('id', 'in', ids).orderBy('id').forNoKeyUpdate().execute();
}

/** Places to take or give back in one slot: a party (1) elsewhere, people (1 + guests) at a ticketed event. */
export type Places = { slotId: number; count: number };

const placeValues = (places: Places[]) =>
  sql.join(places.map((place) => sql`(${place.slotId}::int, ${place.count}::int)`));

/**
 * Takes the places in each of the event's slots, only where they are all free: the conditional UPDATE is
 * the capacity rule (the CHECK booked_count <= capacity stands behind it). Returns the slots that had room.
 */
export async function takePlaces(db: Db, schoolId: number, eventId: number, places: Places[]) {
  if (places.length === 0) return [];
  const { rows } = await sql<{ id: number; teacher_id: number | null; starts_at: Date; ends_at: Date }>`
    update slots s set booked_count = s.booked_count + v.n
    from (values ${placeValues(places)}) as v(id, n)
    where s.school_id = ${schoolId} and s.event_id = ${eventId} and s.id = v.id
      and s.booked_count + v.n <= s.capacity
    returning s.id, s.teacher_id, s.starts_at, s.ends_at`.execute(db);
  return rows;
}

export async function releasePlaces(db: Db, schoolId: number, places: Places[]): Promise<void> {
  if (places.length === 0) return;
  await sql`
    update slots s set booked_count = greatest(s.booked_count - v.n, 0)
    from (values ${placeValues(places)}) as v(id, n)
    where s.school_id = ${schoolId} and s.id = v.id`.execute(db);
}

/**
 * Locks the children a parent books for, in id order, so two parents of one child (or the child booking
 * themself) take turns: the rules per child are read and kept under this lock.
 */
export async function lockChildren(db: Db, schoolId: number, childIds: number[]): Promise<void> {
  await db
    .selectFrom('users')
    .select('id')
    .where('school_id', '=', schoolId)
    .where('id', 'in', childIds)
    .orderBy('id')
    .forNoKeyUpdate()
    .execute();
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

export async function insertBookings(db: Db, rows: NewBooking[]): Promise<number[]> {
  if (rows.length === 0) return [];
  const inserted = await db.insertInto('bookings').values(rows).returning('id').execute();
  return inserted.map((row) => row.id);
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
export async function recipientAccess(db: Db, schoolId: number, eventId: number, userId: number) {
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
