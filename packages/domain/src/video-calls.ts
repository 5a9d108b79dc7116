import { formatLocalTime } from './time-zone';

// Video appointments (issue 41): a booking of an event held by video is a call between the browsers of
// its family and its teacher, open from a few minutes before its start until its end. Texts and rules.

/** The call opens this many minutes before the appointment starts. */
export const CALL_OPENS_MINUTES_BEFORE = 5;
/** Everyone in the call is warned this many seconds before it ends itself. */
export const CALL_WARNING_SECONDS = 60;

export const MEETING_MODES = ['inPerson', 'video'] as const;
export type MeetingMode = (typeof MEETING_MODES)[number];

export const CALL_TEXT = {
  notFound: 'Appointment not found.',
  notVideo: 'This appointment is held in person, not by video.',
  tooEarly: (time: string) => `The call opens at ${time}, a few minutes before the appointment.`,
  ended: 'This appointment has ended.',
  cancelled: 'This appointment was cancelled.',
  onlyTeacherInvites: 'Only the appointment’s teacher can invite an admin to help.',
  notAnAdmin: 'Choose an admin of the school.',
  invited: (name: string) => `${name} is invited to join this call.`,
} as const;

/** The push an invited admin gets: who asks them to join which appointment. */
export const callInvitePush = (teacherName: string, time: string, familyName: string) => ({
  title: 'Help in a video appointment',
  body: `${teacherName} asks you to join the ${time} appointment with ${familyName}.`,
});

export type CallWindow = 'early' | 'open' | 'ended';

/** When the call opens: a few minutes before the appointment. */
export const callOpensAt = (startsAt: Date): Date =>
  new Date(startsAt.getTime() - CALL_OPENS_MINUTES_BEFORE * 60_000);

/** Whether the call can be joined at `now`: not yet, now, or no more. */
export function callWindow(startsAt: Date, endsAt: Date, now: Date): CallWindow {
  if (now.getTime() < callOpensAt(startsAt).getTime()) return 'early';
  return now.getTime() < endsAt.getTime() ? 'open' : 'ended';
}

/** Why a call cannot be joined now, in the school's zone, or null when it can. */
export function callRefusal(startsAt: Date, endsAt: Date, now: Date, timeZone: string): string | null {
  const window = callWindow(startsAt, endsAt, now);
  if (window === 'early') return CALL_TEXT.tooEarly(formatLocalTime(callOpensAt(startsAt), timeZone));
  return window === 'ended' ? CALL_TEXT.ended : null;
}
