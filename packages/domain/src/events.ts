import { errorResponse } from './auth';
import { EVENT_NAME_MAX } from './constants';
import { EVENT_GROUPS, type EventGroup } from './event-groups';
import { ID_MAX, idField, idParam } from './fields';
import { VALIDATION } from './messages';
import { BREAK_MINUTES_MAX, SLOT_MINUTES_MAX } from './slots';
import { sectionLabel } from './time-zone';
import { MEETING_MODES } from './video-calls';
import { z } from './zod';

// Events (issue 4; spec §2 Events list, §3 Event, Event type, Home data, §5, §7 Events and Messages).
// Instants travel as ISO 8601 strings (UTC, "Z"); every instant that a screen shows also comes as a label
// already formatted in the school's time zone, so the app never formats in the browser's zone.

// ── constants ────────────────────────────────────────────────────────────────────────────────────────

/** The types every school starts with, in the order the "Event type" select lists them. */
export const DEFAULT_EVENT_TYPES: ReadonlyArray<{ name: string; group: EventGroup }> = [
  { name: 'Parent teacher', group: 1 },
  { name: 'Booking event', group: 4 },
  { name: 'Ticketed event', group: 2 },
  { name: 'Graduation', group: 3 },
];

/** Slot capacity a new event of each group starts with (one family per appointment; places otherwise). */
export const DEFAULT_CAPACITY: Record<EventGroup, number> = { 1: 1, 2: 100, 3: 200, 4: 1 };

export const EVENT_STATUS = { enabled: 1, disabled: 0 } as const;
/** The spec's statusLabel (HTML) as data: the app renders a chip in this colour. */
export const EVENT_STATUS_LABELS = {
  1: { text: 'Enabled', color: 'success' },
  0: { text: 'Disabled', color: 'error' },
} as const;

export const EVENT_TEXT = {
  /** Spec §4. */
  disabledNotice: 'This event is currently disabled. Review settings and enable to allow bookings.',
  listed: 'Events loaded.',
  created: 'Event created.',
  saved: 'Event saved.',
  deleted: 'Event deleted.',
  notFound: 'Event not found.',
  noCurrentEvent: 'There is no current event.',
  sectionNotFound: 'Section not found.',
  sectionCreated: 'Section added.',
  sectionSaved: 'Section saved.',
  sectionDeleted: 'Section deleted.',
  slotNotFound: 'Slot not found.',
  unknownEventType: 'Unknown event type.',
  typeChangeWithSections:
    'An event with sections cannot change to a different kind of event. Delete its sections first.',
  teachersOnlyForParentTeacher: 'Only parent teacher events have teachers.',
  unknownTeacher: 'Unknown teacher',
  duplicateTeacher: 'A teacher can appear only once in a section.',
  unknownRecipient: 'Unknown parent or student',
  unknownScanner: 'Unknown admin, teacher or student',
  recipientNotFound: 'Recipient not found.',
  jobNotFound: 'Job not found.',
  recipientRemoved: 'Recipient removed.',
  scannersSaved: 'Ticket scanners saved.',
  scannerRemoved: 'Ticket scanner removed.',
  opensBeforeCloses: 'Bookings must open before they close',
  invalidDateTime: 'Enter a date and time',
  capacityBelowBookings: 'Some slots already have more bookings than that.',
  nothingToChange: 'Send a capacity or a location.',
  slotTarget: 'Send a slotId, or a sectionId (with a teacherId for one teacher).',
  disabledNoMessages:
    'This event is currently disabled. Review settings and enable to allow bookings. No messages were sent.',
  notificationsOn: 'Booking notifications are on.',
  notificationsOff: 'Booking notifications are off.',
} as const;

/** Message types of message-types/send?eventId and send-to-single-recipient. */
export const EVENT_MESSAGE_TYPES = ['inviteToBook', 'reminder'] as const;
export type EventMessageType = (typeof EVENT_MESSAGE_TYPES)[number];
export const MESSAGE_AUDIENCES = ['all', 'notBooked'] as const;

export const CSV_COLUMNS = ['Date', 'Time', 'Teacher', 'Location', 'Parent', 'Student', 'Subject', 'Status'];
/** A ticketed event's CSV adds what its bookings table and door show (issue 36): guests and the tickets. */
export const TICKET_CSV_COLUMNS = [
  'Guests',
  'Gown size',
  'Ticket',
  'Scanned at',
  'Scanned by',
  'Guests admitted',
];
/** The attendee's ticket in the CSV's "Ticket" column. */
export const TICKET_CSV_STATUS = {
  admitted: 'Admitted',
  valid: 'Not admitted',
  void: 'Void',
  none: 'No ticket',
} as const;

// ── fields ───────────────────────────────────────────────────────────────────────────────────────────

const id = idParam;
const ids = z.array(idField).max(5000);

/** Spec §5: "Name is required", "Name must be less than 60 characters". */
export const eventNameField = z
  .string({ error: VALIDATION.eventNameRequired })
  .trim()
  .min(1, { error: VALIDATION.eventNameRequired, abort: true })
  .max(EVENT_NAME_MAX, VALIDATION.eventNameMax);

/** Spec §5: "Event type is required" (missing, empty, null or 0 all say so). */
export const eventTypeIdField = z.coerce
  .number({ error: VALIDATION.eventTypeRequired })
  .int(VALIDATION.eventTypeRequired)
  .positive(VALIDATION.eventTypeRequired)
  .max(ID_MAX, VALIDATION.idInvalid);

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .transform((value) => (value === '' ? null : value))
    .nullable();

/**
 * A booking window end: an instant with its offset ("2026-03-01T09:00:00Z") or a wall time in the school's
 * zone as a datetime-local input gives it ("2026-03-01T09:00"). Null clears it.
 */
export const dateTimeInput = z
  .string()
  .max(40)
  .regex(
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?$/,
    EVENT_TEXT.invalidDateTime,
  )
  .nullable();

const localSpan = z.strictObject({ start: z.string().max(5), end: z.string().max(5) });

// ── requests ─────────────────────────────────────────────────────────────────────────────────────────

export const eventIdQuery = z.strictObject({ id });
/** The app's forced-refresh flag (spec §7) is accepted and changes nothing: the list is always fresh. */
export const eventsIndexQuery = z.object({ forceRefresh: z.string().max(10).optional() });
/** events/view?id=7 or ?id=current (the nearest enabled event that has not ended). */
export const eventViewQuery = z.strictObject({ id: z.union([z.literal('current'), id]) });
export const eventScopedQuery = z.strictObject({ eventId: id });
export const sectionDeleteQuery = z.strictObject({ eventId: id, sectionId: id });
export const addRecipientsQuery = z.strictObject({
  eventId: id,
  saveme: z.coerce.number().int().min(0).max(1).default(0),
});
export const downloadQuery = z.strictObject({ eventId: id });

/** The door's window (issue 35): hours before the first section and after the last; a day each by default. */
export const SCAN_WINDOW_HOURS_DEFAULT = 24;
export const SCAN_WINDOW_HOURS_MAX = 1440;
const scanWindowHours = z.number().int().min(0).max(SCAN_WINDOW_HOURS_MAX);

export const eventCreateRequest = z.strictObject({
  name: eventNameField,
  eventTypeId: eventTypeIdField,
  scanOpensHoursBefore: scanWindowHours.optional(),
  scanClosesHoursAfter: scanWindowHours.optional(),
});
export type EventCreateRequest = z.input<typeof eventCreateRequest>;

/** Changes only what is sent. Timing changes regenerate slots (409 when they would hit bookings). */
export const eventUpdateRequest = z.strictObject({
  name: eventNameField.optional(),
  eventTypeId: eventTypeIdField.optional(),
  status: z.union([z.literal(0), z.literal(1)]).optional(),
  bookingPageMessage: optionalText(2000).optional(),
  opensAt: dateTimeInput.optional(),
  closesAt: dateTimeInput.optional(),
  slotMinutes: z.number().int().min(1).max(SLOT_MINUTES_MAX).optional(),
  breakMinutes: z.number().int().min(0).max(BREAK_MINUTES_MAX).optional(),
  /** Parents' gap between two appointments (minutes). */
  travelMinutes: z.number().int().min(0).max(120).optional(),
  /** Capacity of each slot; also applied to the existing slots. */
  usersPerSlot: z.number().int().min(1).max(10000).optional(),
  guestAllowance: z.number().int().min(0).max(20).optional(),
  gownSizes: z.array(z.string().trim().min(1).max(20)).max(30).optional(),
  maxAppointmentsPerChild: z.number().int().min(1).max(50).nullable().optional(),
  bookingNotifications: z.boolean().optional(),
  /** The day-before reminder (mail and push) for this event's bookings, at the school's reminder time. */
  dayBeforeReminder: z.boolean().optional(),
  /** Held in person, or by video in Parley (issue 41). */
  meetingMode: z.enum(MEETING_MODES).optional(),
  /** Tickets scan from this many hours before the event's first section starts (ticketed events). */
  scanOpensHoursBefore: scanWindowHours.optional(),
  /** … to this many hours after its last section ends. */
  scanClosesHoursAfter: scanWindowHours.optional(),
  /** Apply a timing change even though it cancels bookings (the families are told). */
  confirm: z.boolean().optional(),
});
export type EventUpdateRequest = z.input<typeof eventUpdateRequest>;

/** Absent: toggle. A bodiless POST arrives as null. */
export const bookingNotificationRequest = z
  .strictObject({ bookingNotifications: z.boolean().optional() })
  .nullish();

export const confirmRequest = z.strictObject({ confirm: z.boolean().optional() }).nullish();

export const sectionTeacherInput = z.strictObject({
  teacherId: idField,
  location: optionalText(100).optional(),
  /** Local 'HH:MM' ranges on the section's date when the teacher takes no appointments. */
  unavailable: z.array(localSpan).max(20).default([]),
});

/** A date with local start and end in the school's zone; for parent-teacher events, its teachers. */
export const sectionRequest = z.strictObject({
  date: z.string().max(10),
  start: z.string().max(5),
  end: z.string().max(5),
  location: optionalText(100).optional(),
  teachers: z.array(sectionTeacherInput).max(500).default([]),
  confirm: z.boolean().optional(),
});
export type SectionRequest = z.input<typeof sectionRequest>;

export const addRecipientsRequest = z
  .strictObject({ userIds: ids.optional(), all: z.enum(['parents', 'students']).optional() })
  .refine((body) => body.userIds !== undefined || body.all !== undefined, {
    path: ['userIds'],
    message: 'Choose people or a whole group.',
  });
export type AddRecipientsRequest = z.input<typeof addRecipientsRequest>;

export const userIdRequest = z.strictObject({ userId: idField });
export const canScanRequest = z.strictObject({ canScanUserIds: ids });

export const updateSlotAllRequest = z
  .strictObject({
    capacity: z.number().int().min(1).max(10000).optional(),
    location: optionalText(100).optional(),
  })
  .refine((body) => body.capacity !== undefined || body.location !== undefined, {
    path: ['capacity'],
    message: EVENT_TEXT.nothingToChange,
  });

export const updateSlotLocationRequest = z
  .strictObject({
    slotId: idField.optional(),
    sectionId: idField.optional(),
    teacherId: idField.optional(),
    location: optionalText(100),
  })
  .refine((body) => body.slotId !== undefined || body.sectionId !== undefined, {
    path: ['slotId'],
    message: EVENT_TEXT.slotTarget,
  });

export const eventMessageRequest = z.strictObject({
  messageTypeName: z.enum(EVENT_MESSAGE_TYPES),
  audience: z.enum(MESSAGE_AUDIENCES).default('all'),
});

export const singleRecipientMessageRequest = z.strictObject({
  eventId: idField,
  userId: idField,
  messageTypeName: z.enum(EVENT_MESSAGE_TYPES),
});

// ── responses ────────────────────────────────────────────────────────────────────────────────────────

const instant = z.string();
const group = z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]);

export const eventTypeItem = z.object({ id: z.number(), name: z.string(), groupInt: group });
export type EventTypeItem = z.infer<typeof eventTypeItem>;

export const statusLabel = z.object({
  text: z.enum(['Enabled', 'Disabled']),
  color: z.enum(['success', 'error']),
});

export const sectionSummary = z.object({
  id: z.number(),
  /** YYYY-MM-DD, HH:MM, HH:MM in the school's zone, as the admin entered them */
  date: z.string(),
  start: z.string(),
  end: z.string(),
  startsAt: instant,
  endsAt: instant,
  location: z.string().nullable(),
  /** "Thu 12 Mar 2026, 16:00 – 19:00" */
  label: z.string(),
});
export type SectionSummary = z.infer<typeof sectionSummary>;

export const eventListItem = z.object({
  id: z.number(),
  name: z.string(),
  eventTypeId: z.number(),
  eventTypeName: z.string(),
  eventTypeGroupInt: group,
  status: z.number(),
  statusLabel,
  code: z.string(),
  sections: z.array(sectionSummary),
  sectionTimeLabels: z.array(z.string()),
  bookingCountForEvent: z.number(),
  createdAt: instant,
  /** "3 days ago" */
  createdAtHuman: z.string(),
  /** "Thu 12 Mar 2026, 16:30": when, on the school's clock (issue 36). */
  createdAtLabel: z.string(),
});
export type EventListItem = z.infer<typeof eventListItem>;

export const eventsIndexResponse = z.object({
  events: z.array(eventListItem),
  eventTypes: z.array(eventTypeItem),
  message: z.string(),
});
export type EventsIndexResponse = z.infer<typeof eventsIndexResponse>;

export const createdResponse = z.object({ id: z.number(), message: z.string() });

export const slotItem = z.object({
  id: z.number(),
  startsAt: instant,
  endsAt: instant,
  /** "16:00", "16:10" in the school's zone */
  time: z.string(),
  endTime: z.string(),
  capacity: z.number(),
  bookedCount: z.number(),
  /** The slot's own location, else its teacher's, else its section's. */
  location: z.string().nullable(),
});
export type SlotItem = z.infer<typeof slotItem>;

/** One column of the slot grid: a section's slots for one teacher (teacherId null: the section's own). */
export const slotGroup = z.object({
  sectionId: z.number(),
  teacherId: z.number().nullable(),
  teacherName: z.string().nullable(),
  location: z.string().nullable(),
  slots: z.array(slotItem),
});
export type SlotGroup = z.infer<typeof slotGroup>;

export const sectionDetail = sectionSummary.extend({
  teachers: z.array(
    z.object({
      teacherId: z.number(),
      name: z.string(),
      location: z.string().nullable(),
      unavailable: z.array(z.object({ start: z.string(), end: z.string() })),
      /** Their slots in this section with a place left: who "Book for a family" can offer. */
      freeSlots: z.number(),
    }),
  ),
  slotCount: z.number(),
  bookedCount: z.number(),
});
export type SectionDetail = z.infer<typeof sectionDetail>;

export const bookingItem = z.object({
  id: z.number(),
  slotId: z.number().nullable(),
  sectionId: z.number().nullable(),
  startsAt: instant,
  endsAt: instant,
  /** "Thu 12 Mar 2026, 16:00" */
  timeLabel: z.string(),
  teacherId: z.number().nullable(),
  teacherName: z.string().nullable(),
  parentId: z.number().nullable(),
  parentName: z.string().nullable(),
  studentId: z.number().nullable(),
  studentName: z.string().nullable(),
  subjectId: z.number().nullable(),
  subjectName: z.string().nullable(),
  guests: z.number(),
  gownSize: z.string().nullable(),
  status: z.enum(['booked', 'cancelled']),
  /** The school confirmed it (events/confirm-booking). */
  confirmed: z.boolean(),
  createdAt: instant,
});
export type BookingItem = z.infer<typeof bookingItem>;

export const personRef = z.object({ id: z.number(), name: z.string(), email: z.string() });

export const recipientItem = personRef.extend({
  roles: z.array(z.enum(['parent', 'student'])),
  /** Their family has a live booking in this event (they, a child, the child's other parent, a parent). */
  booked: z.boolean(),
  /** The same for everyone of one family: "who hasn't booked" counts families, not people. */
  familyId: z.number(),
});
export type RecipientItem = z.infer<typeof recipientItem>;

export const eventOptions = z.object({
  slotMinutes: z.number(),
  breakMinutes: z.number(),
  travelMinutes: z.number(),
  usersPerSlot: z.number(),
  guestAllowance: z.number(),
  gownSizes: z.array(z.string()),
  maxAppointmentsPerChild: z.number().nullable(),
});
export type EventOptions = z.infer<typeof eventOptions>;

export const eventDetail = z.object({
  id: z.number(),
  name: z.string(),
  eventTypeId: z.number(),
  eventTypeName: z.string(),
  eventTypeGroupInt: group,
  status: z.number(),
  statusLabel,
  /** Spec §4's notice while the event is disabled, else null. */
  disabledNotice: z.string().nullable(),
  bookingPageMessage: z.string().nullable(),
  subscriberName: z.string(),
  code: z.string(),
  /** The public booking page: /book/ptevent/{code} (parent-teacher) or /book/event/{code}. */
  bookingPath: z.string(),
  bookingUrl: z.string(),
  timeZone: z.string(),
  opensAt: instant.nullable(),
  closesAt: instant.nullable(),
  /** "YYYY-MM-DDTHH:MM" in the school's zone (a datetime-local input's value) */
  opensAtLocal: z.string().nullable(),
  closesAtLocal: z.string().nullable(),
  opensAtLabel: z.string().nullable(),
  closesAtLabel: z.string().nullable(),
  options: eventOptions,
  /** The door's window: hours before the first section and after the last (issue 35). */
  scanOpensHoursBefore: z.number(),
  scanClosesHoursAfter: z.number(),
  bookingNotifications: z.boolean(),
  dayBeforeReminder: z.boolean(),
  meetingMode: z.enum(MEETING_MODES),
  guestCountOptions: z.array(z.number()),
  gownOptions: z.array(z.object({ id: z.string(), name: z.string() })),
  sections: z.array(sectionDetail),
  sectionTimeLabels: z.array(z.string()),
  /** How many are on the recipients list; the list itself comes a page at a time (events/recipients). */
  recipientCount: z.number(),
  canScanUserIds: z.array(z.number()),
  scanners: z.array(personRef),
  /** Live bookings; the bookings themselves come a page at a time (events/bookings). */
  bookingCountForEvent: z.number(),
  createdAt: instant,
  createdAtHuman: z.string(),
});
export type EventDetail = z.infer<typeof eventDetail>;

export const eventViewResponse = z.object({ event: eventDetail, eventTypes: z.array(eventTypeItem) });
export type EventViewResponse = z.infer<typeof eventViewResponse>;

export const currentEventResponse = z.object({ id: z.number() });

export const sectionSavedResponse = z.object({
  id: z.number(),
  message: z.string(),
  slotCount: z.number(),
  /** Bookings cancelled because the change the admin confirmed removed their slots. */
  cancelledBookings: z.number(),
});

/** One booking a change would cancel, in a 409's affectedBookings. */
export const affectedBooking = z.object({
  bookingId: z.number(),
  familyName: z.string(),
  teacherName: z.string().nullable(),
  startsAt: instant,
  timeLabel: z.string(),
});
export type AffectedBooking = z.infer<typeof affectedBooking>;

/**
 * 409 of the routes that can cancel bookings (section edits, timing changes, deletes): when
 * confirmRequired is true, affectedBookings lists what the change would cancel, and the same request with
 * confirm: true applies it and mails the families. Other conflicts carry only the message.
 */
export const eventConflictResponse = errorResponse.extend({
  confirmRequired: z.boolean().optional(),
  affectedBookings: z.array(affectedBooking).optional(),
});
export type EventConflict = z.infer<typeof eventConflictResponse>;

/** How many of each list a preview of recipients names (by name); the counts are of everyone. */
export const RECIPIENTS_PREVIEW_NAMES = 50;

export const recipientsPreviewResponse = z.object({
  /** The first RECIPIENTS_PREVIEW_NAMES of those the request would add, by name. */
  toAdd: z.array(personRef),
  toAddCount: z.number(),
  /** The first RECIPIENTS_PREVIEW_NAMES of those already recipients, by name. */
  alreadyAdded: z.array(personRef),
  alreadyAddedCount: z.number(),
  /** How many were saved: 0 for a preview (no saveme=1). */
  added: z.number(),
  message: z.string(),
});
/** What adding would do: the counts of everyone, and the first names of each list. */
export type RecipientsPreview = z.infer<typeof recipientsPreviewResponse>;

export const scannersResponse = z.object({ canScanUserIds: z.array(z.number()), message: z.string() });

export const peopleItemsResponse = z.object({ items: z.array(personRef) });

export const slotsUpdatedResponse = z.object({ updated: z.number(), message: z.string() });

export const bookingNotificationResponse = z.object({
  bookingNotifications: z.boolean(),
  message: z.string(),
});

export const messagesSentResponse = z.object({ sent: z.number(), message: z.string() });

/** Spec §3 Active event item. */
export const activeEventItem = z.object({
  id: z.number(),
  name: z.string(),
  bookingCountForEvent: z.number(),
  /** "in 3 days", "in 2 hours", "now" */
  timeToEvent: z.string(),
});

// ── rules ────────────────────────────────────────────────────────────────────────────────────────────

/** The public booking page of an event (spec §2 Booking layout). */
export function bookingPath(group: number, code: string): string {
  return group === EVENT_GROUPS.parentTeacher ? `/book/ptevent/${code}` : `/book/event/${code}`;
}

/** Guests a family may bring: 0..allowance. */
export function guestCountOptions(allowance: number): number[] {
  return Array.from({ length: Math.max(0, allowance) + 1 }, (_, index) => index);
}

/** An event's option columns, as the server reads them. */
export type EventOptionColumns = {
  slot_minutes: number;
  break_minutes: number;
  travel_minutes: number;
  capacity: number;
  guest_allowance: number;
  gown_sizes: string[];
  max_appointments_per_child: number | null;
};

/** An event's options, and the guest and gown choices a family gets from them. */
export function eventChoices(event: EventOptionColumns) {
  return {
    options: {
      slotMinutes: event.slot_minutes,
      breakMinutes: event.break_minutes,
      travelMinutes: event.travel_minutes,
      usersPerSlot: event.capacity,
      guestAllowance: event.guest_allowance,
      gownSizes: event.gown_sizes,
      maxAppointmentsPerChild: event.max_appointments_per_child,
    },
    guestCountOptions: guestCountOptions(event.guest_allowance),
    gownOptions: event.gown_sizes.map((size) => ({ id: size, name: size })),
  };
}

/** A section as the server reads it, to the summary every event screen shows. */
export function toSectionSummary(
  row: {
    id: number;
    date: string;
    start_time: string;
    end_time: string;
    starts_at: Date;
    ends_at: Date;
    location: string | null;
  },
  timeZone: string,
): SectionSummary {
  return {
    id: row.id,
    date: row.date,
    start: row.start_time,
    end: row.end_time,
    startsAt: row.starts_at.toISOString(),
    endsAt: row.ends_at.toISOString(),
    location: row.location,
    label: sectionLabel(row.starts_at, row.ends_at, timeZone),
  };
}
