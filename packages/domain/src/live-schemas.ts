import { idField } from './fields';
import { LATE_MINUTES_MAX } from './live-timing';
import { z } from './zod';

// The wire contract of live timing (issue 41): its call, what the pages receive, and the live channel's
// hello. The texts and rules are in live-timing.ts, which pages import without zod.

/** POST events/running-late: the teacher's own (or, for an admin, teacherId's) lateness at an event. */
export const runningLateRequest = z.strictObject({
  eventId: idField,
  teacherId: idField.optional(),
  minutes: z.number().int().min(0).max(LATE_MINUTES_MAX),
});
export type RunningLateRequest = z.infer<typeof runningLateRequest>;

/** One of the viewer's bookings whose teacher runs late (the booking page): its line, in the school's zone. */
export const bookingLateNote = z.object({
  bookingId: z.number(),
  lateMinutes: z.number(),
  /** "Running 10 minutes late: expected at 16:10" (LIVE_TIMING_TEXT.runningLate). */
  text: z.string(),
});
export type BookingLateNote = z.infer<typeof bookingLateNote>;

export const runningLateResponse = z.object({ message: z.string(), lateMinutes: z.number() });
export type RunningLateResult = z.infer<typeof runningLateResponse>;

/** One of a family's appointments whose teacher runs late (Home). */
export const lateNote = z.object({
  teacherName: z.string(),
  lateMinutes: z.number(),
  /** "17:20", the booked time, and "17:30", when it is now expected (school's zone). */
  time: z.string(),
  expectedTime: z.string(),
  /** The line Home shows (LIVE_TIMING_TEXT.homeLine). */
  text: z.string(),
});
export type LateNote = z.infer<typeof lateNote>;

/** The client's first message: its session, or the personal link of an invitation mail. */
export const liveHello = z.union([
  z.strictObject({ type: z.literal('hello'), token: z.string().min(1).max(200) }),
  z.strictObject({ type: z.literal('hello'), link: z.string().min(1).max(200) }),
]);
export type LiveHello = z.infer<typeof liveHello>;

// ── video appointments (issue 41) ────────────────────────────────────────────────────────────────────

/** GET calls/join?bookingId: whether and how the caller may join a video appointment's call. */
export const callQuery = z.strictObject({ bookingId: z.coerce.number().int().positive().max(2_147_483_647) });

export const iceServer = z.object({
  urls: z.array(z.string()),
  username: z.string().optional(),
  credential: z.string().optional(),
});
export type IceServer = z.infer<typeof iceServer>;

export const callResponse = z.object({
  bookingId: z.number(),
  eventId: z.number(),
  eventName: z.string(),
  /** How the caller takes part: the appointment's teacher, its family, or an admin helping. */
  role: z.enum(['teacher', 'family', 'admin']),
  /** The caller, as the others in the call know them (the live channel's `from`). */
  userId: z.number(),
  /** Who may be in the call (admins invited to help included), to name the others' pictures. */
  participants: z.array(z.object({ userId: z.number(), name: z.string() })),
  /** For the teacher: the school's admins they may invite to help. */
  admins: z.array(z.object({ userId: z.number(), name: z.string() })),
  teacherName: z.string(),
  familyName: z.string(),
  studentName: z.string().nullable(),
  startsAt: z.string(),
  endsAt: z.string(),
  /** The call opens (a few minutes before the start) and closes (the end) at these instants. */
  opensAt: z.string(),
  /** "16:00" and "16:10" in the school's zone. */
  time: z.string(),
  endTime: z.string(),
  /** The server's clock when it answered, so the page counts down on it rather than the device's. */
  serverNow: z.string(),
  /** STUN and TURN for this call (TURN credentials last until an hour after the appointment). */
  iceServers: z.array(iceServer),
  /**
   * For the family: "16:10" while the teacher is still in the call of their appointment before this one
   * (the timing follows the calls), else null.
   */
  teacherBusyUntil: z.string().nullable(),
  /** The teacher's next appointment at the event, and whether its family is in its call already. */
  next: z
    .object({
      bookingId: z.number(),
      familyName: z.string(),
      studentName: z.string().nullable(),
      time: z.string(),
      waiting: z.boolean(),
    })
    .nullable(),
});
export type CallInfo = z.infer<typeof callResponse>;

/** POST calls/invite: the teacher invites an admin of the school to help in the call. */
export const callInviteRequest = z.strictObject({ bookingId: idField, adminId: idField });
export type CallInviteRequest = z.infer<typeof callInviteRequest>;

/** What a page says on the live channel after its hello: join, signal to the others, leave a call. */
export const liveClientMessage = z.union([
  z.strictObject({ type: z.literal('call-join'), bookingId: z.number().int().positive().max(2_147_483_647) }),
  z.strictObject({
    type: z.literal('call-leave'),
    bookingId: z.number().int().positive().max(2_147_483_647),
  }),
  z.strictObject({
    type: z.literal('signal'),
    bookingId: z.number().int().positive().max(2_147_483_647),
    // An offer or answer (SDP), or an ICE candidate, for one of the others in the call (`to`; a page
    // says it is there with neither): relayed as it is to the others in the call.
    data: z.strictObject({
      to: z.number().int().positive().max(2_147_483_647).optional(),
      description: z
        .strictObject({ type: z.enum(['offer', 'answer', 'rollback']), sdp: z.string().max(60_000) })
        .optional(),
      candidate: z
        .strictObject({
          candidate: z.string().max(2_000),
          sdpMid: z.string().max(100).nullable().optional(),
          sdpMLineIndex: z.number().int().min(0).max(100).nullable().optional(),
          usernameFragment: z.string().max(256).nullable().optional(),
        })
        .nullable()
        .optional(),
    }),
  }),
]);
export type LiveClientMessage = z.infer<typeof liveClientMessage>;
