import { formatLocalTime } from './time-zone';

// Live timing on the night (issue 41): a teacher says "running N minutes late" (or back on time); each
// family still to see them sees its expected time on Home and the booking page at once, and gets a push;
// "you're next" reaches each family a few minutes before its expected time. Times in the school's zone.

/** What a teacher can choose: on time, or this many minutes late. */
export const LATE_CHOICES = [0, 5, 10, 15, 20, 30, 45] as const;
export const LATE_MINUTES_MAX = 120;
/** "You're next" goes this many minutes before a family's expected time. */
export const NEXT_UP_MINUTES = 5;

export const LIVE_TIMING_TEXT = {
  heading: 'Running late?',
  hint: 'Families still to see you are told at once, with their new expected time.',
  onTime: 'On time',
  lateChoice: (minutes: number) => `${minutes} min late`,
  youAreLate: (minutes: number) => `You are running ${minutes} minutes late.`,
  youAreOnTime: 'You are on time.',
  saved: (minutes: number) =>
    minutes === 0
      ? 'Families have been told you are back on time.'
      : `Families have been told you are running ${minutes} minutes late.`,
  notInEvent: 'That teacher has no appointments at this event.',
  saveFailed: 'Could not tell the families. Please try again.',
  /** A family's line: "Running 10 minutes late: expected at 17:30". */
  runningLate: (minutes: number, expected: string) =>
    `Running ${minutes} minutes late: expected at ${expected}`,
  homeLine: (teacher: string, minutes: number, time: string, expected: string) =>
    `${teacher} is running ${minutes} minutes late: your ${time} appointment is expected at ${expected}.`,
} as const;

/** When an appointment is now expected to start. */
export const expectedStart = (startsAt: Date, lateMinutes: number): Date =>
  new Date(startsAt.getTime() + lateMinutes * 60_000);

/** A booking's lateness, if its teacher runs late: the words and the expected time, else null. */
export function lateLine(
  booking: { teacherId: number | null; startsAt: string },
  timings: ReadonlyArray<{ teacherId: number; lateMinutes: number }>,
  timeZone: string,
): string | null {
  const late = timings.find((t) => t.teacherId === booking.teacherId)?.lateMinutes ?? 0;
  if (late <= 0) return null;
  const expected = formatLocalTime(expectedStart(new Date(booking.startsAt), late), timeZone);
  return LIVE_TIMING_TEXT.runningLate(late, expected);
}

/** The pushes' words. */
export function latePush(
  eventName: string,
  teacherName: string,
  minutes: number,
  startsAt: Date,
  timeZone: string,
): { title: string; body: string } {
  const time = formatLocalTime(startsAt, timeZone);
  if (minutes === 0)
    return {
      title: `${eventName}: back on time`,
      body: `${teacherName} is back on time. Your appointment is at ${time}.`,
    };
  const expected = formatLocalTime(expectedStart(startsAt, minutes), timeZone);
  return {
    title: `${eventName}: running late`,
    body: `${teacherName} is running ${minutes} minutes late. Your ${time} appointment is now expected at ${expected}.`,
  };
}

export function nextUpPush(
  eventName: string,
  teacherName: string,
  expected: Date,
  timeZone: string,
): { title: string; body: string } {
  return {
    title: `${eventName}: you're next`,
    body: `You're next with ${teacherName} at ${formatLocalTime(expected, timeZone)}.`,
  };
}

// ── the live channel (GET /api/live, a WebSocket) ────────────────────────────────────────────────────

/**
 * Close codes: no or bad hello in time, or a credential that has ended since (the client waits for a new
 * one); too many sockets; reconnect with the same credential (the person's roles changed).
 */
export const LIVE_CLOSE = { unauthorized: 4401, tooMany: 4429, reconnect: 1012 } as const;
/** How long the server waits for the hello, and how many sockets one person may hold. */
export const LIVE_HELLO_MS = 10_000;
export const LIVE_SOCKETS_PER_USER = 10;

/**
 * What the server says: ready once the hello is accepted; an event's timing changed (refetch it); and of a
 * video call the page is in: joined (or refused), the others' messages, the warning before it ends, the end.
 */
export type LiveMessage =
  | { type: 'ready' }
  | { type: 'timing'; eventId: number }
  | { type: 'call-joined'; bookingId: number; endsAt: string }
  | { type: 'call-refused'; bookingId: number; message: string }
  | { type: 'call'; bookingId: number; from: number; kind: 'joined' | 'left' | 'signal'; data?: unknown }
  | { type: 'call-ending'; bookingId: number; seconds: number }
  | { type: 'call-ended'; bookingId: number }
  /** To the teacher's pages: someone joined or left the call of one of their appointments. */
  | { type: 'call-presence'; bookingId: number };

const CALL_MESSAGES = new Set([
  'call-joined',
  'call-refused',
  'call',
  'call-ending',
  'call-ended',
  'call-presence',
]);

/** A message from the server, read without a schema library (the page's client loads no zod for it). */
export function readLiveMessage(text: string): LiveMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const message = value as { type?: unknown; eventId?: unknown; bookingId?: unknown };
  if (message.type === 'ready') return { type: 'ready' };
  if (message.type === 'timing' && Number.isInteger(message.eventId))
    return { type: 'timing', eventId: message.eventId as number };
  // A call's messages go to the call page, which reads their fields itself.
  if (
    typeof message.type === 'string' &&
    CALL_MESSAGES.has(message.type) &&
    Number.isInteger(message.bookingId)
  )
    return value as LiveMessage;
  return null;
}
