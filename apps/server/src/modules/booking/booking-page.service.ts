import {
  BOOKING_STATE_TEXT,
  BOOKING_TEXT,
  type BookingPage,
  type SubjectTeacherItem,
} from '@parley/domain/booking';
import { isOpen, isOpenFor, type OpenStudents } from '@parley/domain/event-access';
import { EVENT_GROUPS } from '@parley/domain/event-groups';
import { EVENT_TEXT } from '@parley/domain/events';
import { ACCESS_TEXT } from '@parley/domain/messages';
import type { AppContext } from '../../context';
import { conflict, forbidden, notFound } from '../../lib/http-error';
import * as events from '../events/events.repository';
import { lateNotesFor } from '../live/timing.service';
import { type Booker, bookerFor, bookingRole, openTo, requireOpen } from './booker';
import * as repo from './booking.repository';
import { checkStudents, eventFor, isAdmin, type Party, partyGrid, partyOf } from './booking.service';
import { bookingEventView, childrenView, myBookingView, teachersView } from './booking-views';

// Reading: the booking page, a family's live grid, one child's teachers, the teacher selector.

/** GET events/book-event?code and events/booking-view?eventId: everything the booking page needs. */
export async function bookingPage(
  ctx: AppContext,
  viewer: Booker | null,
  event: repo.BookingEventRow | undefined,
): Promise<BookingPage> {
  if (!event) throw notFound(BOOKING_TEXT.badCode);
  if (event.status !== 1) throw conflict(BOOKING_STATE_TEXT.notTakingBookings);
  const booker = bookerFor(viewer, event);
  const role = booker ? bookingRole(booker) : null;
  let party = booker && role ? partyOf(booker) : null;
  const db = ctx.db;
  let open: OpenStudents = 'all';
  if (booker && party) {
    open = await openTo(db, event, party);
    // A family the recipients leave out is refused; an admin who is also a parent still sees the page.
    if (!isOpen(open)) {
      if (!isAdmin(booker)) throw forbidden(ACCESS_TEXT.notOpenToYou);
      party = null;
    }
  }
  const [sections, user, childRows] = await Promise.all([
    events.listSections(db, event.school_id, event.id),
    party ? repo.findUser(db, event.school_id, party.userId) : Promise.resolve(undefined),
    party?.role === 'parent'
      ? repo.childrenWithTeachers(db, event.school_id, { parentId: party.userId })
      : Promise.resolve([]),
  ]);
  const isPt = event.group_int === EVENT_GROUPS.parentTeacher;
  const eventTeacherRows = isPt ? await repo.eventTeachers(db, event.school_id, event.id) : [];
  const inEvent = new Set(eventTeacherRows.map((teacher) => teacher.teacher_id));
  const children = childrenView(
    childRows.filter((row) => isOpenFor(open, row.student_id)),
    inEvent,
  );
  const preselected = children.flatMap((child) =>
    child.teachers.filter((teacher) => teacher.inEvent).map((teacher) => teacher.teacherId),
  );
  const { grid, bookings } = await partyGrid(
    db,
    event,
    party,
    isPt ? preselected : undefined,
    eventTeacherRows,
  );
  const lateNotes = isPt ? await lateNotesFor(db, event, bookings) : [];
  return {
    event: bookingEventView(event, sections, new Date()),
    studentId: party?.role === 'student' ? party.userId : null,
    viewer:
      booker && user && role
        ? { userId: user.id, name: user.name, email: user.email, bookAs: role, viaLink: booker.viaLink }
        : null,
    children,
    teachers: teachersView(eventTeacherRows),
    grid,
    bookings,
    lateNotes,
  };
}

export async function bookingPageByCode(ctx: AppContext, viewer: Booker | null, code: string) {
  return bookingPage(ctx, viewer, await repo.findEventByCode(ctx.db, code));
}

export async function bookingPageById(ctx: AppContext, booker: Booker, eventId: number) {
  return bookingPage(ctx, booker, await eventFor(ctx, booker, eventId));
}

/** GET events/user-slots-for-pt: the live grid for the chosen teachers (or all) and my bookings. */
export async function userSlots(
  ctx: AppContext,
  booker: Booker,
  eventId: number,
  items: SubjectTeacherItem[] | undefined,
  parentId?: number,
) {
  const event = await eventFor(ctx, booker, eventId);
  // An admin may look at a family's grid (parentId); a family sees their own.
  const asAdmin = parentId !== undefined && parentId !== booker.userId && isAdmin(booker);
  if (asAdmin && !(await repo.rolesOf(ctx.db, event.school_id, parentId)).includes('parent'))
    throw notFound(EVENT_TEXT.unknownRecipient);
  const party: Party = asAdmin
    ? { role: 'parent', userId: parentId, parentId, studentId: null }
    : partyOf(booker);
  await requireOpen(ctx.db, event, party);
  const teacherIds =
    event.group_int === EVENT_GROUPS.parentTeacher && items ? items.map((item) => item.teacherId) : undefined;
  const { grid, bookings } = await partyGrid(ctx.db, event, party, teacherIds);
  return { grid, bookings };
}

/** POST events/booking-data-for-student: one child's teachers (pre-fill) and the bookings for them. */
export async function bookingDataForStudent(
  ctx: AppContext,
  booker: Booker,
  eventId: number,
  studentId: number,
) {
  const event = await eventFor(ctx, booker, eventId);
  const party = partyOf(booker);
  const open = await requireOpen(ctx.db, event, party);
  await checkStudents(ctx.db, event.school_id, party, [studentId]);
  if (!isOpenFor(open, studentId)) throw forbidden(ACCESS_TEXT.notOpenForChild);
  const [rows, teachers, mine] = await Promise.all([
    repo.childrenWithTeachers(ctx.db, event.school_id, { studentId }),
    repo.eventTeachers(ctx.db, event.school_id, event.id),
    repo.partyBookings(ctx.db, event.school_id, event.id, party),
  ]);
  const [student] = childrenView(rows, new Set(teachers.map((teacher) => teacher.teacher_id)));
  if (!student) throw notFound(BOOKING_TEXT.notYourChild);
  return {
    student,
    bookings: mine
      .filter((row) => row.student_id === studentId)
      .map((row) => myBookingView(row, event.timezone)),
  };
}

/** POST events/data-for-subject-teacher-selector: the event's teachers with their subjects. */
export async function subjectTeacherSelector(ctx: AppContext, booker: Booker, eventId: number) {
  const event = await eventFor(ctx, booker, eventId);
  // A family the recipients leave out learns nothing of the event; staff may look.
  if (bookingRole(booker)) await requireOpen(ctx.db, event, partyOf(booker));
  return { teachers: teachersView(await repo.eventTeachers(ctx.db, event.school_id, event.id)) };
}
