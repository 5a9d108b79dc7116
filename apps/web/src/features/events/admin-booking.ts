import type { BookingResult, UpdateSlotByAdminRequest } from '@parley/domain/booking';
import { EVENT_GROUPS, isTicketedGroup } from '@parley/domain/event-groups';
import type { BookingItem, EventDetail, RecipientItem, SlotGroup, SlotItem } from '@parley/domain/events';
import type { PersonDetail } from '@parley/domain/people';
import { formatLocalDate } from '@parley/domain/time-zone';

// The admin's booking tools on an event page (issue 5, "Admin: book or move a slot on a family's behalf,
// confirm or remove a booking, see who has not booked yet"): which slots a booking may move to, the
// choices of "Book for a family", and the update-slot-by-admin bodies they send. No I/O here.

export const ADMIN_BOOKING_TEXT = {
  actions: 'Actions',
  actionsFor: (who: string, time: string) => `Actions for ${who}, ${time}`,
  move: 'Move',
  confirm: 'Confirm',
  confirmAgain: 'Send confirmation again',
  remove: 'Remove',
  confirmed: 'Confirmed',
  cancelled: 'Cancelled',
  showCancelled: (count: number) => `Show cancelled (${count})`,
  hideCancelled: 'Hide cancelled',
  moveTitle: 'Move booking',
  moveNow: (time: string) => `Now: ${time}`,
  newTime: 'New time',
  moveSubmit: 'Move',
  noMoveTargets: 'There are no free times to move this booking to.',
  noMoveTargetsTeacher: (teacher: string) => `${teacher} has no other free times.`,
  removeTitle: 'Remove this booking?',
  removeText: (summary: string) => `${summary}. The family is told by email.`,
  removeConfirm: 'Remove booking',
  bookForFamily: 'Book for a family',
  bookTitle: 'Book for a family',
  bookHelp: 'The family is emailed as if they had booked. Booking rules apply, but not the booking window.',
  parent: 'Parent',
  parentOrStudent: 'Parent or student',
  invitedParents: 'Invited parents',
  invitedStudents: 'Invited students',
  otherParents: 'Other parents',
  otherStudents: 'Other students',
  notBookedYet: 'not booked yet',
  child: 'Child',
  noChild: 'No child',
  noChildren: 'This parent has no children linked. Link them on the Parents page first.',
  teacher: 'Teacher',
  time: 'Time',
  subject: 'Subject (optional)',
  noSubject: 'No subject',
  guests: 'Guests',
  gown: 'Gown size',
  noGown: 'Not chosen',
  noFreeSlots: 'There are no free times left in this event.',
  book: 'Book',
  choosePerson: 'Choose a parent or student',
  chooseParent: 'Choose a parent',
  chooseChild: 'Choose a child',
  chooseTeacher: 'Choose a teacher',
  chooseTime: 'Choose a time',
  failed: 'Could not change the booking.',
  loadFailed: 'Could not load this family.',
  placesLeft: (count: number) => `${count} ${count === 1 ? 'place' : 'places'} left`,
  notBookedFilter: (families: number) =>
    `Not booked yet (${families} ${families === 1 ? 'family' : 'families'})`,
  everyoneBooked: 'Everyone on the list has booked.',
  recipientsFailed: 'Could not load the recipients. Try again in a moment.',
  bookingsFailed: 'Could not load the bookings. Try again in a moment.',
  findingTimes: 'Finding the free times…',
  searchBookings: 'Search by name',
} as const;

export const isLive = (booking: Pick<BookingItem, 'status'>) => booking.status === 'booked';

/** Who a booking is for, in one line: "Ann Day · Jo Day". */
export function familyLabel(booking: Pick<BookingItem, 'parentName' | 'studentName'>): string {
  return [booking.parentName, booking.studentName].filter(Boolean).join(' · ') || '—';
}

/** "Ann Day · Jo Day, Thu 12 Mar 2026, 16:00 with Mr Brown" (the remove dialog, the move dialog). */
export function bookingSummary(
  booking: Pick<BookingItem, 'parentName' | 'studentName' | 'timeLabel' | 'teacherName'>,
): string {
  const teacher = booking.teacherName ? ` with ${booking.teacherName}` : '';
  return `${familyLabel(booking)}, ${booking.timeLabel}${teacher}`;
}

// ── slots ────────────────────────────────────────────────────────────────────────────────────────────

export type SlotOption = {
  slotId: number;
  teacherId: number | null;
  startsAt: string;
  /** "Thu 12 Mar 2026" in the school's zone. */
  dateLabel: string;
  /**
   * "16:20–16:30", with the date in front ("Thu 12 Mar 2026 · 16:20–16:30") when the choices span
   * several dates, and the places left where a slot takes several parties.
   */
  label: string;
  free: number;
};

/** The slot grid's columns a choice is made from (events/slots), in the event's zone. */
export type SlotEvent = { slots: SlotGroup[]; timeZone: string };

const placesLeft = (slot: SlotItem) => Math.max(0, slot.capacity - slot.bookedCount);

/** Slots with a free place, in time order; only one teacher's when teacherId is given. */
export function freeSlots(
  event: SlotEvent,
  filter: { teacherId?: number | null; exceptSlotId?: number | null } = {},
): SlotOption[] {
  const inColumn = (group: SlotGroup) =>
    filter.teacherId === undefined || filter.teacherId === null || group.teacherId === filter.teacherId;
  const found = event.slots
    .filter(inColumn)
    .flatMap((group) =>
      group.slots
        .filter((slot) => placesLeft(slot) > 0 && slot.id !== filter.exceptSlotId)
        .map((slot) => ({ slot, teacherId: group.teacherId })),
    )
    .sort((a, b) => a.slot.startsAt.localeCompare(b.slot.startsAt) || a.slot.id - b.slot.id);
  const dates = found.map(({ slot }) => formatLocalDate(new Date(slot.startsAt), event.timeZone));
  const oneDate = new Set(dates).size <= 1;
  return found.map(({ slot, teacherId }, index) => {
    const dateLabel = dates[index] ?? '';
    const time = `${slot.time}–${slot.endTime}`;
    const when = oneDate ? time : `${dateLabel} · ${time}`;
    return {
      slotId: slot.id,
      teacherId,
      startsAt: slot.startsAt,
      dateLabel,
      label: slot.capacity > 1 ? `${when} · ${ADMIN_BOOKING_TEXT.placesLeft(placesLeft(slot))}` : when,
      free: placesLeft(slot),
    };
  });
}

/** The one date all these choices are on (shown once beside the list), or null when they span several. */
export function sharedDate(options: readonly SlotOption[]): string | null {
  const dates = new Set(options.map((option) => option.dateLabel));
  return dates.size === 1 ? ([...dates][0] ?? null) : null;
}

/**
 * Where a live booking may move: parent-teacher — another free slot of the same teacher (any date of the
 * event); other kinds — any other slot with a free place.
 */
export function moveTargets(
  event: SlotEvent & Pick<EventDetail, 'eventTypeGroupInt'>,
  booking: Pick<BookingItem, 'slotId' | 'teacherId' | 'status'>,
): SlotOption[] {
  if (!isLive(booking)) return [];
  const byTeacher = event.eventTypeGroupInt === EVENT_GROUPS.parentTeacher;
  if (byTeacher && booking.teacherId === null) return [];
  return freeSlots(event, {
    teacherId: byTeacher ? booking.teacherId : null,
    exceptSlotId: booking.slotId,
  });
}

/** update-slot-by-admin for a move: the booking keeps its child, subject, guests and gown. */
export function moveRequest(
  booking: Pick<BookingItem, 'id' | 'studentId' | 'subjectId' | 'guests' | 'gownSize'>,
  slotId: number,
): UpdateSlotByAdminRequest {
  return {
    bookingId: booking.id,
    slotId,
    studentId: booking.studentId,
    subjectId: booking.subjectId,
    guests: booking.guests,
    gownSize: booking.gownSize,
  };
}

// ── confirmed ────────────────────────────────────────────────────────────────────────────────────────

/** Confirmed by the view, or by a confirm-booking answered on this page before the view refetched. */
export function isConfirmed(booking: BookingItem, confirmedHere: ReadonlySet<number>): boolean {
  return booking.confirmed || confirmedHere.has(booking.id);
}

/** The ids a confirm-booking answer shows as confirmed (the one confirmed and the family's others). */
export function confirmedIdsOf(result: Pick<BookingResult, 'bookings'>, bookingId: number): number[] {
  return [...new Set([bookingId, ...result.bookings.filter((row) => row.confirmed).map((row) => row.id)])];
}

// ── book for a family ────────────────────────────────────────────────────────────────────────────────

export type FamilyRole = 'parent' | 'student';
export type FamilyOption = {
  key: string;
  id: number;
  name: string;
  email: string;
  role: FamilyRole;
  group: string;
  /** A recipient of the event who has no live booking yet. */
  notBooked: boolean;
};
type Person = { id: number; name: string; email: string };

/** Parent-teacher evenings are booked by a parent for a child; other kinds by a parent or a student. */
export const studentsMayBook = (group: number) => group !== EVENT_GROUPS.parentTeacher;

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

/**
 * Who the admin can book for: the event's recipients first, then everyone else in the school, grouped
 * (in the order Autocomplete's groupBy needs) and each person once per role.
 */
export function familyOptions(
  group: number,
  recipients: readonly RecipientItem[],
  allParents: readonly Person[] = [],
  allStudents: readonly Person[] = [],
): FamilyOption[] {
  const withStudents = studentsMayBook(group);
  const T = ADMIN_BOOKING_TEXT;
  const seen = new Set<string>();
  const take = (person: Person, role: FamilyRole, label: string, notBooked: boolean): FamilyOption[] => {
    const key = `${role}:${person.id}`;
    if (seen.has(key)) return [];
    seen.add(key);
    return [{ key, id: person.id, name: person.name, email: person.email, role, group: label, notBooked }];
  };
  const invited = (role: FamilyRole, label: string) =>
    recipients
      .filter((recipient) => recipient.roles.includes(role))
      .sort(byName)
      .flatMap((recipient) => take(recipient, role, label, !recipient.booked));
  const others = (people: readonly Person[], role: FamilyRole, label: string) =>
    [...people].sort(byName).flatMap((person) => take(person, role, label, false));
  return [
    ...invited('parent', T.invitedParents),
    ...(withStudents ? invited('student', T.invitedStudents) : []),
    ...others(allParents, 'parent', T.otherParents),
    ...(withStudents ? others(allStudents, 'student', T.otherStudents) : []),
  ];
}

export type TeacherOption = { teacherId: number; name: string; hint: string | null; free: number };

/**
 * The teachers of a parent-teacher evening with a free slot: the child's own teachers first (with the
 * subject they teach the child as a hint), then the others by name.
 */
export function teacherOptions(
  event: Pick<EventDetail, 'sections'>,
  studies: PersonDetail['studies'] = [],
): TeacherOption[] {
  const teachers = new Map<number, TeacherOption>();
  for (const teacher of event.sections.flatMap((section) => section.teachers)) {
    const known = teachers.get(teacher.teacherId);
    if (known) known.free += teacher.freeSlots;
    else
      teachers.set(teacher.teacherId, {
        teacherId: teacher.teacherId,
        name: teacher.name,
        hint: null,
        free: teacher.freeSlots,
      });
  }
  for (const study of studies) {
    const teacher = study.teacherId === null ? undefined : teachers.get(study.teacherId);
    if (teacher) teacher.hint = teacher.hint ? `${teacher.hint}, ${study.subjectName}` : study.subjectName;
  }
  return [...teachers.values()]
    .filter((teacher) => teacher.free > 0)
    .sort((a, b) => Number(b.hint !== null) - Number(a.hint !== null) || byName(a, b));
}

/** The subjects to note on a parent-teacher booking: the child's with that teacher, else all the child's. */
export function subjectOptions(
  studies: PersonDetail['studies'] = [],
  teacherId: number | null,
): Array<{ id: number; name: string }> {
  const withTeacher = studies.filter((study) => teacherId !== null && study.teacherId === teacherId);
  const chosen = withTeacher.length > 0 ? withTeacher : studies;
  const unique = new Map(chosen.map((study) => [study.subjectId, study.subjectName]));
  return [...unique].map(([id, name]) => ({ id, name })).sort(byName);
}

export type FamilyBookingValues = {
  person: FamilyOption | null;
  /** '' when none is chosen (select inputs hold strings). */
  studentId: string;
  teacherId: string;
  slotId: string;
  subjectId: string;
  guests: string;
  gownSize: string;
};

export const emptyFamilyBooking = (): FamilyBookingValues => ({
  person: null,
  studentId: '',
  teacherId: '',
  slotId: '',
  subjectId: '',
  guests: '0',
  gownSize: '',
});

export type FamilyBookingField = Exclude<keyof FamilyBookingValues, 'guests' | 'gownSize'>;
type BookingEvent = Pick<EventDetail, 'eventTypeGroupInt'>;

const idOf = (value: string): number | null => {
  const n = Number(value);
  return value !== '' && Number.isInteger(n) && n > 0 ? n : null;
};

/**
 * The update-slot-by-admin body of "Book for a family", or what is missing. Parent-teacher: a parent,
 * one of their children, a teacher's slot and an optional subject. Other kinds: a parent (and child) or
 * a student, a slot with places, guests (ticketed, graduation) and a gown size (graduation).
 */
export function familyBookingRequest(
  values: FamilyBookingValues,
  event: BookingEvent,
):
  | { ok: true; body: UpdateSlotByAdminRequest }
  | { ok: false; errors: Partial<Record<FamilyBookingField, string>> } {
  const T = ADMIN_BOOKING_TEXT;
  const group = event.eventTypeGroupInt;
  const parentTeacher = group === EVENT_GROUPS.parentTeacher;
  const errors: Partial<Record<FamilyBookingField, string>> = {};
  const person = values.person;
  if (!person || (person.role === 'student' && !studentsMayBook(group)))
    errors.person = parentTeacher ? T.chooseParent : T.choosePerson;
  const childId = idOf(values.studentId);
  if (person?.role === 'parent' && parentTeacher && childId === null) errors.studentId = T.chooseChild;
  if (parentTeacher && idOf(values.teacherId) === null) errors.teacherId = T.chooseTeacher;
  const slotId = idOf(values.slotId);
  if (slotId === null) errors.slotId = T.chooseTime;
  if (!person || slotId === null || Object.keys(errors).length > 0) return { ok: false, errors };

  const body: UpdateSlotByAdminRequest =
    person.role === 'parent'
      ? { slotId, parentId: person.id, studentId: childId }
      : { slotId, studentId: person.id };
  if (parentTeacher) body.subjectId = idOf(values.subjectId);
  if (isTicketedGroup(group)) body.guests = Math.max(0, Number(values.guests) || 0);
  if (group === EVENT_GROUPS.ceremony) body.gownSize = values.gownSize || null;
  return { ok: true, body };
}
