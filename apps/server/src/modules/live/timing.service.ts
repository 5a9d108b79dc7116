import { EVENT_TEXT } from '@parley/domain/events';
import type { BookingLateNote, LateNote, RunningLateRequest } from '@parley/domain/live-schemas';
import {
  expectedStart,
  LIVE_TIMING_TEXT,
  lateLine,
  latePush,
  NEXT_UP_MINUTES,
  nextUpPush,
} from '@parley/domain/live-timing';
import type { Role } from '@parley/domain/roles';
import { formatLocalTime } from '@parley/domain/time-zone';
import type { AppContext } from '../../context';
import type { Db } from '../../db/database';
import { asSystem } from '../../db/scope';
import { forbidden, notFound, unprocessable } from '../../lib/http-error';
import { enqueuePush } from '../../push/push.repository';
import { findEventById, findScheduleTeacher } from '../booking/booking.repository';
import * as repo from './timing.repository';

// Live timing on the night (issue 41): a teacher's "running N minutes late", told to each family still to
// see them (a push, and their open pages through the live channel), and "you're next" before each
// appointment. Pushes follow each person's push setting for their bookings.

const HOUR = 3_600;

/** POST events/running-late: the teacher's own lateness at an event, or (an admin) any teacher's there. */
export async function markRunningLate(
  ctx: AppContext,
  session: { userId: number; schoolId: number; roles: Role[] },
  request: RunningLateRequest,
): Promise<{ message: string; lateMinutes: number }> {
  const teacherId = request.teacherId ?? session.userId;
  if (teacherId !== session.userId && !session.roles.includes('admin'))
    throw forbidden('Only admins can say that another teacher is running late.');
  const event = await findEventById(ctx.db, session.schoolId, request.eventId);
  if (!event) throw notFound(EVENT_TEXT.notFound);
  const { schoolId } = session;
  const saved = await ctx.db.transaction().execute(async (trx) => {
    if (!(await repo.teachesAt(trx, schoolId, event.id, teacherId)))
      throw unprocessable(LIVE_TIMING_TEXT.notInEvent, { teacherId: [LIVE_TIMING_TEXT.notInEvent] });
    const timing = await repo.saveTiming(trx, schoolId, {
      eventId: event.id,
      teacherId,
      minutes: request.minutes,
      byUserId: session.userId,
    });
    if (timing.before !== request.minutes)
      await pushLateness(trx, schoolId, event, teacherId, request.minutes);
    return timing;
  });
  ctx.live.saved(saved.id);
  return { message: LIVE_TIMING_TEXT.saved(request.minutes), lateMinutes: request.minutes };
}

/** Each family still to see the teacher (and the child booked for) is told their new expected time. */
async function pushLateness(
  trx: Db,
  schoolId: number,
  event: { id: number; name: string; timezone: string },
  teacherId: number,
  minutes: number,
): Promise<void> {
  const teacher = await findScheduleTeacher(trx, schoolId, teacherId);
  const teacherName = teacher ? `${teacher.first_name} ${teacher.last_name}` : 'Your teacher';
  const bookings = await repo.stillToSee(trx, schoolId, event.id, teacherId, new Date());
  for (const booking of bookings) {
    const words = latePush(event.name, teacherName, minutes, booking.starts_at, event.timezone);
    await enqueuePush(trx, schoolId, {
      userIds: [booking.family_id, ...(booking.student_id === null ? [] : [booking.student_id])],
      payload: { action: 'booking', ...words, url: '/home' },
      ttlSeconds: HOUR,
      urgency: 'high',
      setting: { key: 'bookings', want: true },
    });
  }
}

/** The booking page: the viewer's live bookings whose teacher runs late, each with its expected time. */
export async function lateNotesFor(
  db: Db,
  event: { id: number; school_id: number; timezone: string },
  bookings: ReadonlyArray<{ id: number; teacherId: number | null; startsAt: string; status: string }>,
): Promise<BookingLateNote[]> {
  const live = bookings.filter((booking) => booking.status === 'booked');
  const teachers = [...new Set(live.flatMap((b) => (b.teacherId === null ? [] : [b.teacherId])))];
  if (teachers.length === 0) return [];
  const rows = await repo.timingsAt(db, event.school_id, event.id, teachers);
  const timings = rows.map((row) => ({ teacherId: row.teacher_id, lateMinutes: row.late_minutes }));
  return live.flatMap((booking) => {
    const text = lateLine(booking, timings, event.timezone);
    const lateMinutes = timings.find((t) => t.teacherId === booking.teacherId)?.lateMinutes ?? 0;
    return text ? [{ bookingId: booking.id, lateMinutes, text }] : [];
  });
}

/** The teacher's own lateness at the event (their schedule). */
export async function lateMinutesOf(
  db: Db,
  schoolId: number,
  eventId: number,
  teacherId: number,
): Promise<number> {
  const [row] = await repo.timingsAt(db, schoolId, eventId, [teacherId]);
  return row?.late_minutes ?? 0;
}

/** Home: per event, the user's appointments not yet over whose teacher runs late. */
export async function lateNotesByEvent(
  db: Db,
  schoolId: number,
  userId: number,
  role: 'parent' | 'student',
  now: Date,
): Promise<Map<number, LateNote[]>> {
  const rows = await repo.lateAppointments(db, schoolId, userId, role, now);
  const notes = new Map<number, LateNote[]>();
  for (const row of rows) {
    const time = formatLocalTime(row.starts_at, row.timezone);
    const expectedTime = formatLocalTime(expectedStart(row.starts_at, row.late_minutes), row.timezone);
    const note: LateNote = {
      teacherName: row.teacher_name,
      lateMinutes: row.late_minutes,
      time,
      expectedTime,
      text: LIVE_TIMING_TEXT.homeLine(row.teacher_name, row.late_minutes, time, expectedTime),
    };
    notes.set(row.event_id, [...(notes.get(row.event_id) ?? []), note]);
  }
  return notes;
}

/**
 * The sweep of the push worker: "you're next" to each family whose appointment is expected within
 * NEXT_UP_MINUTES, once per booking across processes (claimed in the transaction that queues the push).
 * Returns how many were queued.
 */
export async function queueNextUpNotices(db: Db, now: Date, batch = 200): Promise<number> {
  let total = 0;
  for (;;) {
    const queued = await asSystem(() =>
      db.transaction().execute(async (trx) => {
        const due = await repo.claimNextUp(trx, now, NEXT_UP_MINUTES, batch);
        for (const item of due)
          await enqueuePush(trx, item.school_id, {
            userIds: [item.family_id, ...(item.student_id === null ? [] : [item.student_id])],
            payload: {
              action: 'booking',
              ...nextUpPush(item.event_name, item.teacher_name, item.expected_at, item.timezone),
              url: '/home',
            },
            ttlSeconds: NEXT_UP_MINUTES * 60,
            urgency: 'high',
            setting: { key: 'bookings', want: true },
          });
        return due.length;
      }),
    );
    total += queued;
    if (queued < batch) return total;
  }
}
