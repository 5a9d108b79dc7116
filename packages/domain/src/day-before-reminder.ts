import { formatLocalDate, formatLocalTime } from './time-zone';

// The reminder the day before (issue 40): one mail and one push per person, listing all their appointments
// and tickets of the next day, in the school's zone.

/** When the reminders go unless the school sets another time (its zone's wall clock). */
export const DEFAULT_REMINDER_TIME = '18:00';

export type ReminderItem = {
  startsAt: Date;
  endsAt: Date;
  eventName: string;
  /** The person reads it as the teacher of this appointment (else as its family). */
  asTeacher: boolean;
  teacherName: string | null;
  studentName: string | null;
  location: string | null;
  /** Places beside the booker's own (a ticketed booking's guests). */
  guests: number;
};

/** One line per appointment: "16:10–16:20 Spring evening: Mr T Smith, for Sam Rowe, Main hall". */
export function reminderLine(item: ReminderItem, timeZone: string): string {
  const when = `${formatLocalTime(item.startsAt, timeZone)}–${formatLocalTime(item.endsAt, timeZone)}`;
  const who = item.asTeacher
    ? item.studentName && `with the family of ${item.studentName}`
    : [item.teacherName, item.studentName && `for ${item.studentName}`].filter(Boolean).join(', ');
  const places = !item.asTeacher && item.guests > 0 ? `${item.guests + 1} places` : null;
  const details = [who, places, item.location].filter(Boolean).join(', ');
  return `${when} ${item.eventName}${details ? `: ${details}` : ''}`;
}

/** "Tue 8 Dec 2026": the day the reminder is about. */
export const reminderDay = (items: readonly ReminderItem[], timeZone: string): string =>
  items[0] ? formatLocalDate(items[0].startsAt, timeZone) : '';

/** The push's words: the first appointment, and how many more. */
export function reminderPush(
  items: readonly ReminderItem[],
  timeZone: string,
): { title: string; body: string } {
  const [first] = items;
  if (!first) return { title: '', body: '' };
  const more = items.length - 1;
  return {
    title: `Tomorrow: ${items.length === 1 ? first.eventName : `${items.length} appointments`}`,
    body: `${reminderLine(first, timeZone)}${more > 0 ? ` (and ${more} more)` : ''}`,
  };
}
