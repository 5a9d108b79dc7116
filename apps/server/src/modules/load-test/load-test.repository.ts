import { SYNTHETIC_EMAIL_DOMAIN } from '@parley/domain/load-test';
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { idInSchool } from '../../db/same-school';

// The load-test rehearsal's SQL (decision 022). A rehearsal copies the real event into a sandbox school of
// its own (`schools.sandbox_of`): every list of the real school filters by its school and row-level
// security stands behind them, so nothing of the sandbox shows anywhere. Its people have `.invalid`
// addresses, which the outbox refuses to queue.

// ── the school's events ──────────────────────────────────────────────────────────────────────────────

/** The school's events with the size of their grids, soonest first. */
export async function listEvents(db: Db, schoolId: number) {
  const { rows } = await sql<{
    id: number;
    name: string;
    type_name: string;
    group_int: number;
    teachers: number;
    slots: number;
    places: number;
    first_starts_at: Date | null;
    last_ends_at: Date | null;
  }>`
    select e.id, e.name, t.name as type_name, t.group_int,
      (select count(distinct sl.teacher_id)::int from slots sl where sl.event_id = e.id and sl.school_id = e.school_id) as teachers,
      (select count(*)::int from slots sl where sl.event_id = e.id and sl.school_id = e.school_id) as slots,
      (select coalesce(sum(sl.capacity), 0)::int from slots sl where sl.event_id = e.id and sl.school_id = e.school_id) as places,
      (select min(s.starts_at) from sections s where s.event_id = e.id and s.school_id = e.school_id) as first_starts_at,
      (select max(s.ends_at) from sections s where s.event_id = e.id and s.school_id = e.school_id) as last_ends_at
    from events e
    join event_types t on t.id = e.event_type_id and t.school_id = e.school_id
    where e.school_id = ${schoolId}
    order by first_starts_at nulls last, e.id`.execute(db);
  return rows;
}

export async function findEvent(db: Db, schoolId: number, eventId: number) {
  const rows = await listEvents(db, schoolId);
  return rows.find((row) => row.id === eventId);
}

// ── the run: lock and record ─────────────────────────────────────────────────────────────────────────

/**
 * Takes the installation's one rehearsal place: a running row. Null when another rehearsal holds it (the
 * unique index on running rows decides, whichever school or server asked).
 */
export async function insertRun(
  db: Db,
  run: { schoolId: number; eventId: number; eventName: string; parents: number; startedBy: number },
): Promise<number | null> {
  const row = await db
    .insertInto('load_test_runs')
    .values({
      school_id: run.schoolId,
      // The school's own event (another school's fails the insert) and starter (another's is not kept).
      event_id: idInSchool('events', run.eventId, run.schoolId),
      event_name: run.eventName,
      parents: run.parents,
      started_by: idInSchool('users', run.startedBy, run.schoolId),
    })
    // The running row of another rehearsal: no row, and no error to leave a caller's transaction aborted.
    .onConflict((conflict) => conflict.doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id ?? null;
}

const runColumns = [
  'id',
  'school_id',
  'event_id',
  'event_name',
  'parents',
  'status',
  'sandbox_school_id',
  'started_at',
  'finished_at',
  'cleaned_at',
  'figures',
  'integrity',
  'failure',
] as const;

export type RunRow = Awaited<ReturnType<typeof latestRun>>;

/** The school's latest rehearsal (running or done). */
export function latestRun(db: Db, schoolId: number) {
  return db
    .selectFrom('load_test_runs')
    .select(runColumns)
    .where('school_id', '=', schoolId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export function findRun(db: Db, schoolId: number, runId: number) {
  return db
    .selectFrom('load_test_runs')
    .select(runColumns)
    .where('school_id', '=', schoolId)
    .where('id', '=', runId)
    .executeTakeFirst();
}

/** The figures so far; also the run's heartbeat (a run that stops beating is swept as dead). */
export async function saveFigures(db: Db, schoolId: number, runId: number, figures: unknown): Promise<void> {
  await db
    .updateTable('load_test_runs')
    .set({ figures: JSON.stringify(figures), heartbeat_at: sql`now()` })
    .where('school_id', '=', schoolId)
    .where('id', '=', runId)
    .execute();
}

export async function finishRun(
  db: Db,
  schoolId: number,
  runId: number,
  outcome: { status: 'finished' | 'failed'; figures: unknown; integrity: unknown; failure: string | null },
): Promise<void> {
  await db
    .updateTable('load_test_runs')
    .set({
      status: outcome.status,
      figures: JSON.stringify(outcome.figures),
      integrity: outcome.integrity === null ? null : JSON.stringify(outcome.integrity),
      failure: outcome.failure,
      finished_at: sql`now()`,
    })
    .where('school_id', '=', schoolId)
    .where('id', '=', runId)
    .execute();
}

export async function markCleaned(db: Db, schoolId: number, runId: number): Promise<void> {
  await db
    .updateTable('load_test_runs')
    .set({ cleaned_at: sql`now()` })
    .where('school_id', '=', schoolId)
    .where('id', '=', runId)
    .execute();
}

/**
 * Runs whose process stopped beating (a crash, a kill) end as failed, freeing the installation's place.
 * System scope: a dead run may be any school's. Returns how many.
 */
export async function failDeadRuns(db: Db, staleSeconds: number, failure: string): Promise<number> {
  const rows = await db
    .updateTable('load_test_runs')
    .set({ status: 'failed', failure, finished_at: sql`now()` })
    .where('status', '=', 'running')
    .where('heartbeat_at', '<', sql<Date>`now() - make_interval(secs => ${staleSeconds})`)
    .returning('id')
    .execute();
  return rows.length;
}

/** Sandbox schools no running rehearsal owns: what a crash or a failed clean-up left (system scope). */
export async function orphanSandboxes(db: Db): Promise<number[]> {
  const rows = await db
    .selectFrom('schools')
    .select('id')
    .where('sandbox_of', 'is not', null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('load_test_runs as r')
            .select('r.id')
            .whereRef('r.sandbox_school_id', '=', 'schools.id')
            .where('r.status', '=', 'running'),
        ),
      ),
    )
    .execute();
  return rows.map((row) => row.id);
}

/** Runs finished without their clean-up recorded (system scope). */
export async function uncleanedRuns(db: Db) {
  return db
    .selectFrom('load_test_runs')
    .select(['id', 'school_id'])
    .where('status', '<>', 'running')
    .where('cleaned_at', 'is', null)
    .execute();
}

// ── the sandbox ──────────────────────────────────────────────────────────────────────────────────────

export type SandboxSlot = {
  id: number;
  teacher_id: number | null;
  starts_at: Date;
  ends_at: Date;
  capacity: number;
};
export type Sandbox = {
  schoolId: number;
  eventId: number;
  groupInt: number;
  slots: SandboxSlot[];
  families: Array<{ parentId: number; studentId: number }>;
};

const address = (kind: string, n: number, tag: string) => `${kind}${n}.${tag}@${SYNTHETIC_EMAIL_DOMAIN}`;
const CHUNK = 500;

async function inChunks<T>(rows: T[], insert: (part: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) await insert(rows.slice(i, i + CHUNK));
}

/**
 * The sandbox (system scope, one transaction, recorded on the run in it, so a crash never leaves one the
 * sweep cannot find): a hidden school like the real one, the event's type, stand-ins for its teachers, the
 * event open for booking with the same sections, teachers' times and slots (empty), and `parents` families
 * of a parent and a child.
 */
export async function createSandbox(
  trx: Db,
  source: { schoolId: number; eventId: number; runId: number; parents: number; tag: string; code: string },
): Promise<Sandbox> {
  const { schoolId, eventId, tag } = source;
  const school = await trx
    .selectFrom('schools')
    .select(['name', 'timezone'])
    .where('id', '=', schoolId)
    .executeTakeFirstOrThrow();
  const sandbox = await trx
    .insertInto('schools')
    .values({
      name: `${school.name} (rehearsal)`,
      timezone: school.timezone,
      verified_at: new Date(),
      sandbox_of: schoolId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const sb = sandbox.id;
  await trx
    .updateTable('load_test_runs')
    .set({ sandbox_school_id: sb })
    .where('school_id', '=', schoolId)
    .where('id', '=', source.runId)
    .execute();

  const event = await trx
    .selectFrom('events as e')
    .innerJoin('event_types as t', (join) =>
      join.onRef('t.id', '=', 'e.event_type_id').onRef('t.school_id', '=', 'e.school_id'),
    )
    .selectAll('e')
    .select(['t.name as type_name', 't.group_int'])
    .where('e.school_id', '=', schoolId)
    .where('e.id', '=', eventId)
    .executeTakeFirstOrThrow();
  const type = await trx
    .insertInto('event_types')
    .values({ school_id: sb, name: event.type_name, group_int: event.group_int })
    .returning('id')
    .executeTakeFirstOrThrow();

  // Stand-ins for the event's teachers: same names and settings, in the sandbox, never mailed.
  const sections = await trx
    .selectFrom('sections')
    .selectAll()
    .where('school_id', '=', schoolId)
    .where('event_id', '=', eventId)
    .orderBy('id')
    .execute();
  const sectionTeachers = await trx
    .selectFrom('section_teachers')
    .selectAll()
    .where('school_id', '=', schoolId)
    .where('section_id', 'in', sections.map((s) => s.id).concat(0))
    .execute();
  const slots = await trx
    .selectFrom('slots')
    .selectAll()
    .where('school_id', '=', schoolId)
    .where('event_id', '=', eventId)
    .orderBy('id')
    .execute();
  const teacherIds = [
    ...new Set([
      ...sectionTeachers.map((row) => row.teacher_id),
      ...slots.flatMap((slot) => (slot.teacher_id === null ? [] : [slot.teacher_id])),
    ]),
  ];
  const teacherOf = new Map<number, number>();
  if (teacherIds.length > 0) {
    const real = await trx
      .selectFrom('users')
      .select(['id', 'title', 'first_name', 'last_name', 'settings'])
      .where('school_id', '=', schoolId)
      .where('id', 'in', teacherIds)
      .execute();
    const made = await trx
      .insertInto('users')
      .values(
        real.map((teacher) => ({
          school_id: sb,
          email: address(`teacher${teacher.id}-`, 0, tag),
          title: teacher.title,
          first_name: teacher.first_name,
          last_name: teacher.last_name,
          settings: sql<Record<string, Record<string, unknown>>>`${JSON.stringify(teacher.settings)}::jsonb`,
        })),
      )
      .returning(['id', 'email'])
      .execute();
    const byEmail = new Map(made.map((row) => [row.email, row.id]));
    for (const teacher of real)
      teacherOf.set(teacher.id, byEmail.get(address(`teacher${teacher.id}-`, 0, tag)) ?? 0);
    await trx
      .insertInto('user_roles')
      .values(made.map((row) => ({ user_id: row.id, school_id: sb, role: 'teacher' as const })))
      .execute();
  }

  // The copy opens now and closes when its last section ends; recipients are left out (every family may book).
  const copy = await trx
    .insertInto('events')
    .values({
      school_id: sb,
      event_type_id: type.id,
      name: event.name,
      status: 1,
      code: source.code,
      booking_page_message: event.booking_page_message,
      opens_at: null,
      closes_at: null,
      slot_minutes: event.slot_minutes,
      break_minutes: event.break_minutes,
      travel_minutes: event.travel_minutes,
      capacity: event.capacity,
      guest_allowance: event.guest_allowance,
      gown_sizes: event.gown_sizes,
      max_appointments_per_child: event.max_appointments_per_child,
      booking_notifications: event.booking_notifications,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const sectionOf = new Map<number, number>();
  for (const section of sections) {
    const made = await trx
      .insertInto('sections')
      .values({
        school_id: sb,
        event_id: copy.id,
        date: section.date,
        start_time: section.start_time,
        end_time: section.end_time,
        starts_at: section.starts_at,
        ends_at: section.ends_at,
        location: section.location,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    sectionOf.set(section.id, made.id);
  }
  if (sectionTeachers.length > 0)
    await trx
      .insertInto('section_teachers')
      .values(
        sectionTeachers.map((row) => ({
          school_id: sb,
          section_id: sectionOf.get(row.section_id) ?? 0,
          teacher_id: teacherOf.get(row.teacher_id) ?? 0,
          location: row.location,
          unavailable: JSON.stringify(row.unavailable),
        })),
      )
      .execute();
  await inChunks(slots, (part) =>
    trx
      .insertInto('slots')
      .values(
        part.map((slot) => ({
          school_id: sb,
          event_id: copy.id,
          section_id: sectionOf.get(slot.section_id) ?? 0,
          teacher_id: slot.teacher_id === null ? null : (teacherOf.get(slot.teacher_id) ?? 0),
          starts_at: slot.starts_at,
          ends_at: slot.ends_at,
          capacity: slot.capacity,
          location: slot.location,
        })),
      )
      .execute(),
  );

  // The families: a parent and a child each.
  const families: Sandbox['families'] = [];
  const indexes = Array.from({ length: source.parents }, (_, i) => i);
  await inChunks(indexes, async (part) => {
    const people = (kind: 'parent' | 'child') =>
      part.map((i) => ({
        school_id: sb,
        email: address(kind, i, tag),
        first_name: kind === 'parent' ? 'Rehearsal parent' : 'Rehearsal child',
        last_name: String(i + 1),
      }));
    const parents = await trx
      .insertInto('users')
      .values(people('parent'))
      .returning(['id', 'email'])
      .execute();
    const children = await trx
      .insertInto('users')
      .values(people('child'))
      .returning(['id', 'email'])
      .execute();
    const parentIds = new Map(parents.map((row) => [row.email, row.id]));
    const childIds = new Map(children.map((row) => [row.email, row.id]));
    const pairs = part.map((i) => ({
      parentId: parentIds.get(address('parent', i, tag)) ?? 0,
      studentId: childIds.get(address('child', i, tag)) ?? 0,
    }));
    await trx
      .insertInto('user_roles')
      .values(
        pairs.flatMap((pair) => [
          { user_id: pair.parentId, school_id: sb, role: 'parent' as const },
          { user_id: pair.studentId, school_id: sb, role: 'student' as const },
        ]),
      )
      .execute();
    await trx
      .insertInto('parent_students')
      .values(pairs.map((pair) => ({ school_id: sb, parent_id: pair.parentId, student_id: pair.studentId })))
      .execute();
    families.push(...pairs);
  });

  const copied = await trx
    .selectFrom('slots')
    .select(['id', 'teacher_id', 'starts_at', 'ends_at', 'capacity'])
    .where('school_id', '=', sb)
    .where('event_id', '=', copy.id)
    .orderBy('id')
    .execute();
  return { schoolId: sb, eventId: copy.id, groupInt: event.group_int, slots: copied, families };
}

// ── the integrity check ──────────────────────────────────────────────────────────────────────────────

/**
 * What must never be found after the rush, read from the rows (not the constraints): slots over capacity,
 * slots whose count differs from their live bookings, and double bookings (a parent or child twice with a
 * teacher, or in two overlapping appointments).
 */
export async function integrityOf(db: Db, schoolId: number, eventId: number) {
  const party = sql`coalesce('p' || b.parent_id, 's' || b.student_id)`;
  const { rows } = await sql<{
    over_capacity: number;
    count_drift: number;
    same_teacher: number;
    overlaps: number;
    live: number;
  }>`
    with per_slot as (
      select sl.id, sl.capacity, sl.booked_count,
        case when t.group_int in (2, 3)
          then (select coalesce(sum(1 + b.guests), 0)::int from bookings b
                where b.slot_id = sl.id and b.school_id = sl.school_id and b.status = 'booked')
          else (select count(distinct ${party})::int from bookings b
                where b.slot_id = sl.id and b.school_id = sl.school_id and b.status = 'booked')
        end as taken
      from slots sl
      join events e on e.id = sl.event_id and e.school_id = sl.school_id
      join event_types t on t.id = e.event_type_id and t.school_id = e.school_id
      where sl.school_id = ${schoolId} and sl.event_id = ${eventId}
    ),
    live as (
      select * from bookings b where b.school_id = ${schoolId} and b.event_id = ${eventId} and b.status = 'booked'
    )
    select
      (select count(*)::int from per_slot where taken > capacity or booked_count > capacity) as over_capacity,
      (select count(*)::int from per_slot where taken <> booked_count) as count_drift,
      (select count(*)::int from (
        select parent_id, teacher_id from live where parent_id is not null and teacher_id is not null
        group by parent_id, teacher_id having count(distinct slot_id) > 1
        union all
        select student_id, teacher_id from live where student_id is not null and teacher_id is not null
        group by student_id, teacher_id having count(distinct slot_id) > 1
      ) x) as same_teacher,
      (select count(*)::int from live a join live b on b.id > a.id
        and tstzrange(b.starts_at, b.ends_at) && tstzrange(a.starts_at, a.ends_at)
        and ((a.parent_id = b.parent_id and a.slot_id is distinct from b.slot_id)
          or a.student_id = b.student_id)) as overlaps,
      (select count(*)::int from live) as live`.execute(db);
  const row = rows[0] ?? { over_capacity: 0, count_drift: 0, same_teacher: 0, overlaps: 0, live: 0 };
  return {
    overCapacity: row.over_capacity,
    countDrift: row.count_drift,
    doubleBookings: row.same_teacher + row.overlaps,
    bookingsInDatabase: row.live,
  };
}

// ── clean-up ─────────────────────────────────────────────────────────────────────────────────────────

/** Every table with a school's rows (found by their column, so a table added later is covered too). */
async function schoolTables(db: Db): Promise<string[]> {
  const { rows } = await sql<{ table_name: string }>`
    select c.table_name from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = 'public' and c.column_name = 'school_id' and t.table_type = 'BASE TABLE'
    order by c.table_name`.execute(db);
  return rows.map((row) => row.table_name);
}

/**
 * Removes a sandbox school and every row it holds (system scope). Tables are emptied in passes: a delete
 * that a foreign key still refuses waits for the next pass, after what points at its rows has gone.
 */
export async function deleteSandbox(db: Db, sandboxSchoolId: number): Promise<void> {
  const school = await db
    .selectFrom('schools')
    .select(['id', 'sandbox_of'])
    .where('id', '=', sandboxSchoolId)
    .executeTakeFirst();
  if (!school) return;
  // Never a real school, whatever the caller passed.
  if (school.sandbox_of === null) throw new Error(`school ${sandboxSchoolId} is not a sandbox`);
  let left = await schoolTables(db);
  for (let pass = 0; pass < 10 && left.length > 0; pass++) {
    const refused: string[] = [];
    for (const table of left) {
      try {
        await sql`delete from ${sql.table(table)} where school_id = ${sandboxSchoolId}`.execute(db);
      } catch (error) {
        if ((error as { code?: unknown }).code !== '23503') throw error;
        refused.push(table);
      }
    }
    left = refused;
  }
  if (left.length > 0) throw new Error(`sandbox ${sandboxSchoolId}: rows left in ${left.join(', ')}`);
  await db
    .deleteFrom('schools')
    .where('id', '=', sandboxSchoolId)
    .where('sandbox_of', 'is not', null)
    .execute();
}

/** Rows of a school in every school table (the tests' and the sweep's proof that nothing is left). */
export async function rowsOfSchool(db: Db, schoolId: number): Promise<number> {
  let total = 0;
  for (const table of await schoolTables(db)) {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from ${sql.table(table)} where school_id = ${schoolId}`.execute(db);
    total += rows[0]?.n ?? 0;
  }
  return total;
}
