import type { AuditChange, AuditValue } from '@parley/domain/audit';
import { formatLocalDateTime } from '@parley/domain/time-zone';

// Pure helpers that name what an entry is about, as it is at the time of the change (the snapshot an
// entry keeps when the person or event is gone), and say what a change changed.

type Named = { first_name: string; last_name: string; email: string };

/** "Jane Doe (jane@example.org)" */
export const personLabel = (person: Named) => `${person.first_name} ${person.last_name} (${person.email})`;

/** A person as an entry's subject. */
export const personSubject = (person: Named & { id: number }) =>
  ({ type: 'person', id: person.id, label: personLabel(person) }) as const;

/** An event as an entry's subject. */
export const eventSubject = (event: { id: number; name: string }) =>
  ({ type: 'event', id: event.id, label: event.name }) as const;

type BookingLike = {
  id: number;
  starts_at: Date;
  teacher_name: string | null;
  parent_id: number | null;
  parent_name: string | null;
  student_id: number | null;
  student_name: string | null;
};

/** Whose booking: "Jane Doe (Tom Doe)", or the student alone. */
export function familyLabel(booking: BookingLike): string {
  if (booking.parent_name && booking.student_name) return `${booking.parent_name} (${booking.student_name})`;
  return booking.parent_name ?? booking.student_name ?? `booking ${booking.id}`;
}

/** "Thu 12 Mar 2026, 16:30 with Ann Lee" on the school's wall clock. */
export const bookingTime = (booking: BookingLike, timeZone: string) =>
  `${formatLocalDateTime(booking.starts_at, timeZone)}${booking.teacher_name ? ` with ${booking.teacher_name}` : ''}`;

/** The family a booking touches: the parent and the child. */
export const bookingPeople = (bookings: Array<{ parent_id: number | null; student_id: number | null }>) => [
  ...new Set(bookings.flatMap((b) => [b.parent_id, b.student_id].filter((id): id is number => id !== null))),
];

/** One booking as an entry's subject: the family's name, with the booking's time in the detail. */
export function bookingEntry(
  action: 'booking.created' | 'booking.cancelled' | 'booking.confirmed',
  event: { id: number; timezone: string },
  booking: BookingLike | undefined,
) {
  if (!booking) return null;
  return {
    action,
    subject: { type: 'booking', id: booking.id, label: familyLabel(booking) },
    eventId: event.id,
    people: bookingPeople([booking]),
    detail: { at: bookingTime(booking, event.timezone) },
  } as const;
}

/**
 * A booking change an admin made for a family: booked, cancelled, or moved (one cancelled and one booked,
 * as one entry: old time → new time). Null when nothing changed (a replay).
 */
export function bookingChangeEntry(
  event: { id: number; timezone: string },
  created: BookingLike[],
  cancelled: BookingLike[],
) {
  if (created.length === 0 || cancelled.length === 0)
    return created.length > 0
      ? created.map((booking) => bookingEntry('booking.created', event, booking))
      : cancelled.map((booking) => bookingEntry('booking.cancelled', event, booking));
  const times = (bookings: BookingLike[]) => bookings.map((b) => bookingTime(b, event.timezone)).join('; ');
  const [moved] = created as [BookingLike];
  return {
    action: 'booking.moved',
    subject: { type: 'booking', id: moved.id, label: familyLabel(moved) },
    eventId: event.id,
    people: bookingPeople([...created, ...cancelled]),
    detail: { from: times(cancelled), to: times(created) },
  } as const;
}

type Value = AuditValue | Date | undefined;

function normal(value: Value, timeZone: string): AuditValue | undefined {
  if (value instanceof Date) return formatLocalDateTime(value, timeZone);
  if (Array.isArray(value)) return [...value].sort((a, b) => String(a).localeCompare(String(b), 'en'));
  return value;
}

/**
 * The fields whose value differs, old → new, by the API's names. `after` holds only what the request set
 * (undefined: untouched); a `before` without the field records the new value alone.
 */
export function changedFields(
  before: Record<string, Value>,
  after: Record<string, Value>,
  timeZone = 'UTC',
): Record<string, AuditChange> {
  const changes: Record<string, AuditChange> = {};
  for (const [field, raw] of Object.entries(after)) {
    if (raw === undefined) continue;
    const to = normal(raw, timeZone);
    if (!(field in before)) {
      changes[field] = { to: to ?? null };
      continue;
    }
    const from = normal(before[field], timeZone) ?? null;
    if (JSON.stringify(from) !== JSON.stringify(to)) changes[field] = { from, to: to ?? null };
  }
  return changes;
}

type PersonBefore = {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  title: string | null;
  status?: number;
  video_conference_url?: string | null;
  subject_ids?: number[];
  student_ids?: number[];
  parent_ids?: number[];
};

type PersonEdit = {
  title?: string | null | undefined;
  firstName?: string | undefined;
  lastName?: string | undefined;
  email?: string | undefined;
  status?: number | undefined;
  videoConferenceUrl?: string | null | undefined;
  subjectIds?: number[] | undefined;
  studentIds?: number[] | undefined;
  parentIds?: number[] | undefined;
  subjects?: Array<{ subjectId: number; teacherId: number | null }> | undefined;
};

/** An edit of a person as one entry, named as they were before it, with what changed. Null if nothing did. */
export function personUpdateEntry(before: PersonBefore | undefined, edit: PersonEdit) {
  if (!before) return null;
  const known: Record<string, Value> = {
    title: before.title,
    firstName: before.first_name,
    lastName: before.last_name,
    email: before.email,
    status: before.status,
    videoConferenceUrl: before.video_conference_url,
    subjectIds: before.subject_ids,
    studentIds: before.student_ids,
    parentIds: before.parent_ids,
  };
  const { subjects, ...fields } = edit;
  const changes = changedFields(
    Object.fromEntries(Object.entries(known).filter(([, value]) => value !== undefined)),
    // A student's studies as "subject/teacher" pairs (the teacher optional).
    { ...fields, studies: subjects?.map((s) => `${s.subjectId}/${s.teacherId ?? '-'}`) },
  );
  if (Object.keys(changes).length === 0) return null;
  return { action: 'person.updated', subject: personSubject(before), detail: { changes } } as const;
}

/** The event columns an admin edits, by the names events/update takes. */
const EVENT_FIELDS = {
  name: 'name',
  status: 'status',
  event_type_id: 'eventTypeId',
  opens_at: 'opensAt',
  closes_at: 'closesAt',
  booking_page_message: 'bookingPageMessage',
  slot_minutes: 'slotMinutes',
  break_minutes: 'breakMinutes',
  travel_minutes: 'travelMinutes',
  capacity: 'usersPerSlot',
  guest_allowance: 'guestAllowance',
  gown_sizes: 'gownSizes',
  max_appointments_per_child: 'maxAppointmentsPerChild',
  booking_notifications: 'bookingNotifications',
  day_before_reminder: 'dayBeforeReminder',
  meeting_mode: 'meetingMode',
  scan_opens_hours_before: 'scanOpensHoursBefore',
  scan_closes_hours_after: 'scanClosesHoursAfter',
} as const;

type EventColumns = { [K in keyof typeof EVENT_FIELDS]?: Value };

/**
 * An edit of an event as one entry: "enabled" or "disabled" when its status changed, else "edited", with
 * what changed. Null when nothing did.
 */
export function eventUpdateEntry(
  event: EventColumns & { id: number; name: string },
  fields: EventColumns,
  timeZone: string,
  bookingsCancelled = 0,
) {
  const rename = (row: EventColumns) =>
    Object.fromEntries(
      Object.entries(EVENT_FIELDS).map(([column, field]) => [field, row[column as keyof EventColumns]]),
    );
  const changes = changedFields(rename(event), rename(fields), timeZone);
  if (Object.keys(changes).length === 0) return null;
  const status = changes.status?.to;
  const action = status === 1 ? 'event.enabled' : status === 0 ? 'event.disabled' : 'event.updated';
  return {
    action,
    subject: eventSubject(event),
    eventId: event.id,
    detail: { changes, ...(bookingsCancelled > 0 && { bookingsCancelled }) },
  } as const;
}

/** "2 guests" */
const guestsText = (guests: number) => `${guests} ${guests === 1 ? 'guest' : 'guests'}`;

/** A booking an admin changed in place (its guests or gown at a ticketed event): one entry, old → new. */
export function bookingGuestsEntry(
  event: { id: number },
  booking: BookingLike & { guests: number },
  before: { guests: number },
) {
  return {
    action: 'booking.changed',
    subject: { type: 'booking', id: booking.id, label: familyLabel(booking) },
    eventId: event.id,
    people: bookingPeople([booking]),
    detail: { from: guestsText(before.guests), to: guestsText(booking.guests) },
  } as const;
}
