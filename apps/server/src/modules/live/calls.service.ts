import type { CallInfo, CallInviteRequest } from '@parley/domain/live-schemas';
import type { Role } from '@parley/domain/roles';
import { callPath } from '@parley/domain/routes';
import { formatLocalTime } from '@parley/domain/time-zone';
import { CALL_TEXT, callInvitePush, callOpensAt, callRefusal } from '@parley/domain/video-calls';
import type { AppContext } from '../../context';
import type { Db } from '../../db/database';
import { asSystem } from '../../db/scope';
import { conflict, forbidden, notFound, unprocessable } from '../../lib/http-error';
import { enqueuePush } from '../../push/push.repository';
import * as repo from './calls.repository';
import { iceServersFor } from './ice-servers';

// Video appointments (issue 41): who may join a booking's call, and when. Only the booking's teacher, the
// family who booked (the parent, or the student booking for themselves), the child it is for, and the
// school's admins; anyone else is told the appointment does not exist. The call is open from a few minutes
// before the start until the end, and only for a live booking of an event held by video.

export type Caller = { userId: number; schoolId: number; roles: readonly Role[] };
type Part = CallInfo['role'];

function partOf(booking: repo.CallBooking, caller: Caller): Part | null {
  if (booking.teacher_id === caller.userId) return 'teacher';
  if (booking.parent_id === caller.userId || booking.student_id === caller.userId) return 'family';
  // An admin only when the teacher invited them to help in this call.
  return booking.admin_invited && caller.roles.includes('admin') ? 'admin' : null;
}

/** The booking and the caller's part in its call, or why not (404, 409). */
async function authorise(ctx: AppContext, caller: Caller, bookingId: number, now: Date) {
  const booking = await repo.callBooking(ctx.db, caller.schoolId, bookingId, caller.userId);
  const part = booking ? partOf(booking, caller) : null;
  if (!booking || !part) throw notFound(CALL_TEXT.notFound);
  if (booking.status !== 'booked') throw conflict(CALL_TEXT.cancelled);
  if (booking.meeting_mode !== 'video') throw conflict(CALL_TEXT.notVideo);
  const refusal = callRefusal(booking.starts_at, booking.ends_at, now, booking.timezone);
  if (refusal) throw conflict(refusal);
  return { booking, part };
}

/** GET calls/join?bookingId: the call as the caller joins it, with its STUN and TURN servers. */
export async function callFor(
  ctx: AppContext,
  caller: Caller,
  bookingId: number,
  now = new Date(),
): Promise<CallInfo> {
  const { booking, part } = await authorise(ctx, caller, bookingId, now);
  const teacherId = booking.teacher_id;
  const withTeacher = teacherId === null ? null : { ...booking, teacher_id: teacherId };
  const [invited, admins, next, busyUntil] = await Promise.all([
    repo.invitedAdmins(ctx.db, caller.schoolId, booking.id),
    part === 'teacher' ? repo.callAdmins(ctx.db, caller.schoolId, caller.userId) : [],
    part === 'teacher' && withTeacher ? repo.nextCall(ctx.db, caller.schoolId, withTeacher) : undefined,
    part !== 'teacher' && withTeacher
      ? repo.teacherBusyUntil(ctx.db, caller.schoolId, withTeacher, now)
      : null,
  ]);
  const participants = [
    { userId: booking.teacher_id, name: booking.teacher_name },
    { userId: booking.parent_id, name: booking.parent_name },
    { userId: booking.student_id, name: booking.student_name },
    ...invited.map((admin) => ({ userId: admin.id, name: admin.name })),
  ].flatMap(({ userId, name }) => (userId === null ? [] : [{ userId, name: name ?? '' }]));
  return {
    bookingId: booking.id,
    eventId: booking.event_id,
    eventName: booking.event_name,
    role: part,
    userId: caller.userId,
    participants,
    admins: admins.map((admin) => ({ userId: admin.id, name: admin.name })),
    teacherName: booking.teacher_name ?? '',
    familyName: booking.family_name ?? '',
    studentName: booking.student_name,
    startsAt: booking.starts_at.toISOString(),
    endsAt: booking.ends_at.toISOString(),
    opensAt: callOpensAt(booking.starts_at).toISOString(),
    time: formatLocalTime(booking.starts_at, booking.timezone),
    endTime: formatLocalTime(booking.ends_at, booking.timezone),
    // As the answer leaves, after the reads: the page's reading of the server's clock is off by the trip back.
    serverNow: new Date().toISOString(),
    iceServers: iceServersFor(ctx.config, caller.userId, booking.ends_at),
    teacherBusyUntil: busyUntil ? formatLocalTime(busyUntil, booking.timezone) : null,
    next: next
      ? {
          bookingId: next.id,
          familyName: next.family_name ?? '',
          studentName: next.student_name,
          time: formatLocalTime(next.starts_at, booking.timezone),
          waiting: next.waiting,
        }
      : null,
  };
}

/**
 * POST calls/invite: the appointment's teacher invites an admin of the school to help; the admin is told
 * by push, with the call's address. Only while the call could be joined.
 */
export async function inviteToCall(
  ctx: AppContext,
  caller: Caller,
  request: CallInviteRequest,
  now = new Date(),
): Promise<{ message: string }> {
  const { booking, part } = await authorise(ctx, caller, request.bookingId, now);
  if (part !== 'teacher') throw forbidden(CALL_TEXT.onlyTeacherInvites);
  const admin = await ctx.db.transaction().execute(async (trx) => {
    const invited = await repo.inviteAdmin(trx, caller.schoolId, {
      bookingId: booking.id,
      adminId: request.adminId,
      invitedBy: caller.userId,
    });
    if (!invited) throw unprocessable(CALL_TEXT.notAnAdmin, { adminId: [CALL_TEXT.notAnAdmin] });
    const words = callInvitePush(
      booking.teacher_name ?? '',
      formatLocalTime(booking.starts_at, booking.timezone),
      booking.family_name ?? '',
    );
    await enqueuePush(trx, caller.schoolId, {
      userIds: [request.adminId],
      payload: { action: 'booking', ...words, url: callPath(booking.id) },
      ttlSeconds: 3_600,
      urgency: 'high',
    });
    return invited;
  });
  return { message: CALL_TEXT.invited(admin.name) };
}

/** A socket asks to join the call: its end, or the reason it may not. */
export async function joinCall(
  ctx: AppContext,
  caller: Caller,
  bookingId: number,
  now = new Date(),
): Promise<{ endsAt: Date } | { refused: string }> {
  try {
    const { booking } = await authorise(ctx, caller, bookingId, now);
    await saveSignal(ctx, caller, bookingId, { kind: 'joined' });
    return { endsAt: booking.ends_at };
  } catch (error) {
    if (error instanceof Error && 'statusCode' in error) return { refused: error.message };
    throw error;
  }
}

/** One message of the call (joined, left, an offer, an answer, a candidate) for the others in it. */
export async function saveSignal(
  ctx: AppContext,
  caller: Caller,
  bookingId: number,
  payload: { kind: 'joined' | 'left' } | { kind: 'signal'; data: unknown },
): Promise<void> {
  const id = await repo.insertSignal(ctx.db, caller.schoolId, {
    bookingId,
    fromUser: caller.userId,
    payload,
  });
  ctx.live.signalSaved(id);
}

/** A call's signalling is kept this long: its setup, useless once the appointment is long over. */
const SIGNALS_KEPT_MS = 2 * 3_600_000;

/** The push worker's sweep: forgets the signalling of calls long over. */
export function forgetOldSignals(db: Db, now: Date): Promise<number> {
  return asSystem(() => repo.deleteSignalsBefore(db, new Date(now.getTime() - SIGNALS_KEPT_MS)));
}
