import { EVENT_STATUS } from '@parley/domain/events';
import { sql } from 'kysely';
import type { Db } from '../../db/database';

// The day-before reminder (issue 40): who is due one, claimed once, and what their next day holds. SQL only
// here. Both run in the system scope (the push worker's sweep), across schools, each in its own zone.

export type ClaimedReminder = { school_id: number; user_id: number; day: string };

/**
 * Claims, in the caller's transaction, up to `limit` people due their reminder at `now`: in a school whose
 * local time has passed its reminder time, everyone with a live booking (an appointment, or a ticketed
 * place) of an enabled event with reminders on, starting on the school's next local day, booked before
 * today's reminder time, and not yet reminded of that day. The primary key makes each claim once across
 * processes; a process that stops before its transaction commits leaves the claim to the next sweep.
 * Booked after the reminder time (the family has just booked), nothing more is sent.
 */
export async function claimDayBeforeReminders(db: Db, now: Date, limit: number): Promise<ClaimedReminder[]> {
  const { rows } = await sql<ClaimedReminder>`
    WITH due AS (
      SELECT s.id AS school_id, s.timezone,
        (${now}::timestamptz AT TIME ZONE s.timezone)::date + 1 AS day,
        ((${now}::timestamptz AT TIME ZONE s.timezone)::date + s.reminder_time) AT TIME ZONE s.timezone AS due_at
      FROM schools s
      WHERE (${now}::timestamptz AT TIME ZONE s.timezone)::time >= s.reminder_time
        AND s.sandbox_of IS NULL
    ), people AS (
      SELECT DISTINCT d.school_id, p.user_id, d.day
      FROM due d
      JOIN bookings b ON b.school_id = d.school_id
      JOIN events e ON e.id = b.event_id AND e.school_id = b.school_id
      CROSS JOIN LATERAL (VALUES (coalesce(b.parent_id, b.student_id)), (b.teacher_id)) AS p (user_id)
      WHERE b.status = 'booked'
        AND e.status = ${EVENT_STATUS.enabled}
        AND e.day_before_reminder
        AND b.starts_at >= d.day::timestamp AT TIME ZONE d.timezone
        AND b.starts_at < (d.day + 1)::timestamp AT TIME ZONE d.timezone
        AND b.created_at < d.due_at
        AND p.user_id IS NOT NULL
        AND NOT EXISTS (
          SELECT FROM day_before_reminders r
          WHERE r.school_id = d.school_id AND r.user_id = p.user_id AND r.day = d.day
        )
      LIMIT ${limit}
    )
    INSERT INTO day_before_reminders (school_id, user_id, day)
    SELECT school_id, user_id, day FROM people
    ON CONFLICT DO NOTHING
    RETURNING school_id, user_id, to_char(day, 'YYYY-MM-DD') AS day`.execute(db);
  return rows;
}

export type ReminderAppointment = {
  school_id: number;
  user_id: number;
  email: string;
  first_name: string;
  /** The person's settings (whether they want reminder mails: notifications.eventReminders). */
  settings: Record<string, Record<string, unknown>> | null;
  has_password: boolean;
  school_name: string;
  timezone: string;
  event_id: number;
  event_name: string;
  group_int: number;
  code: string;
  starts_at: Date;
  ends_at: Date;
  location: string | null;
  /** The person is the teacher of this appointment (else its family). */
  as_teacher: boolean;
  teacher_name: string | null;
  student_name: string | null;
  guests: number;
};

/** The live bookings of each claimed person on their day, in time order (the same rules as the claim). */
export async function reminderAppointments(
  db: Db,
  claimed: ClaimedReminder[],
): Promise<ReminderAppointment[]> {
  if (claimed.length === 0) return [];
  const { rows } = await sql<ReminderAppointment>`
    SELECT c.school_id, c.user_id, u.email, u.first_name, u.settings, u.password_hash IS NOT NULL AS has_password,
      s.name AS school_name, s.timezone, e.id AS event_id, e.name AS event_name, t.group_int, e.code,
      b.starts_at, b.ends_at, coalesce(sl.location, se.location) AS location, b.teacher_id = c.user_id AS as_teacher,
      nullif(concat_ws(' ', tu.title, tu.first_name, tu.last_name), '') AS teacher_name,
      nullif(concat_ws(' ', su.first_name, su.last_name), '') AS student_name,
      b.guests
    FROM unnest(${claimed.map((c) => c.school_id)}::int[], ${claimed.map((c) => c.user_id)}::int[],
      ${claimed.map((c) => c.day)}::date[]) AS c (school_id, user_id, day)
    JOIN schools s ON s.id = c.school_id
    JOIN users u ON u.id = c.user_id AND u.school_id = c.school_id
    JOIN bookings b ON b.school_id = c.school_id
      AND b.status = 'booked'
      AND (b.teacher_id = c.user_id OR coalesce(b.parent_id, b.student_id) = c.user_id)
      AND b.starts_at >= c.day::timestamp AT TIME ZONE s.timezone
      AND b.starts_at < (c.day + 1)::timestamp AT TIME ZONE s.timezone
    JOIN events e ON e.id = b.event_id AND e.school_id = b.school_id
      AND e.status = ${EVENT_STATUS.enabled} AND e.day_before_reminder
    JOIN event_types t ON t.id = e.event_type_id AND t.school_id = e.school_id
    LEFT JOIN slots sl ON sl.id = b.slot_id AND sl.school_id = b.school_id
    LEFT JOIN sections se ON se.id = sl.section_id AND se.school_id = sl.school_id
    LEFT JOIN users tu ON tu.id = b.teacher_id AND tu.school_id = b.school_id
    LEFT JOIN users su ON su.id = b.student_id AND su.school_id = b.school_id
    ORDER BY c.school_id, c.user_id, b.starts_at, b.id`.execute(db);
  return rows;
}
