import type { Role } from '@parley/domain/roles';
import { type Insertable, type RawBuilder, sql, type Updateable } from 'kysely';
import { EVENT_COLUMNS, qualified } from '../../db/columns';
import type { Db } from '../../db/database';
import { containing, matchedInAll, totalOf } from '../../db/paging';
import type { EventsTable, LocalSpan, SlotsTable } from '../../db/schema';

// Events, sections, slots, recipients and scanners. Every query names the school: a row of another school
// is never read, changed or deleted, whatever id the client sends.

const fullName = (alias: string) =>
  sql<string>`${sql.ref(`${alias}.first_name`)} || ' ' || ${sql.ref(`${alias}.last_name`)}`;

// ── events ───────────────────────────────────────────────────────────────────────────────────────────

export async function insertEvent(db: Db, values: Insertable<EventsTable>): Promise<number> {
  const row = await db.insertInto('events').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

const liveBookingCount = sql<number>`(select count(*)::int from bookings b where b.event_id = e.id and b.status = 'booked')`;

function eventsWithType(db: Db, schoolId: number) {
  return db
    .selectFrom('events as e')
    .innerJoin('event_types as t', 't.id', 'e.event_type_id')
    .select(qualified('e', EVENT_COLUMNS))
    .select(['t.name as type_name', 't.group_int', liveBookingCount.as('booking_count')])
    .where('e.school_id', '=', schoolId);
}

export type EventRow = NonNullable<Awaited<ReturnType<typeof findEvent>>>;

export function findEvent(db: Db, schoolId: number, eventId: number) {
  return eventsWithType(db, schoolId).where('e.id', '=', eventId).executeTakeFirst();
}

/**
 * The event, locked until the transaction ends: changes to one event's sections and slots take turns.
 * FOR NO KEY UPDATE, not FOR UPDATE: a booking being written holds FOR KEY SHARE on its event (the foreign
 * key check) while it waits for a slot this transaction has locked; FOR UPDATE would deadlock with it.
 */
export function lockEvent(db: Db, schoolId: number, eventId: number) {
  return eventsWithType(db, schoolId).where('e.id', '=', eventId).forNoKeyUpdate('e').executeTakeFirst();
}

export function listEvents(db: Db, schoolId: number) {
  return eventsWithType(db, schoolId).orderBy(sql`lower(e.name)`).orderBy('e.id').execute();
}

export async function updateEvent(
  db: Db,
  schoolId: number,
  eventId: number,
  fields: Updateable<EventsTable>,
): Promise<void> {
  await db
    .updateTable('events')
    .set({ ...fields, updated_at: sql`now()` })
    .where('id', '=', eventId)
    .where('school_id', '=', schoolId)
    .execute();
}

export async function deleteEvent(db: Db, schoolId: number, eventId: number): Promise<void> {
  await db.deleteFrom('events').where('id', '=', eventId).where('school_id', '=', schoolId).execute();
}

export async function countEvents(db: Db, schoolId: number): Promise<number> {
  const row = await db
    .selectFrom('events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('school_id', '=', schoolId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Enabled events with a section that has not ended, soonest first: the admin's "Event Bookings" list and
 * the current event. nextStartsAt is the start of the first section still to come or under way.
 */
export function activeEvents(db: Db, schoolId: number, now: Date, limit: number) {
  return db
    .selectFrom('events as e')
    .innerJoin('sections as s', (join) =>
      join.onRef('s.event_id', '=', 'e.id').onRef('s.school_id', '=', 'e.school_id'),
    )
    .select([
      'e.id',
      'e.name',
      sql<Date>`min(s.starts_at)`.as('next_starts_at'),
      sql<number>`(select count(*)::int from bookings b where b.event_id = e.id and b.status = 'booked')`.as(
        'booking_count',
      ),
    ])
    .where('e.school_id', '=', schoolId)
    .where('e.status', '=', 1)
    .where('s.ends_at', '>', now)
    .groupBy(['e.id', 'e.name'])
    .orderBy(sql`min(s.starts_at)`)
    .orderBy('e.id')
    .limit(limit)
    .execute();
}

// ── sections ─────────────────────────────────────────────────────────────────────────────────────────

const sectionColumns = [
  's.id',
  's.event_id',
  sql<string>`s.date::text`.as('date'),
  's.start_time',
  's.end_time',
  's.starts_at',
  's.ends_at',
  's.location',
] as const;

export type SectionRow = Awaited<ReturnType<typeof listSections>>[number];

/** Sections of one event, or of all the school's events (the events list). */
export function listSections(db: Db, schoolId: number, eventId?: number) {
  return db
    .selectFrom('sections as s')
    .select(sectionColumns)
    .where('s.school_id', '=', schoolId)
    .$if(eventId !== undefined, (qb) => qb.where('s.event_id', '=', eventId ?? 0))
    .orderBy('s.starts_at')
    .orderBy('s.id')
    .execute();
}

export function findSection(db: Db, schoolId: number, sectionId: number) {
  return db
    .selectFrom('sections as s')
    .select(sectionColumns)
    .where('s.school_id', '=', schoolId)
    .where('s.id', '=', sectionId)
    .executeTakeFirst();
}

type SectionValues = {
  date: string;
  start_time: string;
  end_time: string;
  starts_at: Date;
  ends_at: Date;
  location: string | null;
};

export async function insertSection(
  db: Db,
  schoolId: number,
  eventId: number,
  values: SectionValues,
): Promise<number> {
  const row = await db
    .insertInto('sections')
    .values({ ...values, school_id: schoolId, event_id: eventId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateSection(
  db: Db,
  schoolId: number,
  sectionId: number,
  values: SectionValues,
): Promise<void> {
  await db
    .updateTable('sections')
    .set(values)
    .where('id', '=', sectionId)
    .where('school_id', '=', schoolId)
    .execute();
}

export async function deleteSection(db: Db, schoolId: number, sectionId: number): Promise<void> {
  await db.deleteFrom('sections').where('id', '=', sectionId).where('school_id', '=', schoolId).execute();
}

export type SectionTeacherRow = Awaited<ReturnType<typeof listSectionTeachers>>[number];

/** The teachers of an event's sections (or of one section), by name. */
export function listSectionTeachers(
  db: Db,
  schoolId: number,
  where: { eventId?: number; sectionId?: number | undefined; teacherIds?: number[] | undefined },
) {
  const { teacherIds } = where;
  return db
    .selectFrom('section_teachers as st')
    .innerJoin('sections as s', 's.id', 'st.section_id')
    .innerJoin('users as u', 'u.id', 'st.teacher_id')
    .select(['st.section_id', 'st.teacher_id', 'st.location', 'st.unavailable', fullName('u').as('name')])
    .where('st.school_id', '=', schoolId)
    .$if(where.eventId !== undefined, (qb) => qb.where('s.event_id', '=', where.eventId ?? 0))
    .$if(where.sectionId !== undefined, (qb) => qb.where('st.section_id', '=', where.sectionId ?? 0))
    .$if(teacherIds !== undefined, (qb) =>
      teacherIds?.length ? qb.where('st.teacher_id', 'in', teacherIds) : qb.where(sql<boolean>`false`),
    )
    .orderBy('st.section_id')
    .orderBy(sql`lower(u.last_name)`)
    .orderBy(sql`lower(u.first_name)`)
    .orderBy('u.id')
    .execute();
}

export async function replaceSectionTeachers(
  db: Db,
  schoolId: number,
  sectionId: number,
  teachers: Array<{ teacherId: number; location: string | null; unavailable: LocalSpan[] }>,
): Promise<void> {
  await db
    .deleteFrom('section_teachers')
    .where('section_id', '=', sectionId)
    .where('school_id', '=', schoolId)
    .execute();
  if (teachers.length === 0) return;
  await db
    .insertInto('section_teachers')
    .values(
      teachers.map((teacher) => ({
        school_id: schoolId,
        section_id: sectionId,
        teacher_id: teacher.teacherId,
        location: teacher.location,
        unavailable: JSON.stringify(teacher.unavailable),
      })),
    )
    .execute();
}

export async function setSectionTeacherLocation(
  db: Db,
  schoolId: number,
  sectionId: number,
  teacherId: number,
  location: string | null,
): Promise<boolean> {
  const result = await db
    .updateTable('section_teachers')
    .set({ location })
    .where('school_id', '=', schoolId)
    .where('section_id', '=', sectionId)
    .where('teacher_id', '=', teacherId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

// ── slots ────────────────────────────────────────────────────────────────────────────────────────────

const slotColumns = [
  'sl.id',
  'sl.section_id',
  'sl.teacher_id',
  'sl.starts_at',
  'sl.ends_at',
  'sl.capacity',
  'sl.booked_count',
  'sl.location',
] as const;

export type SlotRow = {
  id: number;
  section_id: number;
  teacher_id: number | null;
  starts_at: Date;
  ends_at: Date;
  capacity: number;
  booked_count: number;
  location: string | null;
};

type PackedSlot = [
  id: number,
  startsMs: number,
  endsMs: number,
  capacity: number,
  booked: number,
  location: string | null,
];

/**
 * An event's slots by section, teacher and time. An evening holds thousands: they come packed as one JSON
 * array per teacher column (a few dozen rows, not thousands), which is several times cheaper to read.
 */
export async function listSlots(
  db: Db,
  schoolId: number,
  eventId: number,
  only: { sectionId?: number | undefined; teacherIds?: number[] | undefined } = {},
): Promise<SlotRow[]> {
  const { sectionId, teacherIds } = only;
  const columns = await db
    .selectFrom('slots as sl')
    .select([
      'sl.section_id',
      'sl.teacher_id',
      sql<PackedSlot[]>`json_agg(json_build_array(sl.id, (extract(epoch from sl.starts_at) * 1000)::bigint,
        (extract(epoch from sl.ends_at) * 1000)::bigint, sl.capacity, sl.booked_count, sl.location)
        order by sl.starts_at, sl.id)`.as('slots'),
    ])
    .where('sl.school_id', '=', schoolId)
    .where('sl.event_id', '=', eventId)
    .$if(sectionId !== undefined, (qb) => qb.where('sl.section_id', '=', sectionId ?? 0))
    .$if(teacherIds !== undefined, (qb) =>
      teacherIds?.length ? qb.where('sl.teacher_id', 'in', teacherIds) : qb.where(sql<boolean>`false`),
    )
    .groupBy(['sl.section_id', 'sl.teacher_id'])
    .orderBy('sl.section_id')
    .orderBy('sl.teacher_id')
    .execute();
  return columns.flatMap((column) =>
    column.slots.map(([id, startsMs, endsMs, capacity, booked, location]) => ({
      id,
      section_id: column.section_id,
      teacher_id: column.teacher_id,
      starts_at: new Date(startsMs),
      ends_at: new Date(endsMs),
      capacity,
      booked_count: booked,
      location,
    })),
  );
}

/**
 * Each column of an event's slot grid in three counts: its slots, the places booked, and its slots with a
 * place left. The page's sections and teachers show these; the slots themselves come a column at a time.
 */
export function slotCounts(db: Db, schoolId: number, eventId: number) {
  return db
    .selectFrom('slots as sl')
    .select([
      'sl.section_id',
      'sl.teacher_id',
      sql<number>`count(*)::int`.as('slots'),
      sql<number>`sum(sl.booked_count)::int`.as('booked'),
      sql<number>`(count(*) filter (where sl.booked_count < sl.capacity))::int`.as('free'),
    ])
    .where('sl.school_id', '=', schoolId)
    .where('sl.event_id', '=', eventId)
    .groupBy(['sl.section_id', 'sl.teacher_id'])
    .execute();
}

/**
 * A section's slots (or an event's), locked: a booking of one of them waits for this transaction, then finds
 * the slot changed or gone, so a section edit and a booking never both win on the same slot.
 */
export function lockSlots(db: Db, schoolId: number, where: { sectionId?: number; eventId?: number }) {
  return db
    .selectFrom('slots as sl')
    .select(slotColumns)
    .where('sl.school_id', '=', schoolId)
    .$if(where.sectionId !== undefined, (qb) => qb.where('sl.section_id', '=', where.sectionId ?? 0))
    .$if(where.eventId !== undefined, (qb) => qb.where('sl.event_id', '=', where.eventId ?? 0))
    .orderBy('sl.id')
    .forUpdate()
    .execute();
}

export async function deleteSlots(db: Db, schoolId: number, slotIds: number[]): Promise<void> {
  for (let i = 0; i < slotIds.length; i += 5000) {
    await db
      .deleteFrom('slots')
      .where('school_id', '=', schoolId)
      .where('id', 'in', slotIds.slice(i, i + 5000))
      .execute();
  }
}

export async function insertSlots(db: Db, rows: Insertable<SlotsTable>[]): Promise<void> {
  // 9 parameters a row: well under PostgreSQL's 65,535 per statement.
  for (let i = 0; i < rows.length; i += 2000) {
    await db
      .insertInto('slots')
      .values(rows.slice(i, i + 2000))
      .execute();
  }
}

/** Sets the capacity of an event's slots; a slot with more bookings than that fails the booked_count check. */
export async function setSlotsCapacity(
  db: Db,
  schoolId: number,
  eventId: number,
  capacity: number,
): Promise<number> {
  const result = await db
    .updateTable('slots')
    .set({ capacity })
    .where('school_id', '=', schoolId)
    .where('event_id', '=', eventId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function setSlotsLocation(
  db: Db,
  schoolId: number,
  where: { eventId?: number; sectionId?: number; teacherId?: number; slotId?: number },
  location: string | null,
): Promise<number> {
  const result = await db
    .updateTable('slots')
    .set({ location })
    .where('school_id', '=', schoolId)
    .$if(where.eventId !== undefined, (qb) => qb.where('event_id', '=', where.eventId ?? 0))
    .$if(where.sectionId !== undefined, (qb) => qb.where('section_id', '=', where.sectionId ?? 0))
    .$if(where.teacherId !== undefined, (qb) => qb.where('teacher_id', '=', where.teacherId ?? 0))
    .$if(where.slotId !== undefined, (qb) => qb.where('id', '=', where.slotId ?? 0))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export function findSlot(db: Db, schoolId: number, slotId: number) {
  return db
    .selectFrom('slots')
    .select(['id', 'event_id', 'section_id', 'teacher_id'])
    .where('school_id', '=', schoolId)
    .where('id', '=', slotId)
    .executeTakeFirst();
}

// ── bookings ─────────────────────────────────────────────────────────────────────────────────────────

export type BookingRow = Awaited<ReturnType<typeof exportBookings>>[number];

/** Bookings with their people, subject and where they take place (the CSV, affected families, a family's own). */
export function bookingsQuery(db: Db, schoolId: number) {
  return db
    .selectFrom('bookings as b')
    .leftJoin('slots as sl', 'sl.id', 'b.slot_id')
    .leftJoin('sections as s', 's.id', 'sl.section_id')
    .leftJoin('section_teachers as st', (join) =>
      join.onRef('st.section_id', '=', 'sl.section_id').onRef('st.teacher_id', '=', 'sl.teacher_id'),
    )
    .leftJoin('users as t', 't.id', 'b.teacher_id')
    .leftJoin('users as p', 'p.id', 'b.parent_id')
    .leftJoin('users as c', 'c.id', 'b.student_id')
    .leftJoin('subjects as sub', 'sub.id', 'b.subject_id')
    .select([
      'b.id',
      'b.slot_id',
      'sl.section_id',
      'b.starts_at',
      'b.ends_at',
      'b.teacher_id',
      sql<string | null>`case when t.id is null then null else ${fullName('t')} end`.as('teacher_name'),
      'b.parent_id',
      sql<string | null>`case when p.id is null then null else ${fullName('p')} end`.as('parent_name'),
      'p.email as parent_email',
      'b.student_id',
      sql<string | null>`case when c.id is null then null else ${fullName('c')} end`.as('student_name'),
      'c.email as student_email',
      'b.subject_id',
      'sub.name as subject_name',
      'b.guests',
      'b.gown_size',
      'b.status',
      'b.created_at',
      sql<string | null>`coalesce(sl.location, st.location, s.location)`.as('location'),
    ])
    .where('b.school_id', '=', schoolId);
}

/** Where a batch of the export ended: its last row's place in the export's order. */
export type ExportAfter = { startsAt: Date; teacherName: string; id: number };

/** The teacher's name in the export's order (none first). */
const exportTeacher = sql`coalesce(t.first_name || ' ' || t.last_name, '')`;

/**
 * A batch of an event's bookings, live and cancelled, in time order, with emails and locations (the CSV),
 * after the row where the last batch ended: the download streams an evening of any size in batches.
 */
export function exportBookings(
  db: Db,
  schoolId: number,
  eventId: number,
  batch: { after: ExportAfter | null; limit: number },
) {
  const { after } = batch;
  let query = bookingsQuery(db, schoolId).where('b.event_id', '=', eventId);
  if (after) {
    // The first condition lets the index (migration 026) start at the batch's time; the second the row.
    query = query
      .where('b.starts_at', '>=', after.startsAt)
      .where(
        sql<boolean>`(b.starts_at, ${exportTeacher}, b.id) > (${after.startsAt}, ${after.teacherName}, ${after.id})`,
      );
  }
  return query.orderBy('b.starts_at').orderBy(exportTeacher).orderBy('b.id').limit(batch.limit).execute();
}

export type TicketCsvRow = Awaited<ReturnType<typeof exportTickets>>[number];

/** The tickets of some bookings of an event, live and void, with who admitted them: the ticketed CSV. */
export function exportTickets(db: Db, schoolId: number, eventId: number, bookingIds: number[]) {
  if (bookingIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('tickets as tk')
    .leftJoin('users as u', 'u.id', 'tk.scanned_by')
    .select([
      'tk.booking_id',
      'tk.guest_index',
      'tk.status',
      'tk.scanned_at',
      sql<string | null>`case when u.id is null then null else ${fullName('u')} end`.as('scanned_by_name'),
    ])
    .where('tk.school_id', '=', schoolId)
    .where('tk.event_id', '=', eventId)
    .where('tk.booking_id', 'in', bookingIds)
    .orderBy('tk.id')
    .execute();
}

export type ViewBookingRow = Awaited<ReturnType<typeof bookingsPage>>['rows'][number];

/**
 * A page of an event's bookings in time order (decision 035): the live ones, or all with the cancelled;
 * those whose teacher, parent or student matches the search (part of the name, any case); and how many
 * match in all, and how many of the event's are cancelled.
 */
export async function bookingsPage(
  db: Db,
  schoolId: number,
  eventId: number,
  options: { q: string; cancelled: boolean; limit: number; offset: number },
) {
  const ofEvent = db
    .selectFrom('bookings as b')
    .where('b.school_id', '=', schoolId)
    .where('b.event_id', '=', eventId);
  const conditions = [
    ...(options.cancelled ? [] : [sql`b.status = 'booked'`]),
    ...(options.q === ''
      ? []
      : [
          sql`lower(concat_ws(' ', ${fullName('t')}, ${fullName('p')}, ${fullName('c')})) like ${containing(options.q)}`,
        ]),
  ];
  const matches =
    conditions.length > 0 ? sql<boolean>`${sql.join(conditions, sql` and `)}` : sql<boolean>`true`;
  const [rows, count, cancelled] = await Promise.all([
    bookingsQuery(db, schoolId)
      .where('b.event_id', '=', eventId)
      .where(matches)
      .select('b.confirmed_at')
      .orderBy('b.starts_at')
      .orderBy('b.id')
      .limit(options.limit)
      .offset(options.offset)
      .execute(),
    // Counted apart: the page itself stops after 50 rows in time order, which a count over it would not.
    ofEvent
      .leftJoin('users as t', 't.id', 'b.teacher_id')
      .leftJoin('users as p', 'p.id', 'b.parent_id')
      .leftJoin('users as c', 'c.id', 'b.student_id')
      .where(matches)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    ofEvent
      .where('b.status', '=', 'cancelled')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n), cancelled: Number(cancelled.n) };
}

/** Live bookings on the given slots: what a section change would cancel. */
export async function liveBookingsOnSlots(db: Db, schoolId: number, slotIds: number[]) {
  if (slotIds.length === 0) return [];
  return bookingsQuery(db, schoolId)
    .where('b.slot_id', 'in', slotIds)
    .where('b.status', '=', 'booked')
    .orderBy('b.starts_at')
    .orderBy('b.id')
    .execute();
}

export function liveBookingsOfEvent(db: Db, schoolId: number, eventId: number) {
  return bookingsQuery(db, schoolId)
    .where('b.event_id', '=', eventId)
    .where('b.status', '=', 'booked')
    .orderBy('b.starts_at')
    .orderBy('b.id')
    .execute();
}

export async function cancelBookings(db: Db, schoolId: number, bookingIds: number[]): Promise<void> {
  if (bookingIds.length === 0) return;
  await db
    .updateTable('bookings')
    .set({ status: 'cancelled', cancelled_at: sql`now()` })
    .where('school_id', '=', schoolId)
    .where('id', 'in', bookingIds)
    .where('status', '=', 'booked')
    .execute();
}

// ── people: recipients and scanners ──────────────────────────────────────────────────────────────────

type PeopleFilter = { ids?: number[]; activeOnly?: boolean };

/** The school's users holding one of the roles, among the given ids (or all), active only if asked. */
function usersWithRoles(db: Db, schoolId: number, roles: Role[], options: PeopleFilter) {
  return db
    .selectFrom('users as u')
    .where('u.school_id', '=', schoolId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('user_roles as r')
          .select('r.role')
          .whereRef('r.user_id', '=', 'u.id')
          .where('r.role', 'in', roles),
      ),
    )
    .$if(options.ids !== undefined, (qb) => qb.where('u.id', 'in', options.ids?.length ? options.ids : [0]))
    .$if(options.activeOnly === true, (qb) => qb.where('u.status', '=', 1));
}

/** Users of the school holding one of the roles, among the given ids (or all of them, when ids is absent). */
export function peopleWithRoles(db: Db, schoolId: number, roles: Role[], options: PeopleFilter = {}) {
  return usersWithRoles(db, schoolId, roles, options)
    .select(['u.id', fullName('u').as('name'), 'u.email'])
    .orderBy(sql`lower(u.last_name)`)
    .orderBy(sql`lower(u.first_name)`)
    .orderBy('u.id')
    .execute();
}

/**
 * Each person's family, one step out: them, their children and those children's other parents, and their
 * own parents, as (id, member) rows for every id of `people` (a table or subquery with an id column). "Who
 * hasn't booked" asks it of families: a parent whose partner booked has booked (issue 36). The relation is
 * symmetric: a parent's child has the parent as theirs, co-parents have each other.
 */
const familyPairs = (people: RawBuilder<unknown>) => sql`
  select p.id, p.id as member from ${people} p
  union all select p.id, ps.student_id from ${people} p join parent_students ps on ps.parent_id = p.id
  union all select p.id, co.parent_id from ${people} p join parent_students ps on ps.parent_id = p.id
    join parent_students co on co.student_id = ps.student_id
  union all select p.id, ps.parent_id from ${people} p join parent_students ps on ps.student_id = p.id`;

/** A person's family named by its smallest id, the same for each of them. */
const familyIdOf = (user: 'u.id') =>
  sql<number>`(select min(f.member) from (${familyPairs(sql`(select ${sql.ref(user)} as id)`)}) f)`;

/** Everyone in the family of someone with a live booking at the event: they have booked. */
const familiesOfBooked = (schoolId: number, eventId: number) =>
  sql<number>`with booked as (
      select b.parent_id as id from bookings b
        where b.school_id = ${schoolId} and b.event_id = ${eventId} and b.status = 'booked' and b.parent_id is not null
      union select b.student_id from bookings b
        where b.school_id = ${schoolId} and b.event_id = ${eventId} and b.status = 'booked' and b.student_id is not null)
    select f.member from (${familyPairs(sql.table('booked'))}) f`;

/**
 * A page of an event's recipients by name (decision 035): those matching the search (part of the name or
 * email, any case) and, when asked, only those whose family has not booked; each with their family roles,
 * whether their family has booked, and their family's id; and how many match in all.
 */
export async function recipientsPage(
  db: Db,
  schoolId: number,
  eventId: number,
  options: { q: string; notBooked: boolean; limit: number; offset: number },
) {
  const booked = familiesOfBooked(schoolId, eventId);
  const matching = db
    .selectFrom('event_recipients as er')
    .innerJoin('users as u', 'u.id', 'er.user_id')
    .where('er.school_id', '=', schoolId)
    .where('er.event_id', '=', eventId)
    .$if(options.q !== '', (qb) =>
      qb.where(sql<boolean>`lower(${fullName('u')} || ' ' || u.email) like ${containing(options.q)}`),
    )
    .$if(options.notBooked, (qb) => qb.where(sql<boolean>`u.id not in (${booked})`));
  const rows = await matching
    .select([
      'u.id',
      fullName('u').as('name'),
      'u.email',
      sql<
        Role[]
      >`array(select r.role from user_roles r where r.user_id = u.id and r.role in ('parent', 'student') order by r.role)`.as(
        'roles',
      ),
      sql<boolean>`u.id in (${booked})`.as('booked'),
      familyIdOf('u.id').as('family_id'),
      matchedInAll,
    ])
    .orderBy(sql`lower(u.last_name)`)
    .orderBy(sql`lower(u.first_name)`)
    .orderBy('u.id')
    .limit(options.limit)
    .offset(options.offset)
    .execute();
  const total = await totalOf(rows, options.offset, () =>
    matching.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  );
  return { rows, total };
}

/**
 * The whole recipients list in three counts: people, people whose family has booked, and families with no
 * booking. Each recipient's family (its smallest id) is found set-based, not one recipient at a time.
 */
export async function recipientCounts(db: Db, schoolId: number, eventId: number) {
  const { rows } = await sql<{ people: number; booked_people: number; not_booked_families: number }>`
    with r as (select er.user_id as id from event_recipients er
        where er.school_id = ${schoolId} and er.event_id = ${eventId}),
      members as (${familyPairs(sql.table('r'))}),
      families as (select id, min(member) as family_id from members group by id),
      booked as (${familiesOfBooked(schoolId, eventId)})
    select count(*)::int as people,
      (count(*) filter (where f.id in (select member from booked)))::int as booked_people,
      (count(distinct f.family_id) filter (where f.id not in (select member from booked)))::int as not_booked_families
    from families f`.execute(db);
  return {
    people: rows[0]?.people ?? 0,
    bookedPeople: rows[0]?.booked_people ?? 0,
    notBookedFamilies: rows[0]?.not_booked_families ?? 0,
  };
}

/** How many are on an event's recipients list. */
export async function recipientCount(db: Db, schoolId: number, eventId: number): Promise<number> {
  const row = await db
    .selectFrom('event_recipients')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('school_id', '=', schoolId)
    .where('event_id', '=', eventId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Whom "add recipients" names: every active parent (or student) of the school, or these parents and students. */
export type RecipientCandidates = { role: 'parent' | 'student' } | { ids: number[] };

const candidatesOf = (db: Db, schoolId: number, who: RecipientCandidates) =>
  'role' in who
    ? usersWithRoles(db, schoolId, [who.role], { activeOnly: true })
    : usersWithRoles(db, schoolId, ['parent', 'student'], { ids: who.ids });

/**
 * What adding the candidates would do: how many are new to the event and how many already there, and the
 * first `limit` of each by name. Counted by PostgreSQL, so "all parents" of a district is one small answer.
 */
export async function previewRecipients(
  db: Db,
  schoolId: number,
  eventId: number,
  who: RecipientCandidates,
  limit: number,
) {
  const already = sql<boolean>`exists (select 1 from event_recipients er
    where er.school_id = ${schoolId} and er.event_id = ${eventId} and er.user_id = u.id)`;
  const ranked = candidatesOf(db, schoolId, who).select([
    'u.id',
    fullName('u').as('name'),
    'u.email',
    already.as('already'),
    sql<number>`row_number() over (partition by ${already}
      order by lower(u.last_name), lower(u.first_name), u.id)`.as('rank'),
    sql<string>`count(*) over (partition by ${already})`.as('n'),
  ]);
  const rows = await db
    .selectFrom(ranked.as('c'))
    .selectAll()
    .where('rank', '<=', limit)
    .orderBy('already')
    .orderBy('rank')
    .execute();
  const part = (added: boolean) => rows.filter((row) => row.already === added);
  const people = (added: boolean) => part(added).map(({ id, name, email }) => ({ id, name, email }));
  const count = (added: boolean) => Number(part(added)[0]?.n ?? 0);
  return {
    toAdd: people(false),
    toAddCount: count(false),
    alreadyAdded: people(true),
    alreadyAddedCount: count(true),
  };
}

/** Adds the candidates not yet recipients of the event, in one statement; returns how many were added. */
export async function addRecipientsOf(
  db: Db,
  schoolId: number,
  eventId: number,
  who: RecipientCandidates,
): Promise<number> {
  const result = await db
    .insertInto('event_recipients')
    .columns(['school_id', 'event_id', 'user_id'])
    .expression(
      candidatesOf(db, schoolId, who).select((eb) => ['u.school_id', eb.val(eventId).as('event_id'), 'u.id']),
    )
    .onConflict((oc) => oc.columns(['event_id', 'user_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

export async function recipientIds(db: Db, schoolId: number, eventId: number): Promise<Set<number>> {
  const rows = await db
    .selectFrom('event_recipients')
    .select('user_id')
    .where('school_id', '=', schoolId)
    .where('event_id', '=', eventId)
    .execute();
  return new Set(rows.map((row) => row.user_id));
}

export async function addMembers(
  db: Db,
  table: 'event_recipients' | 'event_scanners',
  schoolId: number,
  eventId: number,
  userIds: number[],
): Promise<number> {
  let added = 0;
  for (let i = 0; i < userIds.length; i += 5000) {
    const rows = await db
      .insertInto(table)
      .values(
        userIds
          .slice(i, i + 5000)
          .map((userId) => ({ school_id: schoolId, event_id: eventId, user_id: userId })),
      )
      .onConflict((oc) => oc.columns(['event_id', 'user_id']).doNothing())
      .returning('user_id')
      .execute();
    added += rows.length;
  }
  return added;
}

export async function removeMember(
  db: Db,
  table: 'event_recipients' | 'event_scanners',
  schoolId: number,
  eventId: number,
  userId: number,
): Promise<boolean> {
  const result = await db
    .deleteFrom(table)
    .where('school_id', '=', schoolId)
    .where('event_id', '=', eventId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function clearScanners(db: Db, schoolId: number, eventId: number): Promise<void> {
  await db
    .deleteFrom('event_scanners')
    .where('school_id', '=', schoolId)
    .where('event_id', '=', eventId)
    .execute();
}

export function listScanners(db: Db, schoolId: number, eventId: number) {
  return db
    .selectFrom('event_scanners as es')
    .innerJoin('users as u', 'u.id', 'es.user_id')
    .select(['u.id', fullName('u').as('name'), 'u.email'])
    .where('es.school_id', '=', schoolId)
    .where('es.event_id', '=', eventId)
    .orderBy(sql`lower(u.last_name)`)
    .orderBy('u.id')
    .execute();
}

/** Who a message goes to: every recipient, or those whose family has not booked; or one of them. */
export type MessageAudience = { notBooked: boolean; userId?: number };

/**
 * Recipients to message: everyone, or those whose family (familyPairs) has no live booking in the event;
 * active accounts only.
 */
function messageRecipientsQuery(db: Db, schoolId: number, eventId: number, audience: MessageAudience) {
  return (
    db
      .selectFrom('event_recipients as er')
      .innerJoin('users as u', 'u.id', 'er.user_id')
      .where('er.school_id', '=', schoolId)
      .where('er.event_id', '=', eventId)
      .where('u.status', '=', 1)
      .$if(audience.userId !== undefined, (qb) => qb.where('u.id', '=', audience.userId ?? 0))
      // No member of the recipient's family (familyPairs) among the people of the event's live bookings. A
      // family is symmetric (a parent's child has the parent as theirs, co-parents each other), so that is:
      // not in the families of the booked, found once, set-based, and hashed. Asked per recipient it grew
      // with the recipients × their families' lookups: 0.73 s of PostgreSQL for 3,000 families, 8.9 s for
      // 20,000 (bench/scale.ts, issue 39).
      .$if(audience.notBooked, (qb) =>
        qb.where(sql<boolean>`u.id not in (${familiesOfBooked(schoolId, eventId)})`),
      )
  );
}

/** The next `limit` recipients after user id `after`, in id order (a message job's batch). */
export function messageRecipients(
  db: Db,
  schoolId: number,
  eventId: number,
  audience: MessageAudience,
  page: { after: number; limit: number },
) {
  return messageRecipientsQuery(db, schoolId, eventId, audience)
    .select(['u.id', 'u.email', 'u.first_name', 'u.last_name'])
    .where('u.id', '>', page.after)
    .orderBy('u.id')
    .limit(page.limit)
    .execute();
}

/** How many recipients a message would go to now. */
export async function countMessageRecipients(
  db: Db,
  schoolId: number,
  eventId: number,
  audience: MessageAudience,
): Promise<number> {
  const row = await messageRecipientsQuery(db, schoolId, eventId, audience)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** How many people hold a role in the school (the admin home tiles). */
export async function countRole(db: Db, schoolId: number, role: Role): Promise<number> {
  const row = await db
    .selectFrom('user_roles')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('school_id', '=', schoolId)
    .where('role', '=', role)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Events in which the teacher has slots still to come, in id order (decision 008's lock order). */
export async function eventsWithFutureSlotsOf(
  db: Db,
  schoolId: number,
  teacherId: number,
): Promise<number[]> {
  const rows = await db
    .selectFrom('slots')
    .select('event_id')
    .distinct()
    .where('school_id', '=', schoolId)
    .where('teacher_id', '=', teacherId)
    .where('starts_at', '>', sql<Date>`now()`)
    .orderBy('event_id')
    .execute();
  return rows.map((row) => row.event_id);
}

/** Locks the teacher's slots still to come in the event, in id order; returns their ids. */
export async function lockFutureSlotsOf(
  db: Db,
  schoolId: number,
  eventId: number,
  teacherId: number,
): Promise<number[]> {
  const rows = await db
    .selectFrom('slots')
    .select('id')
    .where('school_id', '=', schoolId)
    .where('event_id', '=', eventId)
    .where('teacher_id', '=', teacherId)
    .where('starts_at', '>', sql<Date>`now()`)
    .orderBy('id')
    .forUpdate()
    .execute();
  return rows.map((row) => row.id);
}

/** Takes the teacher off the school's sections still to come (those already held keep them). */
export async function removeTeacherFromFutureSections(db: Db, schoolId: number, teacherId: number) {
  await db
    .deleteFrom('section_teachers')
    .where('school_id', '=', schoolId)
    .where('teacher_id', '=', teacherId)
    .where('section_id', 'in', (eb) =>
      eb
        .selectFrom('sections')
        .select('id')
        .where('school_id', '=', schoolId)
        .where('starts_at', '>', sql<Date>`now()`),
    )
    .execute();
}
