import { EVENT_STATUS } from '@parley/domain/events';
import { LATE_MINUTES_MAX } from '@parley/domain/live-timing';
import { sql } from 'kysely';
import { type Db, TIMING_CHANNEL } from '../../db/database';

// Live timing (issue 41): a teacher's lateness at an event, who is still to see them, and "you're next".
// SQL only here.

/**
 * Saves the teacher's lateness at the event and announces it on parley_timing in the same statement, so
 * the announcement goes at commit with the row. Returns the row's id and the lateness it had before.
 */
export async function saveTiming(
  db: Db,
  schoolId: number,
  timing: { eventId: number; teacherId: number; minutes: number; byUserId: number },
): Promise<{ id: number; before: number }> {
  const { rows } = await sql<{ id: number; before: number }>`
    WITH before AS (
      SELECT late_minutes FROM teacher_timings
      WHERE school_id = ${schoolId} AND event_id = ${timing.eventId} AND teacher_id = ${timing.teacherId}
    ), saved AS (
      INSERT INTO teacher_timings (school_id, event_id, teacher_id, late_minutes, updated_by)
      VALUES (${schoolId}, ${timing.eventId}, ${timing.teacherId}, ${timing.minutes}, ${timing.byUserId})
      ON CONFLICT (school_id, event_id, teacher_id) DO UPDATE
        SET late_minutes = excluded.late_minutes, updated_at = now(), updated_by = excluded.updated_by
      RETURNING id
    )
    SELECT saved.id, coalesce((SELECT late_minutes FROM before), 0) AS before,
      pg_notify(${TIMING_CHANNEL}, saved.id::text)
    FROM saved`.execute(db);
  const [row] = rows;
  if (!row) throw new Error('teacher_timings: the upsert returned no row');
  return { id: row.id, before: row.before };
}

/** Whether the teacher has slots at the event (only they have a timing there). */
export async function teachesAt(
  db: Db,
  schoolId: number,
  eventId: number,
  teacherId: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('slots')
    .select('id')
    .where('school_id', '=', schoolId)
    .where('event_id', '=', eventId)
    .where('teacher_id', '=', teacherId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The teachers' lateness at an event (those never marked are on time). */
export async function timingsAt(
  db: Db,
  schoolId: number,
  eventId: number,
  teacherIds: number[],
): Promise<Array<{ teacher_id: number; late_minutes: number }>> {
  if (teacherIds.length === 0) return [];
  return db
    .selectFrom('teacher_timings')
    .select(['teacher_id', 'late_minutes'])
    .where('school_id', '=', schoolId)
    .where('event_id', '=', eventId)
    .where('teacher_id', 'in', teacherIds)
    .where('late_minutes', '>', 0)
    .execute();
}

export type StillToSee = {
  booking_id: number;
  /** Whoever booked: the parent, or the student booking for themselves. */
  family_id: number;
  student_id: number | null;
  starts_at: Date;
};

/** The live bookings with the teacher at the event that have not ended at `now`, in time order. */
export async function stillToSee(
  db: Db,
  schoolId: number,
  eventId: number,
  teacherId: number,
  now: Date,
): Promise<StillToSee[]> {
  const { rows } = await sql<StillToSee>`
    SELECT b.id AS booking_id, coalesce(b.parent_id, b.student_id) AS family_id, b.student_id, b.starts_at
    FROM bookings b
    WHERE b.school_id = ${schoolId} AND b.event_id = ${eventId} AND b.teacher_id = ${teacherId}
      AND b.status = 'booked' AND b.ends_at > ${now}
      AND coalesce(b.parent_id, b.student_id) IS NOT NULL
    ORDER BY b.starts_at, b.id`.execute(db);
  return rows;
}

export type LateAppointment = {
  event_id: number;
  teacher_name: string;
  late_minutes: number;
  starts_at: Date;
  timezone: string;
};

/**
 * The user's live appointments not yet ended whose teacher runs late, as the parent who booked them or as
 * the student they are for (Home).
 */
export async function lateAppointments(
  db: Db,
  schoolId: number,
  userId: number,
  role: 'parent' | 'student',
  now: Date,
): Promise<LateAppointment[]> {
  const { rows } = await sql<LateAppointment>`
    SELECT b.event_id, t.first_name || ' ' || t.last_name AS teacher_name, tt.late_minutes, b.starts_at,
      s.timezone
    FROM bookings b
    JOIN teacher_timings tt ON tt.school_id = b.school_id AND tt.event_id = b.event_id
      AND tt.teacher_id = b.teacher_id AND tt.late_minutes > 0
    JOIN users t ON t.id = b.teacher_id AND t.school_id = b.school_id
    JOIN schools s ON s.id = b.school_id
    WHERE b.school_id = ${schoolId} AND b.status = 'booked' AND b.ends_at > ${now}
      AND ${role === 'parent' ? sql`b.parent_id` : sql`b.student_id`} = ${userId}
    ORDER BY b.starts_at, b.id`.execute(db);
  return rows;
}

/**
 * Who is told at once of a saved lateness (system scope: the live channel hears every school's): the
 * families still to see the teacher, the students they booked for, and the teacher.
 */
export async function timingAudience(
  db: Db,
  timingId: number,
  now: Date,
): Promise<{ event_id: number; user_ids: number[] } | undefined> {
  const { rows } = await sql<{ event_id: number; user_ids: number[] }>`
    SELECT tt.event_id, array(
      SELECT DISTINCT u FROM bookings b
      CROSS JOIN LATERAL (VALUES (b.parent_id), (b.student_id)) AS p (u)
      WHERE b.school_id = tt.school_id AND b.event_id = tt.event_id AND b.teacher_id = tt.teacher_id
        AND b.status = 'booked' AND b.ends_at > ${now} AND p.u IS NOT NULL
      UNION SELECT tt.teacher_id
    ) AS user_ids
    FROM teacher_timings tt WHERE tt.id = ${timingId}`.execute(db);
  return rows[0];
}

export type NextUp = {
  booking_id: number;
  school_id: number;
  family_id: number;
  student_id: number | null;
  event_name: string;
  group_int: number;
  code: string;
  teacher_name: string;
  timezone: string;
  expected_at: Date;
};

/**
 * Claims, in the caller's transaction (system scope), up to `limit` appointments of enabled parent-teacher
 * events expected within `withinMinutes` of `now` (their start plus their teacher's lateness) and not yet
 * begun, each once across processes (the primary key of next_up_notices).
 */
export async function claimNextUp(
  db: Db,
  now: Date,
  withinMinutes: number,
  limit: number,
): Promise<NextUp[]> {
  const { rows } = await sql<NextUp>`
    WITH due AS (
      SELECT b.id AS booking_id, b.school_id, coalesce(b.parent_id, b.student_id) AS family_id,
        b.student_id, e.name AS event_name, et.group_int, e.code, t.first_name || ' ' || t.last_name AS teacher_name,
        s.timezone, b.starts_at + make_interval(mins => coalesce(tt.late_minutes, 0)) AS expected_at
      FROM bookings b
      JOIN events e ON e.id = b.event_id AND e.school_id = b.school_id AND e.status = ${EVENT_STATUS.enabled}
      JOIN event_types et ON et.id = e.event_type_id AND et.school_id = e.school_id AND et.group_int = 1
      JOIN users t ON t.id = b.teacher_id AND t.school_id = b.school_id
      JOIN schools s ON s.id = b.school_id
      LEFT JOIN teacher_timings tt ON tt.school_id = b.school_id AND tt.event_id = b.event_id
        AND tt.teacher_id = b.teacher_id
      WHERE b.status = 'booked'
        AND b.starts_at < ${now}::timestamptz + make_interval(mins => ${withinMinutes + LATE_MINUTES_MAX})
        AND b.starts_at > ${now}::timestamptz - make_interval(mins => ${LATE_MINUTES_MAX})
        AND coalesce(b.parent_id, b.student_id) IS NOT NULL
        AND NOT EXISTS (SELECT FROM next_up_notices n WHERE n.booking_id = b.id)
    ), claimed AS (
      INSERT INTO next_up_notices (booking_id, school_id)
      SELECT booking_id, school_id FROM due
      WHERE expected_at > ${now} AND expected_at <= ${now}::timestamptz + make_interval(mins => ${withinMinutes})
      ORDER BY expected_at LIMIT ${limit}
      ON CONFLICT DO NOTHING
      RETURNING booking_id
    )
    SELECT due.* FROM due JOIN claimed USING (booking_id) ORDER BY due.expected_at`.execute(db);
  return rows;
}
