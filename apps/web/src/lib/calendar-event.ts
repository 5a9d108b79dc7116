// The device-calendar entry of an event (spec §3 calendar event payload, §9 calendar constants), pure so
// the Home rules and the native module share one definition and tests check it directly.

/** Spec §9: the calendar event lasts 2 hours from the event date. */
export const CALENDAR_EVENT_HOURS = 2;
/** Spec §9: one alert 24 hours (1,440 minutes) before. */
export const CALENDAR_ALERT_MINUTES = 1440;
/** Spec §9: location when the event has none. */
export const CALENDAR_DEFAULT_LOCATION = 'School';
/** Spec §9: notes when none are given. */
export const calendarDefaultNotes = (name: string): string => `School meeting event: ${name}`;

/** Spec §3: the input to calendar add. */
export type CalendarEventInput = {
  name: string;
  eventDate: string | number | null | undefined;
  location?: string | null | undefined;
  notes?: string | null | undefined;
};

/** Spec §3: the calendar event payload (dates are ms timestamps). */
export type CalendarEventPayload = {
  title: string;
  location: string;
  notes: string;
  startDate: number;
  endDate: number;
  isAllDay: boolean;
  alertOffsetInMinutes: number[];
};

function startOf(eventDate: CalendarEventInput['eventDate']): number {
  if (typeof eventDate === 'number') return eventDate;
  return eventDate ? Date.parse(eventDate) : Number.NaN;
}

/** The payload of spec §3/§9, or null when the event has no usable date (nothing to put in a calendar). */
export function calendarEventPayload(input: CalendarEventInput): CalendarEventPayload | null {
  const start = startOf(input.eventDate);
  if (!Number.isFinite(start)) return null;
  return {
    title: input.name,
    location: input.location || CALENDAR_DEFAULT_LOCATION,
    notes: input.notes || calendarDefaultNotes(input.name),
    startDate: start,
    endDate: start + CALENDAR_EVENT_HOURS * 3600_000,
    isAllDay: false,
    alertOffsetInMinutes: [CALENDAR_ALERT_MINUTES],
  };
}

/** Spec §9: the existence check spans the whole (local) day of the event date. */
export function wholeDay(at: number): { from: number; to: number } {
  const day = new Date(at);
  const from = new Date(day.getFullYear(), day.getMonth(), day.getDate()).getTime();
  const to = new Date(day.getFullYear(), day.getMonth(), day.getDate() + 1).getTime() - 1;
  return { from, to };
}

/** Spec §9: a device event matches when its title contains the event's name. */
export const titleMatches = (title: string | null | undefined, name: string): boolean =>
  name.length > 0 && typeof title === 'string' && title.includes(name);

/** Spec §8 Calendar, word for word. */
export const CALENDAR_TEXT = {
  failed: 'Failed to add event to calendar',
  permissionDenied: 'Calendar permission denied. Please enable calendar access in your device settings.',
  notNative: 'Calendar access is only available on mobile devices.',
  added: 'Event added to calendar successfully!',
} as const;
