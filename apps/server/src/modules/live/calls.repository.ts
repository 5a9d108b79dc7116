import { sql } from 'kysely';
import { CALL_CHANNEL, type Db } from '../../db/database';

// Video appointments (issue 41): the booking a call is for, and the call's signalling messages, each
// announced on parley_calls so that every process relays it to its own sockets in the call. SQL only here.

export type CallBooking = {
  id: number;
  school_id: number;
  status: string;
  starts_at: Date;
  ends_at: Date;
  teacher_id: number | null;
  parent_id: number | null;
  student_id: number | null;
  event_id: number;
  event_name: string;
  meeting_mode: 'in_person' | 'video';
  timezone: string;
  teacher_name: string | null;
  family_name: string | null;
  parent_name: string | null;
  student_name: string | null;
  /** The caller is an admin the teacher invited to help in this call. */
  admin_invited: boolean;
};

/**
 * A booking of the school with what its call needs: when, who, how the event is held, and whether the
 * caller was invited to help in it.
 */
export async function callBooking(
  db: Db,
  schoolId: number,
  bookingId: number,
  callerId: number,
): Promise<CallBooking | undefined> {
  const { rows } = await sql<CallBooking>`
    SELECT b.id, b.school_id, b.status, b.starts_at, b.ends_at, b.teacher_id, b.parent_id, b.student_id,
      e.id AS event_id, e.name AS event_name, e.meeting_mode, s.timezone,
      t.first_name || ' ' || t.last_name AS teacher_name,
      coalesce(p.first_name || ' ' || p.last_name, st.first_name || ' ' || st.last_name) AS family_name,
      p.first_name || ' ' || p.last_name AS parent_name,
      st.first_name || ' ' || st.last_name AS student_name,
      EXISTS (SELECT 1 FROM call_invitations ci WHERE ci.school_id = b.school_id AND ci.booking_id = b.id
        AND ci.admin_id = ${callerId}) AS admin_invited
    FROM bookings b
    JOIN events e ON e.id = b.event_id AND e.school_id = b.school_id
    JOIN schools s ON s.id = b.school_id
    LEFT JOIN users t ON t.id = b.teacher_id AND t.school_id = b.school_id
    LEFT JOIN users p ON p.id = b.parent_id AND p.school_id = b.school_id
    LEFT JOIN users st ON st.id = b.student_id AND st.school_id = b.school_id
    WHERE b.school_id = ${schoolId} AND b.id = ${bookingId}`.execute(db);
  return rows[0];
}

/** Saves one signalling message of the call and announces it in the same statement (at commit). */
export async function insertSignal(
  db: Db,
  schoolId: number,
  signal: { bookingId: number; fromUser: number; payload: unknown },
): Promise<number> {
  const { rows } = await sql<{ id: string }>`
    WITH saved AS (
      INSERT INTO call_signals (school_id, booking_id, from_user, payload)
      SELECT b.school_id, b.id, ${signal.fromUser}, ${JSON.stringify(signal.payload)}::jsonb
      FROM bookings b WHERE b.school_id = ${schoolId} AND b.id = ${signal.bookingId}
      RETURNING id
    )
    SELECT saved.id, pg_notify(${CALL_CHANNEL}, saved.id::text) FROM saved`.execute(db);
  const [row] = rows;
  if (!row) throw new Error('call_signals: the booking is not of this school');
  return Number(row.id);
}

/** The school's active admins (other than `exceptId`), whom a teacher may invite to help in a call. */
export async function callAdmins(
  db: Db,
  schoolId: number,
  exceptId: number,
): Promise<Array<{ id: number; name: string }>> {
  return db
    .selectFrom('user_roles as r')
    .innerJoin('users as u', (join) =>
      join.onRef('u.id', '=', 'r.user_id').onRef('u.school_id', '=', 'r.school_id'),
    )
    .select(['u.id', sql<string>`u.first_name || ' ' || u.last_name`.as('name')])
    .where('r.school_id', '=', schoolId)
    .where('r.role', '=', 'admin')
    .where('u.status', '=', 1)
    .where('u.id', '<>', exceptId)
    .orderBy('u.last_name')
    .orderBy('u.first_name')
    .orderBy('u.id')
    .execute();
}

/** The admins invited to help in a booking's call. */
export async function invitedAdmins(
  db: Db,
  schoolId: number,
  bookingId: number,
): Promise<Array<{ id: number; name: string }>> {
  return db
    .selectFrom('call_invitations as ci')
    .innerJoin('users as u', (join) =>
      join.onRef('u.id', '=', 'ci.admin_id').onRef('u.school_id', '=', 'ci.school_id'),
    )
    .select(['u.id', sql<string>`u.first_name || ' ' || u.last_name`.as('name')])
    .where('ci.school_id', '=', schoolId)
    .where('ci.booking_id', '=', bookingId)
    .orderBy('ci.id')
    .execute();
}

/**
 * Invites an active admin of the school (not the inviter) to help in the booking's call (once: again
 * changes nothing); the admin's name, or undefined when `adminId` is no such admin.
 */
export async function inviteAdmin(
  db: Db,
  schoolId: number,
  invitation: { bookingId: number; adminId: number; invitedBy: number },
): Promise<{ name: string } | undefined> {
  const { rows } = await sql<{ name: string }>`
    WITH admin AS (
      SELECT u.id, u.first_name || ' ' || u.last_name AS name FROM users u
      JOIN user_roles r ON r.user_id = u.id AND r.school_id = u.school_id AND r.role = 'admin'
      WHERE u.school_id = ${schoolId} AND u.id = ${invitation.adminId} AND u.id <> ${invitation.invitedBy}
        AND u.status = 1
    ), saved AS (
      INSERT INTO call_invitations (school_id, booking_id, admin_id, invited_by)
      SELECT b.school_id, b.id, admin.id, ${invitation.invitedBy}
      FROM bookings b, admin WHERE b.school_id = ${schoolId} AND b.id = ${invitation.bookingId}
      ON CONFLICT (booking_id, admin_id) DO NOTHING
      RETURNING admin_id
    )
    SELECT name FROM admin`.execute(db);
  return rows[0];
}

export type NextCall = {
  id: number;
  starts_at: Date;
  family_name: string | null;
  student_name: string | null;
  waiting: boolean;
};

/**
 * The teacher's next appointment at the event after this one, and whether its family is in the call
 * already (the last "joined" or "left" of someone other than the teacher).
 */
export async function nextCall(
  db: Db,
  schoolId: number,
  booking: { event_id: number; teacher_id: number; starts_at: Date },
): Promise<NextCall | undefined> {
  const { rows } = await sql<NextCall>`
    SELECT b.id, b.starts_at,
      coalesce(p.first_name || ' ' || p.last_name, st.first_name || ' ' || st.last_name) AS family_name,
      st.first_name || ' ' || st.last_name AS student_name,
      coalesce((
        SELECT cs.payload->>'kind' = 'joined' FROM call_signals cs
        WHERE cs.school_id = b.school_id AND cs.booking_id = b.id AND cs.from_user <> b.teacher_id
          AND cs.payload->>'kind' IN ('joined', 'left')
        ORDER BY cs.id DESC LIMIT 1
      ), false) AS waiting
    FROM bookings b
    LEFT JOIN users p ON p.id = b.parent_id AND p.school_id = b.school_id
    LEFT JOIN users st ON st.id = b.student_id AND st.school_id = b.school_id
    WHERE b.school_id = ${schoolId} AND b.event_id = ${booking.event_id}
      AND b.teacher_id = ${booking.teacher_id} AND b.status = 'booked' AND b.starts_at > ${booking.starts_at}
    ORDER BY b.starts_at, b.id
    LIMIT 1`.execute(db);
  return rows[0];
}

/**
 * On a video evening the timing follows the calls: the end of another of the teacher's appointments at the
 * event whose call the teacher is in now (their last "joined" there, not yet "left"), if it has not ended.
 */
export async function teacherBusyUntil(
  db: Db,
  schoolId: number,
  booking: { id: number; event_id: number; teacher_id: number },
  now: Date,
): Promise<Date | null> {
  const { rows } = await sql<{ ends_at: Date }>`
    SELECT b.ends_at FROM bookings b
    WHERE b.school_id = ${schoolId} AND b.event_id = ${booking.event_id} AND b.teacher_id = ${booking.teacher_id}
      AND b.id <> ${booking.id} AND b.status = 'booked' AND b.ends_at > ${now}
      AND (
        SELECT cs.payload->>'kind' FROM call_signals cs
        WHERE cs.school_id = b.school_id AND cs.booking_id = b.id AND cs.from_user = b.teacher_id
          AND cs.payload->>'kind' IN ('joined', 'left')
        ORDER BY cs.id DESC LIMIT 1
      ) = 'joined'
    ORDER BY b.starts_at
    LIMIT 1`.execute(db);
  return rows[0]?.ends_at ?? null;
}

export type CallSignal = {
  booking_id: number;
  from_user: number;
  payload: unknown;
  teacher_id: number | null;
};

/** One announced message (system scope: the live channel hears every school's), by its id. */
export async function signalById(db: Db, id: number): Promise<CallSignal | undefined> {
  return db
    .selectFrom('call_signals')
    .innerJoin('bookings', 'bookings.id', 'call_signals.booking_id')
    .select([
      'call_signals.booking_id',
      'call_signals.from_user',
      'call_signals.payload',
      'bookings.teacher_id',
    ])
    .where('call_signals.id', '=', String(id))
    .executeTakeFirst();
}

/** Forgets the signalling of calls long over (system scope: the push worker's sweep). */
export async function deleteSignalsBefore(db: Db, before: Date): Promise<number> {
  const result = await db.deleteFrom('call_signals').where('created_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
