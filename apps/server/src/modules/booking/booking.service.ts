import { BOOKING_TEXT } from '@parley/domain/booking';
import { isOpenFor, type OpenStudents } from '@parley/domain/event-access';
import { EVENT_GROUPS } from '@parley/domain/event-groups';
import { EVENT_TEXT } from '@parley/domain/events';
import { ACCESS_TEXT, SERVER_TEXT } from '@parley/domain/messages';
import type { AppContext } from '../../context';
import type { Db } from '../../db/database';
import { forbidden, HttpError, notFound, unprocessable } from '../../lib/http-error';
import { type Booker, bookerFor, bookingRole } from './booker';
import * as repo from './booking.repository';
import { gridView, myBookingView } from './booking-views';

// What the booking use cases share (decision 009): who the party is, the event as the booker may see it,
// the family's grid, and the checks of children and bookings that more than one use case makes.

/** Who a booking belongs to: a parent (for their children) or a student (for themselves). */
export type Party = {
  role: 'parent' | 'student';
  userId: number;
  parentId: number | null;
  studentId: number | null;
};

/** An admin session (a personal link never is one). */
export const isAdmin = (booker: Booker) => booker.roles.includes('admin') && !booker.viaLink;

export function partyOf(booker: Booker): Party {
  const role = bookingRole(booker);
  if (!role) throw forbidden(SERVER_TEXT.forbidden);
  return role === 'parent'
    ? { role, userId: booker.userId, parentId: booker.userId, studentId: null }
    : { role, userId: booker.userId, parentId: null, studentId: booker.userId };
}

export async function eventFor(ctx: AppContext, booker: Booker, eventId: number) {
  const event = await repo.findEventById(ctx.db, booker.schoolId, eventId);
  if (!event || !bookerFor(booker, event)) throw notFound(EVENT_TEXT.notFound);
  return event;
}

/** Every item's student must be one the event is open to (a field error names the first that is not). */
export function checkOpenFor(open: OpenStudents, studentIds: Array<number | null>) {
  const index = studentIds.findIndex((id) => !isOpenFor(open, id));
  if (index >= 0)
    throw unprocessable(ACCESS_TEXT.notOpenForChild, {
      [`items.${index}.studentId`]: [ACCESS_TEXT.notOpenForChild],
    });
}

// ── reading ──────────────────────────────────────────────────────────────────────────────────────────

/**
 * The grid a family sees and their bookings. A parent-teacher grid shows the teachers asked for (by id,
 * or those of some slots) and those already booked; other events show every slot.
 */
export async function partyGrid(
  db: Db,
  event: repo.BookingEventRow,
  party: Party | null,
  teachers: repo.GridTeachers | undefined,
  /** The teachers' subjects head each column: given when already read, 'skip' for a lost race's answer. */
  subjects: repo.EventTeacherRow[] | 'load' | 'skip' = 'load',
) {
  const [eventTeachers, mine] = await Promise.all([
    Array.isArray(subjects)
      ? subjects
      : subjects === 'load' && event.group_int === EVENT_GROUPS.parentTeacher
        ? repo.eventTeachers(db, event.school_id, event.id)
        : Promise.resolve([]),
    party ? repo.partyBookings(db, event.school_id, event.id, party) : Promise.resolve([]),
  ]);
  const booked = mine.flatMap((b) => (b.teacher_id ? [b.teacher_id] : []));
  const wanted =
    teachers === undefined
      ? undefined
      : Array.isArray(teachers)
        ? [...new Set([...teachers, ...booked])]
        : { ofSlots: teachers.ofSlots, also: booked };
  const slots = await repo.gridSlots(db, event.school_id, event.id, wanted);
  return {
    grid: gridView(slots, mine, eventTeachers, event.timezone),
    bookings: mine.map((row) => myBookingView(row, event.timezone)),
  };
}

// ── writing ──────────────────────────────────────────────────────────────────────────────────────────

/** Every student must be one of the parent's children (or, for a student, themselves). */
export function checkChildren(party: Party, children: ReadonlySet<number>, studentIds: Array<number | null>) {
  if (party.role === 'student') {
    if (studentIds.some((id) => id !== null && id !== party.userId))
      throw forbidden(BOOKING_TEXT.notYourChild);
    return;
  }
  if (children.size === 0 && studentIds.some((id) => id !== null))
    throw unprocessable(BOOKING_TEXT.noChildren);
  studentIds.forEach((id, index) => {
    if (id === null || !children.has(id))
      throw unprocessable(BOOKING_TEXT.notYourChild, {
        [`items.${index}.studentId`]: [BOOKING_TEXT.notYourChild],
      });
  });
}

export async function checkStudents(
  db: Db,
  schoolId: number,
  party: Party,
  studentIds: Array<number | null>,
) {
  const children =
    party.role === 'parent' ? await repo.childIds(db, schoolId, party.userId) : new Set<number>();
  checkChildren(party, children, studentIds);
}

/** A live booking of the event, or 404. */
export async function liveBooking(db: Db, schoolId: number, eventId: number, bookingId: number) {
  const [booking] = await repo.bookingsById(db, schoolId, eventId, [bookingId]);
  if (booking?.status !== 'booked') throw notFound(BOOKING_TEXT.bookingNotFound);
  return booking;
}

/** The party a booking belongs to, for an admin acting on it. */
export function partyOfBooking(booking: { parent_id: number | null; student_id: number | null }): Party {
  if (booking.parent_id !== null)
    return { role: 'parent', userId: booking.parent_id, parentId: booking.parent_id, studentId: null };
  if (booking.student_id !== null)
    return { role: 'student', userId: booking.student_id, parentId: null, studentId: booking.student_id };
  throw notFound(BOOKING_TEXT.bookingNotFound);
}

/** A booker is required for everything but the page itself. */
export function requireBooker(booker: Booker | null): Booker {
  // 401 without the logout action: a visitor without a session has nothing to log out of.
  if (!booker) throw new HttpError(401, BOOKING_TEXT.loginToBook);
  return booker;
}
