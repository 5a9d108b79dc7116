import { EVENT_GROUPS } from '@parley/domain/event-groups';
import { type EventDetail, type EventUpdateRequest, SCAN_WINDOW_HOURS_MAX } from '@parley/domain/events';
import { BREAK_MINUTES_MAX, SLOT_MINUTES_MAX, SLOT_MINUTES_MIN } from '@parley/domain/slots';
import { MEETING_MODES, type MeetingMode } from '@parley/domain/video-calls';
import { z } from '@parley/domain/zod';
import { CLOCK_ERROR, readClockTime } from '../../components/clock-time';
import { EVENTS_TEXT } from '../../lib/ui-text';

// The event settings form: which options each kind of event has, and the form ↔ request mapping.

export type OptionKey =
  | 'slotMinutes'
  | 'breakMinutes'
  | 'travelMinutes'
  | 'usersPerSlot'
  | 'guestAllowance'
  | 'gownSizes'
  | 'maxAppointmentsPerChild'
  | 'scanOpensHoursBefore'
  | 'scanClosesHoursAfter';

/** The door's window (issue 35): ticketed events only; texts kept here, out of the shared bundle. */
export const SCAN_WINDOW_TEXT = {
  scanOpensHoursBefore: 'Scanning opens (hours before)',
  scanOpensHoursBeforeHelp: 'Tickets scan from this many hours before the event starts.',
  scanClosesHoursAfter: 'Scanning closes (hours after)',
  scanClosesHoursAfterHelp: 'Tickets scan until this many hours after the event ends.',
} as const;

/** How the appointments are held (issue 41): events with appointments only, not ticketed ones. */
export const MEETING_MODE_TEXT = {
  label: 'Appointments are held',
  inPerson: 'In person',
  video: 'By video in Parley',
  videoHelp:
    'Each family and teacher join their appointment’s call from Parley, from 5 minutes before it starts; ' +
    'it ends itself at the appointment’s end.',
} as const;

export const hasMeetingMode = (group: number): boolean =>
  group === EVENT_GROUPS.parentTeacher || group === EVENT_GROUPS.booking;

/** Options shown for each group: 1 parent-teacher, 2 ticketed, 3 ceremony, 4 booking event. */
export const OPTIONS_BY_GROUP: Record<number, OptionKey[]> = {
  [EVENT_GROUPS.parentTeacher]: ['slotMinutes', 'breakMinutes', 'travelMinutes', 'maxAppointmentsPerChild'],
  [EVENT_GROUPS.booking]: ['slotMinutes', 'breakMinutes', 'usersPerSlot'],
  [EVENT_GROUPS.ticketed]: ['usersPerSlot', 'guestAllowance', 'scanOpensHoursBefore', 'scanClosesHoursAfter'],
  [EVENT_GROUPS.ceremony]: [
    'usersPerSlot',
    'guestAllowance',
    'gownSizes',
    'scanOpensHoursBefore',
    'scanClosesHoursAfter',
  ],
};

export function optionsFor(group: number): OptionKey[] {
  return OPTIONS_BY_GROUP[group] ?? [];
}

export type SettingsValues = {
  bookingPageMessage: string;
  /** The booking window: a date and a 24-hour time each (decision 020), both empty for no limit. */
  opensDate: string;
  opensTime: string;
  closesDate: string;
  closesTime: string;
  slotMinutes: string;
  breakMinutes: string;
  travelMinutes: string;
  usersPerSlot: string;
  guestAllowance: string;
  gownSizes: string;
  maxAppointmentsPerChild: string;
  scanOpensHoursBefore: string;
  scanClosesHoursAfter: string;
  meetingMode: MeetingMode;
};

const whole = (min: number, max: number, optional = false) =>
  z.string().superRefine((value, ctx) => {
    const text = value.trim();
    if (text === '' && optional) return;
    if (!/^\d+$/.test(text)) ctx.addIssue({ code: 'custom', message: EVENTS_TEXT.wholeNumber });
    else if (Number(text) < min) ctx.addIssue({ code: 'custom', message: EVENTS_TEXT.atLeast(min) });
    else if (Number(text) > max) ctx.addIssue({ code: 'custom', message: EVENTS_TEXT.atMost(max) });
  });

const clockTime = z.string().refine((value) => !value.trim() || readClockTime(value) !== null, CLOCK_ERROR);

/** "2026-03-01T16:30" from a date and a typed time; empty when either is missing. */
function localDateTime(date: string, time: string): string {
  const clock = readClockTime(time);
  return date && clock ? `${date}T${clock}` : '';
}

/** Each end of the window needs both parts or neither. */
function bothOrNeither(values: SettingsValues, ctx: z.RefinementCtx, end: 'opens' | 'closes') {
  const date = values[`${end}Date`];
  const time = values[`${end}Time`].trim();
  if (date && !time)
    ctx.addIssue({ code: 'custom', path: [`${end}Time`], message: EVENTS_TEXT.windowTimeMissing });
  if (time && !date)
    ctx.addIssue({ code: 'custom', path: [`${end}Date`], message: EVENTS_TEXT.windowDateMissing });
}

export const settingsSchema = z
  .object({
    bookingPageMessage: z.string().max(2000),
    opensDate: z.string(),
    opensTime: clockTime,
    closesDate: z.string(),
    closesTime: clockTime,
    slotMinutes: whole(SLOT_MINUTES_MIN, SLOT_MINUTES_MAX),
    breakMinutes: whole(0, BREAK_MINUTES_MAX),
    travelMinutes: whole(0, 120),
    usersPerSlot: whole(1, 10000),
    guestAllowance: whole(0, 20),
    gownSizes: z.string().max(600),
    maxAppointmentsPerChild: whole(1, 50, true),
    scanOpensHoursBefore: whole(0, SCAN_WINDOW_HOURS_MAX),
    scanClosesHoursAfter: whole(0, SCAN_WINDOW_HOURS_MAX),
    meetingMode: z.enum(MEETING_MODES),
  })
  .superRefine((values, ctx) => {
    bothOrNeither(values, ctx, 'opens');
    bothOrNeither(values, ctx, 'closes');
    const opens = localDateTime(values.opensDate, values.opensTime);
    const closes = localDateTime(values.closesDate, values.closesTime);
    if (opens && closes && opens >= closes)
      ctx.addIssue({ code: 'custom', path: ['closesDate'], message: 'Bookings must open before they close' });
  });

export function settingsValues(event: EventDetail): SettingsValues {
  const o = event.options;
  // The server's local date-time is "2026-03-01T16:30".
  const [opensDate = '', opensTime = ''] = event.opensAtLocal?.split('T') ?? [];
  const [closesDate = '', closesTime = ''] = event.closesAtLocal?.split('T') ?? [];
  return {
    bookingPageMessage: event.bookingPageMessage ?? '',
    opensDate,
    opensTime: opensTime.slice(0, 5),
    closesDate,
    closesTime: closesTime.slice(0, 5),
    slotMinutes: String(o.slotMinutes),
    breakMinutes: String(o.breakMinutes),
    travelMinutes: String(o.travelMinutes),
    usersPerSlot: String(o.usersPerSlot),
    guestAllowance: String(o.guestAllowance),
    gownSizes: o.gownSizes.join(', '),
    maxAppointmentsPerChild: o.maxAppointmentsPerChild === null ? '' : String(o.maxAppointmentsPerChild),
    scanOpensHoursBefore: String(event.scanOpensHoursBefore),
    scanClosesHoursAfter: String(event.scanClosesHoursAfter),
    meetingMode: event.meetingMode,
  };
}

/** Only what changed is sent (a timing change regenerates slots on the server). */
export function settingsBody(values: SettingsValues, event: EventDetail): EventUpdateRequest {
  const before = settingsValues(event);
  const body: EventUpdateRequest = {};
  const changed = (key: keyof SettingsValues) => values[key].trim() !== before[key].trim();
  if (changed('bookingPageMessage')) body.bookingPageMessage = values.bookingPageMessage;
  for (const end of ['opens', 'closes'] as const) {
    const now = localDateTime(values[`${end}Date`], values[`${end}Time`]);
    if (now !== localDateTime(before[`${end}Date`], before[`${end}Time`])) body[`${end}At`] = now || null;
  }
  if (hasMeetingMode(event.eventTypeGroupInt) && values.meetingMode !== before.meetingMode)
    body.meetingMode = values.meetingMode;
  const group = optionsFor(event.eventTypeGroupInt);
  for (const key of group) {
    if (!changed(key)) continue;
    if (key === 'gownSizes') {
      body.gownSizes = values.gownSizes
        .split(',')
        .map((size) => size.trim())
        .filter(Boolean);
    } else if (key === 'maxAppointmentsPerChild') {
      body.maxAppointmentsPerChild = values[key].trim() === '' ? null : Number(values[key]);
    } else {
      body[key] = Number(values[key]);
    }
  }
  return body;
}
