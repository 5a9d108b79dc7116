import type { BookingEvent, MyBooking, ScheduleRow } from '@parley/domain/booking';
import { ApiError, serverMessage } from '../../lib/api-client';
import { MY_BOOKINGS_TEXT, NO_ANSWER_TEXT } from './my-events-text';

// Rules of the teacher's schedule and the family's bookings pages (issue 5 "Teacher, parent and student
// views"), pure so they are tested directly.

/** The teacher's schedule refreshes itself this often (and on focus): it updates as bookings arrive. */
export const SCHEDULE_REFRESH_MS = 15_000;

const positiveId = (value: unknown): number | null => {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^\d{1,12}$/.test(text)) return null;
  const id = Number(text);
  return id > 0 ? id : null;
};

/** The stored currentEvent (spec §3): an id, or an object with one. */
export function storedEventId(stored: unknown): number | null {
  if (typeof stored === 'object' && stored !== null && 'id' in stored) return positiveId(stored.id);
  return positiveId(stored);
}

/**
 * Which event a details page shows: the id in the path (events.view-*-event/{id}), else ?eventId
 * (event.details-*), else the stored current event.
 */
export function resolveEventId(
  pathId: string | undefined,
  queryId: string | null,
  stored: unknown,
): number | null {
  if (pathId !== undefined) return positiveId(pathId);
  if (queryId !== null) return positiveId(queryId);
  return storedEventId(stored);
}

export type ScheduleLine = {
  key: string;
  time: string;
  endTime: string;
  location: string | null;
  /** Nobody has booked this slot (shown muted). */
  free: boolean;
  family: string | null;
  child: string | null;
  subject: string | null;
  /** The first line of a slot with several bookings shows the time; the others repeat nothing. */
  firstOfSlot: boolean;
  /** The booking on this line (null: a free slot). */
  bookingId: number | null;
};

/** A day's rows as lines: one per booking, or one muted line for a free slot. */
export function scheduleLines(rows: readonly ScheduleRow[]): ScheduleLine[] {
  return rows.flatMap((row): ScheduleLine[] => {
    const base = { time: row.time, endTime: row.endTime, location: row.location };
    if (row.bookings.length === 0)
      return [
        {
          ...base,
          key: `slot-${row.slotId}`,
          free: true,
          family: null,
          child: null,
          subject: null,
          firstOfSlot: true,
          bookingId: null,
        },
      ];
    return row.bookings.map((booking, index) => ({
      ...base,
      key: `booking-${booking.bookingId}`,
      free: false,
      family: booking.parentName,
      child: booking.studentName,
      subject: booking.subjectName,
      firstOfSlot: index === 0,
      bookingId: booking.bookingId,
    }));
  });
}

/** "Updated hh:mm:ss" of the moment the schedule was read, on the school's clock like every other time. */
export function updatedLabel(asOf: string, timeZone: string): string | null {
  const at = new Date(asOf);
  if (Number.isNaN(at.getTime())) return null;
  const time = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(at);
  return `Updated ${time}`;
}

/** Live bookings only, in time order. */
export const liveBookings = (bookings: readonly MyBooking[]): MyBooking[] =>
  bookings
    .filter((booking) => booking.status === 'booked')
    .sort((a, b) => a.startsAt.localeCompare(b.startsAt) || a.id - b.id);

/** "Change" and "Cancel" show while bookings can be changed; "Book now" too when there are none. */
export const canChangeBookings = (event: Pick<BookingEvent, 'isOpen'>): boolean => event.isOpen;

/** The places the event happens: its sections' locations, once each. */
export function eventLocations(event: Pick<BookingEvent, 'sections'>): string[] {
  const seen = new Set<string>();
  for (const section of event.sections) {
    const location = section.location?.trim();
    if (location) seen.add(location);
  }
  return [...seen];
}

const FACTS = MY_BOOKINGS_TEXT.facts;

/** The lines under a booking: who, what, where (parts that are empty are left out). */
export function bookingFacts(booking: MyBooking): { label: string; value: string }[] {
  const facts: { label: string; value: string }[] = [];
  if (booking.teacherName) facts.push({ label: FACTS.teacher, value: booking.teacherName });
  if (booking.studentName) facts.push({ label: FACTS.child, value: booking.studentName });
  if (booking.subjectName) facts.push({ label: FACTS.subject, value: booking.subjectName });
  if (booking.location) facts.push({ label: FACTS.location, value: booking.location });
  if (booking.guests > 0) facts.push({ label: FACTS.guests, value: String(booking.guests) });
  if (booking.gownSize) facts.push({ label: FACTS.gown, value: booking.gownSize });
  return facts;
}

/** A details page's load failure: "you are offline" when no answer came at all, else the server's word. */
export function loadFailedText(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.status === 0 ? NO_ANSWER_TEXT : serverMessage(error, fallback);
}

/** How long before the first appointment the teacher's "Running late?" card shows. */
export const RUNNING_LATE_FROM_MS = 2 * 3_600_000;

/** Whether the evening is on now (from two hours before its first time until its last ends): the night. */
export function isTheNight(rows: ReadonlyArray<{ startsAt: string; endsAt: string }>, now: Date): boolean {
  const starts = rows.map((row) => Date.parse(row.startsAt));
  const ends = rows.map((row) => Date.parse(row.endsAt));
  if (starts.length === 0) return false;
  return now.getTime() >= Math.min(...starts) - RUNNING_LATE_FROM_MS && now.getTime() < Math.max(...ends);
}
