import { ARRANGE_MAX_NEEDS } from './arrange';
import { errorResponse } from './auth';
import { bookingItem, eventOptions, sectionSummary, statusLabel } from './events';
import { idField, idParam } from './fields';
import { bookingLateNote, lateNote } from './live-schemas';
import { MEETING_MODES } from './video-calls';
import { z } from './zod';

// Booking (issue 5; spec §2 Booking layout and Home "My Events", §3 Booking form and Open event summary
// item, §4 booking flow, §7 Events booking calls, §8 booking fetch failure). Instants travel as ISO
// strings; every time a screen shows also comes as a label in the school's zone.

// ── texts ────────────────────────────────────────────────────────────────────────────────────────────

export const BOOKING_TEXT = {
  /** A code that matches no event (spec §8: the app shows it, then goes home). */
  badCode: 'This booking link is not valid. Please check the link in your email.',
  linkExpired: 'This booking link has expired. Ask the school to send a new invitation.',
  loginToBook: 'Log in to book, or open the personal link in your invitation email.',
  notOpenYet: (label: string) => `Bookings open on ${label}.`,
  closed: 'Bookings for this event are closed.',
  notYourChild: 'That student is not one of your children.',
  noChildren: 'There are no children linked to your account. Please contact the school.',
  teacherNotInEvent: 'That teacher is not taking appointments at this event.',
  slotNotInEvent: 'That time is not part of this event, or it has passed.',
  slotTaken: 'Sorry, that time has just been taken. The grid now shows the times still free.',
  overlap: 'That time overlaps another appointment for you or your child.',
  sameTeacher: 'You already have an appointment with this teacher. Change it instead of booking another.',
  travelGap: (minutes: number) => `Leave at least ${minutes} minutes between appointments.`,
  childLimit: (limit: number) =>
    `Each child can have at most ${limit} ${limit === 1 ? 'appointment' : 'appointments'} at this event.`,
  guestsOver: (allowance: number) => `You can bring at most ${allowance} guests.`,
  gownUnknown: 'Choose a gown size from the list.',
  bookingNotFound: 'Booking not found.',
  nothingToBook: 'Choose at least one time.',
  arranged: 'Here is the most compact schedule we found. Book it to keep these times.',
  booked: 'Booking confirmed.',
  changed: 'Booking changed.',
  cancelled: 'Booking cancelled.',
  confirmed: 'Booking confirmation sent.',
  gownSaved: 'Gown size saved.',
} as const;

/**
 * What the server answers when a booking changed under a request (issue 34). Apart from BOOKING_TEXT so the
 * web app, which shows the server's message, does not carry them in the booking page's bundle.
 */
export const BOOKING_STATE_TEXT = {
  alreadyCancelled: 'This booking has already been cancelled.',
  guestsAdmitted: 'Guests already admitted at the door cannot be removed from the booking.',
  noArrangement: 'No times fit between those hours. Try a wider window or fewer teachers.',
  replayed: 'Booking already made.',
  /** A disabled event, as families and students are told (the admin's notice tells staff what to do). */
  notTakingBookings:
    'This event is not taking bookings at the moment. Please check again later, or contact the school.',
} as const;

/** Spec §2 Home "My Events". */
export const MY_EVENTS_TEXT = {
  heading: 'My Events',
  viewAs: 'View as',
  noBookings: 'No bookings found.',
  noTeacherEvents: 'There are no open teacher events',
  noParentEvents: 'There are no open parent events',
  noStudentEvents: 'There are no open student events',
  roleMissing: 'Some user details missing. Hit the refresh button.',
  viewBookings: 'View bookings',
  updateBooking: 'Update booking',
  showTicket: 'Show Ticket',
  scanTickets: 'Scan Tickets',
  addToCalendar: 'Add to Calendar',
  mobileRequired: 'Mobile Device Required',
  calendarReminder: 'Reminder: 1 day before',
  /** An event with no sections yet. */
  datesToCome: 'Dates to be announced.',
} as const;

// ── fields ───────────────────────────────────────────────────────────────────────────────────────────

const id = idParam;
const instant = z.string();
const localTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Enter a time as HH:MM');

/** One appointment to see a teacher about a child and subject (spec §3 subjectTeacherData). */
export const subjectTeacherItem = z.strictObject({
  studentId: idField,
  teacherId: idField,
  subjectId: idField.nullable().default(null),
});
export type SubjectTeacherItem = z.input<typeof subjectTeacherItem>;

/** subjectTeacherData travels in a query string as JSON (spec §7): parsed and checked here. */
export const subjectTeacherData = z
  .string()
  .max(8000)
  .transform((text, context) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      context.addIssue({ code: 'custom', message: 'subjectTeacherData must be JSON' });
      return z.NEVER;
    }
  })
  .pipe(z.array(subjectTeacherItem).max(50));

// ── requests ─────────────────────────────────────────────────────────────────────────────────────────

/** GET events/book-event?code (spec §7): the booking page's data. */
export const bookEventQuery = z.strictObject({ code: z.string().trim().min(1).max(40) });
/** GET events/booking-view?eventId: the same data by id (My Events, details-parent/student). */
export const bookingViewQuery = z.strictObject({ eventId: id });

/**
 * One place to book. Parent-teacher: a teacher's slot for a child (and subject). Booking events: a slot of
 * a section. Ticketed and graduation: the event's slot, with guests and (graduation) a gown size.
 * studentId is required of a parent; a student books as themselves.
 */
export const bookingItemInput = z.strictObject({
  slotId: idField,
  studentId: idField.nullable().default(null),
  subjectId: idField.nullable().default(null),
  guests: z.number().int().min(0).max(20).default(0),
  gownSize: z.string().trim().max(20).nullable().default(null),
});
export type BookingItemInput = z.input<typeof bookingItemInput>;

/**
 * POST events/update-slot-for-booking?id (id: the event). Books `items` and cancels `cancelBookingIds`
 * (the booker's own) in one transaction: a change of time is both at once, so a failed change keeps the
 * old time. A retry with the same idempotencyKey returns the first result and books nothing more.
 */
export const updateSlotForBookingRequest = z
  .strictObject({
    items: z.array(bookingItemInput).max(50).default([]),
    cancelBookingIds: z.array(idField).max(50).default([]),
    idempotencyKey: z.string().trim().min(8).max(100),
  })
  .refine((body) => body.items.length > 0 || body.cancelBookingIds.length > 0, {
    path: ['items'],
    message: BOOKING_TEXT.nothingToBook,
  });
export type UpdateSlotForBookingRequest = z.input<typeof updateSlotForBookingRequest>;

/** POST events/arrange-slots?eventId: "arrange for me" — a proposal, booked with update-slot-for-booking. */
export const arrangeRequest = z.strictObject({
  items: z
    .array(subjectTeacherItem)
    .min(1, BOOKING_TEXT.nothingToBook)
    .max(ARRANGE_MAX_NEEDS, `Arrange at most ${ARRANGE_MAX_NEEDS} appointments at once.`),
  /** Local times in the school's zone; absent: the whole evening. */
  earliest: localTime.nullable().default(null),
  latest: localTime.nullable().default(null),
  /** The section (date) to arrange in; absent: the first one that fits. */
  sectionId: idField.nullable().default(null),
});
export type ArrangeRequest = z.input<typeof arrangeRequest>;

/** GET events/user-slots-for-pt?eventId&parentId&subjectTeacherData (spec §7): the live grid. */
export const userSlotsQuery = z.strictObject({
  eventId: id,
  parentId: id.optional(),
  subjectTeacherData: subjectTeacherData.optional(),
});

/** POST events/booking-data-for-student?eventId: a child's teachers and subjects (pre-fills the choice). */
export const bookingDataForStudentRequest = z.strictObject({ studentId: idField });
/** POST events/data-for-subject-teacher-selector: the event's teachers and their subjects. */
export const subjectTeacherSelectorRequest = z.strictObject({ eventId: idField });

/** POST events/remove-booking?eventId and events/confirm-booking?eventId. */
export const bookingIdRequest = z.strictObject({ bookingId: idField });

/**
 * POST events/update-slot-by-admin?id (id: the event): book for a family, or move a booking (bookingId)
 * to another slot. The family is mailed as if they had booked.
 */
export const updateSlotByAdminRequest = z.strictObject({
  bookingId: idField.optional(),
  slotId: idField,
  parentId: idField.nullable().default(null),
  studentId: idField.nullable().default(null),
  subjectId: idField.nullable().default(null),
  guests: z.number().int().min(0).max(20).default(0),
  gownSize: z.string().trim().max(20).nullable().default(null),
});
export type UpdateSlotByAdminRequest = z.input<typeof updateSlotByAdminRequest>;

/** POST events/update-gown-size?eventId&studentId&gownSizeId&userSlotId (spec §7; userSlotId: the booking). */
export const updateGownSizeQuery = z.strictObject({
  eventId: id,
  studentId: id,
  gownSizeId: z.string().trim().min(1).max(20),
  userSlotId: id,
});

/** GET events/details-teacher?eventId (and ?teacherId for an admin looking at one teacher). */
export const teacherScheduleQuery = z.strictObject({ eventId: id, teacherId: id.optional() });

// ── responses ────────────────────────────────────────────────────────────────────────────────────────

/** A slot as a family sees it: free or not, and whether it is theirs. */
export const bookableSlot = z.object({
  id: z.number(),
  startsAt: instant,
  endsAt: instant,
  /** "16:00" in the school's zone */
  time: z.string(),
  endTime: z.string(),
  /** Places left (capacity − parties booked). */
  free: z.number(),
  capacity: z.number(),
  /** The viewer's live booking in this slot, if any. */
  myBookingId: z.number().nullable(),
  location: z.string().nullable(),
});
export type BookableSlot = z.infer<typeof bookableSlot>;

/** A column of the grid: one teacher in one section (parent-teacher) or one section (other kinds). */
export const bookableGroup = z.object({
  sectionId: z.number(),
  /** "Thu 12 Mar 2026" */
  dateLabel: z.string(),
  teacherId: z.number().nullable(),
  teacherName: z.string().nullable(),
  subjects: z.array(z.object({ id: z.number(), name: z.string() })),
  location: z.string().nullable(),
  slots: z.array(bookableSlot),
});
export type BookableGroup = z.infer<typeof bookableGroup>;

/**
 * One of the viewer's bookings (spec §3 bookings; "userSlotId" in spec §7 is its id): the admin's booking
 * item with where and when it is, and the teacher's video link, without the admin's bookkeeping.
 */
export const myBooking = bookingItem.omit({ createdAt: true }).extend({
  /** "Thu 12 Mar 2026, 16:00 – 16:10" */
  timeLabel: z.string(),
  time: z.string(),
  endTime: z.string(),
  /** The teacher's video link, for online evenings. */
  videoUrl: z.string().nullable(),
  location: z.string().nullable(),
});
export type MyBooking = z.infer<typeof myBooking>;

export const childTeacher = z.object({
  teacherId: z.number(),
  teacherName: z.string(),
  subjectId: z.number().nullable(),
  subjectName: z.string().nullable(),
  /** The teacher has slots at this event. */
  inEvent: z.boolean(),
});
export type ChildTeacher = z.infer<typeof childTeacher>;

export const bookingChild = z.object({
  id: z.number(),
  name: z.string(),
  /** The child's teachers from the directory (pre-fills the choice); spec §7 booking-data-for-student. */
  teachers: z.array(childTeacher),
});
export type BookingChild = z.infer<typeof bookingChild>;

export const eventTeacher = z.object({
  teacherId: z.number(),
  name: z.string(),
  subjects: z.array(z.object({ id: z.number(), name: z.string() })),
  location: z.string().nullable(),
});
export type EventTeacher = z.infer<typeof eventTeacher>;

/** The booking page's event (spec §3 Event, as a family may see it). */
export const bookingEvent = z.object({
  id: z.number(),
  name: z.string(),
  code: z.string(),
  eventTypeName: z.string(),
  eventTypeGroupInt: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]),
  status: z.number(),
  statusLabel,
  subscriberName: z.string(),
  bookingPageMessage: z.string().nullable(),
  timeZone: z.string(),
  opensAt: instant.nullable(),
  closesAt: instant.nullable(),
  opensAtLabel: z.string().nullable(),
  closesAtLabel: z.string().nullable(),
  /** Bookings can be made or changed now. */
  isOpen: z.boolean(),
  /** Why not, when not: not yet open, closed, disabled. */
  closedReason: z.string().nullable(),
  options: eventOptions,
  guestCountOptions: z.array(z.number()),
  gownOptions: z.array(z.object({ id: z.string(), name: z.string() })),
  sections: z.array(sectionSummary),
  sectionTimeLabels: z.array(z.string()),
  bookingPath: z.string(),
  /** Held by video: each booking has its call in Parley (issue 41). */
  meetingMode: z.enum(MEETING_MODES),
});
export type BookingEvent = z.infer<typeof bookingEvent>;

export const bookingViewer = z.object({
  userId: z.number(),
  name: z.string(),
  email: z.string(),
  /** Booking as a parent (for children) or as a student (for themselves). */
  bookAs: z.enum(['parent', 'student']),
  /** Identified by the personal link in an invitation mail rather than a login. */
  viaLink: z.boolean(),
});
export type BookingViewer = z.infer<typeof bookingViewer>;

/** GET events/book-event?code and events/booking-view?eventId. */
export const bookingPageResponse = z.object({
  event: bookingEvent,
  /** Spec §7 "response event, studentId": the student booking as themselves, else null. */
  studentId: z.number().nullable(),
  /** Null for a visitor who is not logged in and came without a personal link. */
  viewer: bookingViewer.nullable(),
  children: z.array(bookingChild),
  teachers: z.array(eventTeacher),
  grid: z.array(bookableGroup),
  bookings: z.array(myBooking),
  /** The viewer's bookings whose teacher runs late on the night (issue 41). */
  lateNotes: z.array(bookingLateNote),
});
export type BookingPage = z.infer<typeof bookingPageResponse>;

/** GET events/user-slots-for-pt: the grid for the chosen teachers and the viewer's bookings. */
export const userSlotsResponse = z.object({ grid: z.array(bookableGroup), bookings: z.array(myBooking) });
export type UserSlots = z.infer<typeof userSlotsResponse>;

export const bookingDataForStudentResponse = z.object({
  student: bookingChild,
  bookings: z.array(myBooking),
});
export const subjectTeacherSelectorResponse = z.object({ teachers: z.array(eventTeacher) });

/** A proposed appointment of "arrange for me". */
export const arrangedItem = z.object({
  slotId: z.number(),
  studentId: z.number(),
  teacherId: z.number(),
  subjectId: z.number().nullable(),
  teacherName: z.string(),
  startsAt: instant,
  time: z.string(),
  endTime: z.string(),
});
export type ArrangedItem = z.infer<typeof arrangedItem>;
export const arrangeResponse = z.object({ items: z.array(arrangedItem), message: z.string() });

/** update-slot-for-booking, update-slot-by-admin, remove-booking, confirm-booking, update-gown-size. */
export const bookingResultResponse = z.object({
  message: z.string(),
  /** The booker's live bookings in the event after the change. */
  bookings: z.array(myBooking),
  /** Ids of the bookings this request created, or changed in place (a ticketed booking's guests). */
  created: z.array(z.number()),
});
export type BookingResult = z.infer<typeof bookingResultResponse>;

/** 409 of a lost race or a rule: the message and, for a lost slot, the fresh grid to choose again from. */
export const bookingConflictResponse = errorResponse.extend({
  grid: z.array(bookableGroup).optional(),
  bookings: z.array(myBooking).optional(),
});
export type BookingConflict = z.infer<typeof bookingConflictResponse>;

/** One row of a teacher's evening (/event/details-teacher). */
export const scheduleRow = z.object({
  slotId: z.number(),
  sectionId: z.number(),
  startsAt: instant,
  endsAt: instant,
  time: z.string(),
  endTime: z.string(),
  location: z.string().nullable(),
  bookings: z.array(
    z.object({
      bookingId: z.number(),
      parentName: z.string().nullable(),
      parentEmail: z.string().nullable(),
      studentName: z.string().nullable(),
      subjectName: z.string().nullable(),
    }),
  ),
});
export type ScheduleRow = z.infer<typeof scheduleRow>;

export const teacherScheduleResponse = z.object({
  event: z.object({
    id: z.number(),
    name: z.string(),
    subscriberName: z.string(),
    timeZone: z.string(),
    sectionTimeLabels: z.array(z.string()),
    status: z.number(),
    /** Held by video: each booked row has its call (issue 41). */
    meetingMode: z.enum(MEETING_MODES),
  }),
  teacher: z.object({ id: z.number(), name: z.string(), videoUrl: z.string().nullable() }),
  /** Per section: "Thu 12 Mar 2026" and its rows in time order, free slots included. */
  days: z.array(z.object({ sectionId: z.number(), dateLabel: z.string(), rows: z.array(scheduleRow) })),
  bookedCount: z.number(),
  /** How late the teacher says they are running (0: on time; issue 41). */
  lateMinutes: z.number(),
  /** When this was read: the page refreshes on its own. */
  asOf: instant,
});
export type TeacherSchedule = z.infer<typeof teacherScheduleResponse>;

/** Spec §3 Open event summary item (home "My Events"). */
export const openEventSummaryItem = z.object({
  id: z.number(),
  name: z.string(),
  subscriber: z.string(),
  statusLabel,
  /** Where a tap goes: event.details-teacher/-parent/-student with ?eventId. */
  link: z.string(),
  /** The booking page (Update booking). */
  bookingLink: z.string(),
  enableTicket: z.boolean(),
  eventTypeGroupInt: z.number(),
  iCanScan: z.boolean(),
  isActive: z.boolean(),
  isEnabled: z.boolean(),
  /** The first section's start, ISO. */
  eventDate: instant.nullable(),
  /** "Thu 12 Mar 2026, 16:00 – 19:00" */
  eventDetails: z.string(),
  location: z.string().nullable(),
  calendarStatus: z.enum(['added', 'notAdded']),
  teacherBookingDetails: z.string().nullable(),
  parentBookingDetails: z.string().nullable(),
  studentBookingDetails: z.string().nullable(),
  /** "3 appointments booked" / "No bookings found." */
  bookingDetails: z.string(),
  teacherBookingsCountForEvent: z.number(),
  /** "in 3 days" */
  parentTimeToBooking: z.string().nullable(),
  studentTimeToBooking: z.string().nullable(),
  /** The viewer's appointments here whose teacher runs late tonight (issue 41). */
  lateNotes: z.array(lateNote),
});
export type OpenEventSummaryItem = z.infer<typeof openEventSummaryItem>;

export const myEventsFields = z.object({
  teacherEventsCount: z.number(),
  parentEventsCount: z.number(),
  studentEventsCount: z.number(),
  teacherOpenEventsSummary: z.array(openEventSummaryItem),
  parentOpenEventsSummary: z.array(openEventSummaryItem),
  studentOpenEventsSummary: z.array(openEventSummaryItem),
});
export type MyEventsFields = z.infer<typeof myEventsFields>;

// ── rules ────────────────────────────────────────────────────────────────────────────────────────────

/** Whether bookings may be made or changed at `now`, and if not, why. */
export function bookingWindow(
  event: { status: number; opensAt: Date | null; closesAt: Date | null; lastEndsAt: Date | null },
  now: Date,
  opensAtLabel: string | null,
): { isOpen: boolean; reason: string | null } {
  if (event.status !== 1) return { isOpen: false, reason: BOOKING_STATE_TEXT.notTakingBookings };
  if (event.opensAt && now < event.opensAt)
    return { isOpen: false, reason: BOOKING_TEXT.notOpenYet(opensAtLabel ?? '') };
  const closes = event.closesAt ?? event.lastEndsAt;
  if (closes && now >= closes) return { isOpen: false, reason: BOOKING_TEXT.closed };
  return { isOpen: true, reason: null };
}

export type Appointment = { slotId: number | null; startsAt: Date; endsAt: Date; studentId: number | null };

/** Whether one person's appointments leave the travel gap between them (one slot is one appointment). */
function keepsGap(appointments: Appointment[], gap: number): boolean {
  const all = [...appointments].sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime());
  for (let i = 1; i < all.length; i++) {
    const before = all[i - 1];
    const after = all[i];
    if (
      before &&
      after &&
      before.slotId !== after.slotId &&
      after.startsAt.getTime() < before.endsAt.getTime() + gap
    )
      return false;
  }
  return true;
}

/**
 * The rule a schedule would break, or null: the travel gap between two appointments of one person (the
 * booking party, and each child — siblings sharing one slot are one appointment), and each child's limit
 * (parent-teacher events only). `childrenElsewhere` are the children's appointments that someone else
 * booked (the other parent, the child themself): the rules hold per child, whoever books.
 */
export function scheduleProblem(
  appointments: Appointment[],
  rules: { travelMinutes: number; maxPerChild: number | null },
  childrenElsewhere: Appointment[] = [],
): string | null {
  const gap = rules.travelMinutes * 60_000;
  const everything = [...appointments, ...childrenElsewhere];
  const children = [...new Set(everything.flatMap((a) => (a.studentId === null ? [] : [a.studentId])))];
  const ofChild = (child: number) => everything.filter((a) => a.studentId === child);
  if (gap > 0 && (!keepsGap(appointments, gap) || children.some((child) => !keepsGap(ofChild(child), gap))))
    return BOOKING_TEXT.travelGap(rules.travelMinutes);
  const limit = rules.maxPerChild;
  if (limit && children.some((child) => ofChild(child).length > limit)) return BOOKING_TEXT.childLimit(limit);
  return null;
}
