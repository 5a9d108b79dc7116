import { type ArrangeNeed, arrangeSchedule } from '@parley/domain/arrange';
import {
  type ArrangeRequest,
  BOOKING_TEXT,
  type BookingPage,
  type BookingResult,
  type SubjectTeacherItem,
  scheduleProblem,
  type UpdateSlotByAdminRequest,
  type UpdateSlotForBookingRequest,
} from '@parley/domain/booking';
import { isOpen, isOpenFor, type OpenStudents } from '@parley/domain/event-access';
import { EVENT_GROUPS, isTicketedGroup } from '@parley/domain/event-groups';
import { EVENT_TEXT } from '@parley/domain/events';
import { ACCESS_TEXT, SERVER_TEXT } from '@parley/domain/messages';
import { formatLocalTime, localToInstant } from '@parley/domain/time-zone';
import type { AppContext } from '../../context';
import type { Db } from '../../db/database';
import type { Actor } from '../../lib/actor';
import { conflict, forbidden, HttpError, notFound, unprocessable } from '../../lib/http-error';
import { withTransactionRetry } from '../../lib/transaction-retry';
import { recordAudit } from '../audit/audit.service';
import { bookingChangeEntry, bookingEntry } from '../audit/audit-entries';
import * as events from '../events/events.repository';
import { issueTickets } from '../tickets/tickets.service';
import { type Booker, bookerFor, bookingRole, openFrom, openTo, requireOpen } from './booker';
import * as repo from './booking.repository';
import { mailBookingChange } from './booking-mails';
import { bookingEventView, childrenView, gridView, myBookingView, teachersView } from './booking-views';

// The booking flow (issue 5, decision 009). A change runs in one transaction: the event FOR SHARE and the
// family's row in one locking read, then the family's holdings, the new rows, the answer and the mail,
// and last the places (the conditional UPDATE). Capacity, "one slot per parent per teacher" and "no
// overlapping appointments" are PostgreSQL's (the conditional UPDATE, the CHECK behind it, exclusion
// constraints); a request that loses gets 409 with the message and the fresh grid. A family's booking
// first reads without locks (one statement): when a slot it asks for is already full, that read is its
// 409 and no transaction starts. The hot statements are compiled once (booking.repository.ts).

/** Who a booking belongs to: a parent (for their children) or a student (for themselves). */
type Party = {
  role: 'parent' | 'student';
  userId: number;
  parentId: number | null;
  studentId: number | null;
};

/** An admin session (a personal link never is one). */
const isAdmin = (booker: Booker) => booker.roles.includes('admin') && !booker.viaLink;

function partyOf(booker: Booker): Party {
  const role = bookingRole(booker);
  if (!role) throw forbidden(SERVER_TEXT.forbidden);
  return role === 'parent'
    ? { role, userId: booker.userId, parentId: booker.userId, studentId: null }
    : { role, userId: booker.userId, parentId: null, studentId: booker.userId };
}

async function eventFor(ctx: AppContext, booker: Booker, eventId: number) {
  const event = await repo.findEventById(ctx.db, booker.schoolId, eventId);
  if (!event || !bookerFor(booker, event)) throw notFound(EVENT_TEXT.notFound);
  return event;
}

/** Every item's student must be one the event is open to (a field error names the first that is not). */
function checkOpenFor(open: OpenStudents, studentIds: Array<number | null>) {
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
async function partyGrid(
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

/** GET events/book-event?code and events/booking-view?eventId: everything the booking page needs. */
export async function bookingPage(
  ctx: AppContext,
  viewer: Booker | null,
  event: repo.BookingEventRow | undefined,
): Promise<BookingPage> {
  if (!event) throw notFound(BOOKING_TEXT.badCode);
  if (event.status !== 1) throw conflict(EVENT_TEXT.disabledNotice);
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
  if (asAdmin && !(await repo.rolesOf(ctx.db, parentId)).includes('parent'))
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

// ── arrange for me ───────────────────────────────────────────────────────────────────────────────────

/** POST events/arrange-slots: the most compact schedule of free slots for the chosen teachers. */
export async function arrange(ctx: AppContext, booker: Booker, eventId: number, body: ArrangeRequest) {
  const event = await eventFor(ctx, booker, eventId);
  const party = partyOf(booker);
  const items = body.items.map((item) => ({ ...item, subjectId: item.subjectId ?? null }));
  // A family the recipients leave out is refused before anything about its children is said.
  const open = await requireOpen(ctx.db, event, party);
  await checkStudents(
    ctx.db,
    event.school_id,
    party,
    items.map((item) => item.studentId),
  );
  checkOpenFor(
    open,
    items.map((item) => item.studentId),
  );
  const [slots, mine, sections] = await Promise.all([
    repo.gridSlots(
      ctx.db,
      event.school_id,
      event.id,
      items.map((item) => item.teacherId),
    ),
    repo.partyBookings(ctx.db, event.school_id, event.id, party),
    events.listSections(ctx.db, event.school_id, event.id),
  ]);
  const zone = event.timezone;
  const tried = body.sectionId ? sections.filter((section) => section.id === body.sectionId) : sections;
  for (const section of tried) {
    const earliest = body.earliest ? localToInstant(section.date, body.earliest, zone) : null;
    const latest = body.latest ? localToInstant(section.date, body.latest, zone) : null;
    // One appointment per teacher: siblings who share a teacher are seen together in one slot.
    const needs: ArrangeNeed[] = [...new Set(items.map((item) => item.teacherId))].map((teacherId) => ({
      key: String(teacherId),
      candidates: slots
        .filter(
          (slot) =>
            slot.section_id === section.id &&
            slot.teacher_id === teacherId &&
            slot.booked_count < slot.capacity,
        )
        .map((slot) => ({ slotId: slot.id, startsAt: slot.starts_at, endsAt: slot.ends_at })),
    }));
    const picks = arrangeSchedule({
      needs,
      busy: mine.map((booking) => ({ startsAt: booking.starts_at, endsAt: booking.ends_at })),
      travelMinutes: event.travel_minutes,
      earliest,
      latest,
    });
    if (!picks) continue;
    const names = new Map(slots.map((slot) => [slot.id, slot.teacher_name ?? '']));
    const byTeacher = new Map(picks.map((pick) => [Number(pick.key), pick]));
    return {
      message: BOOKING_TEXT.arranged,
      items: items
        .flatMap((item) => {
          const pick = byTeacher.get(item.teacherId);
          if (!pick) return [];
          return [
            {
              slotId: pick.slotId,
              studentId: item.studentId,
              teacherId: item.teacherId,
              subjectId: item.subjectId,
              teacherName: names.get(pick.slotId) ?? '',
              startsAt: pick.startsAt.toISOString(),
              time: formatLocalTime(pick.startsAt, zone),
              endTime: formatLocalTime(pick.endsAt, zone),
            },
          ];
        })
        .sort((a, b) => a.startsAt.localeCompare(b.startsAt) || a.studentId - b.studentId),
    };
  }
  throw conflict(BOOKING_TEXT.noArrangement);
}

// ── writing ──────────────────────────────────────────────────────────────────────────────────────────

/** Every student must be one of the parent's children (or, for a student, themselves). */
function checkChildren(party: Party, children: ReadonlySet<number>, studentIds: Array<number | null>) {
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

async function checkStudents(db: Db, schoolId: number, party: Party, studentIds: Array<number | null>) {
  const children =
    party.role === 'parent' ? await repo.childIds(db, schoolId, party.userId) : new Set<number>();
  checkChildren(party, children, studentIds);
}

/** A rule the database reported (23P01 exclusion, 23514 check) as the family's 409. */
function constraintConflict(error: unknown): HttpError | null {
  const { code, constraint } = (error ?? {}) as { code?: string; constraint?: string };
  if (code === '23P01') {
    if (constraint === 'bookings_parent_teacher_once' || constraint === 'bookings_student_teacher_once')
      return conflict(BOOKING_TEXT.sameTeacher);
    return conflict(BOOKING_TEXT.overlap);
  }
  if (code === '23514' && constraint === 'slots_booked_count') return conflict(BOOKING_TEXT.slotTaken);
  return null;
}

const isReplay = (error: unknown) =>
  (error as { code?: string; constraint?: string })?.code === '23505' &&
  (error as { constraint?: string }).constraint === 'bookings_idempotency_key';

type ChangeItem = {
  slotId: number;
  studentId: number | null;
  subjectId: number | null;
  guests: number;
  gownSize: string | null;
};

type Change = {
  items: ChangeItem[];
  cancelBookingIds: number[];
  idempotencyKey: string | null;
  /** Admins may book outside the booking window and for any family. */
  byAdmin: boolean;
  /** Who acts for the family (byAdmin): the change goes in the audit trail. */
  actor?: Actor;
};

/** Field checks of the items that need no database: guests and gown size within the event's options. */
function checkItems(event: repo.BookingEventRow, items: ChangeItem[]) {
  items.forEach((item, index) => {
    if (item.guests > event.guest_allowance)
      throw unprocessable(BOOKING_TEXT.guestsOver(event.guest_allowance), {
        [`items.${index}.guests`]: [BOOKING_TEXT.guestsOver(event.guest_allowance)],
      });
    if (item.gownSize && !event.gown_sizes.includes(item.gownSize))
      throw unprocessable(BOOKING_TEXT.gownUnknown, {
        [`items.${index}.gownSize`]: [BOOKING_TEXT.gownUnknown],
      });
  });
}

type Outcome = BookingResult & { replayed: boolean };

/**
 * Books and cancels for one party, inside runChange's transaction, after the event and the party are
 * locked. Statements: the party's holdings with the slots asked for (one read), [the cancellation], the
 * INSERT with the party's bookings after it (one statement), the outbox rows, and last the conditional
 * UPDATE taking places.
 */
async function applyChange(
  ctx: AppContext,
  trx: Db,
  event: repo.BookingEventRow,
  party: Party,
  family: repo.PartyRow,
  actorId: number,
  change: Change,
): Promise<Outcome> {
  const schoolId = event.school_id;
  // One read: what the party holds and the slots asked for (those it holds are left out below).
  const asked = [...new Set(change.items.map((item) => item.slotId))];
  const { holdings, slots: askedSlots } = await repo.partyHoldingsAndSlots(
    trx,
    schoolId,
    event.id,
    party,
    change.idempotencyKey,
    asked,
  );
  const replay = change.idempotencyKey
    ? holdings.filter((b) => b.idempotency_key === change.idempotencyKey)
    : [];
  if (replay.length > 0) {
    const mine = await repo.partyBookings(trx, schoolId, event.id, party);
    return {
      message: BOOKING_TEXT.replayed,
      bookings: mine.map((row) => myBookingView(row, event.timezone)),
      created: replay.map((row) => row.id),
      replayed: true,
    };
  }
  const live = holdings.filter((b) => b.status === 'booked');
  const liveIds = new Set(live.map((b) => b.id));
  if (change.cancelBookingIds.some((id) => !liveIds.has(id))) throw notFound(BOOKING_TEXT.bookingNotFound);
  const kept = live.filter((b) => !change.cancelBookingIds.includes(b.id));
  const cancelled =
    change.cancelBookingIds.length > 0
      ? await repo.partyBookings(trx, schoolId, event.id, party, { bookingIds: change.cancelBookingIds })
      : [];
  await repo.cancelBookingRows(trx, schoolId, change.cancelBookingIds);

  // Places per slot, before and after the change: a party takes one place in a slot however many of its
  // children it brings (siblings seen together share one); at a ticketed event a place is a person, so a
  // booking takes one for the attendee and one per guest. The difference is taken or given back.
  const ticketed = isTicketedGroup(event.group_int);
  const placesIn = (bookings: Array<{ slot_id: number | null; guests: number }>) => {
    const bySlot = new Map<number, number>();
    for (const b of bookings) {
      if (b.slot_id === null) continue;
      bySlot.set(b.slot_id, ticketed ? (bySlot.get(b.slot_id) ?? 0) + 1 + b.guests : 1);
    }
    return bySlot;
  };
  const held = new Map(kept.flatMap((b) => (b.slot_id ? [[b.slot_id, b] as const] : [])));
  const placesBefore = placesIn([...kept, ...cancelled]);
  const placesAfter = placesIn([
    ...kept,
    ...change.items.map((item) => ({ slot_id: item.slotId, guests: item.guests })),
  ]);
  const deltas = [...new Set([...placesBefore.keys(), ...placesAfter.keys()])].map((slotId) => ({
    slotId,
    count: (placesAfter.get(slotId) ?? 0) - (placesBefore.get(slotId) ?? 0),
  }));
  const toTake = deltas.filter((d) => d.count > 0).sort((a, b) => a.slotId - b.slotId);
  const toRelease = deltas.filter((d) => d.count < 0).map((d) => ({ slotId: d.slotId, count: -d.count }));
  // Slots booked anew are read without locking them: a slot not in this event is the family's mistake
  // (422), and one without room loses at once. The places themselves are taken last (below), so a hot
  // slot's row lock is held for the commit only, not for the whole change.
  const known = new Set([...kept, ...cancelled].flatMap((b) => (b.slot_id ? [b.slot_id] : [])));
  const fresh = asked.filter((id) => !known.has(id));
  const slots = askedSlots.filter((slot) => !known.has(slot.id));
  const missing = change.items.findIndex(
    (item) => fresh.includes(item.slotId) && !slots.some((slot) => slot.id === item.slotId),
  );
  if (missing >= 0)
    throw unprocessable(BOOKING_TEXT.slotNotInEvent, {
      [`items.${missing}.slotId`]: [BOOKING_TEXT.slotNotInEvent],
    });
  const needs = new Map(toTake.map((d) => [d.slotId, d.count]));
  if (slots.some((slot) => slot.booked_count + (needs.get(slot.id) ?? 0) > slot.capacity))
    throw conflict(BOOKING_TEXT.slotTaken);
  const slotOf = new Map<number, { teacher_id: number | null; starts_at: Date; ends_at: Date }>([
    ...held,
    ...cancelled.flatMap((b) => (b.slot_id ? [[b.slot_id, b] as const] : [])),
    ...slots.map((slot) => [slot.id, slot] as const),
  ]);
  const rows: repo.NewBooking[] = change.items.map((item) => {
    const slot = slotOf.get(item.slotId);
    if (!slot) throw new Error('a booked slot has no times');
    return {
      school_id: schoolId,
      event_id: event.id,
      slot_id: item.slotId,
      teacher_id: slot.teacher_id,
      starts_at: slot.starts_at,
      ends_at: slot.ends_at,
      parent_id: party.parentId,
      student_id: party.role === 'student' ? party.userId : item.studentId,
      subject_id: event.group_int === EVENT_GROUPS.parentTeacher ? item.subjectId : null,
      guests: item.guests,
      gown_size: item.gownSize,
      booked_by: actorId,
      idempotency_key: change.idempotencyKey,
    };
  });
  const appointment = (b: {
    slot_id: number | null;
    starts_at: Date;
    ends_at: Date;
    student_id: number | null;
  }) => ({
    slotId: b.slot_id,
    startsAt: b.starts_at,
    endsAt: b.ends_at,
    studentId: b.student_id,
  });
  const rules = {
    travelMinutes: event.travel_minutes,
    maxPerChild: event.group_int === EVENT_GROUPS.parentTeacher ? event.max_appointments_per_child : null,
  };
  // The rules hold per child, whoever books: a parent's children are locked (the other parent waits) and
  // what others booked for them counts. Only when there is a rule to keep.
  const children = [...new Set(rows.flatMap((row) => (row.student_id === null ? [] : [row.student_id])))];
  let elsewhere: Array<ReturnType<typeof appointment>> = [];
  if (party.role === 'parent' && children.length > 0 && (rules.travelMinutes > 0 || rules.maxPerChild)) {
    await repo.lockChildren(trx, schoolId, children);
    elsewhere = (await repo.childrenBookedElsewhere(trx, schoolId, event.id, children, party.userId)).map(
      appointment,
    );
  }
  const problem = scheduleProblem([...kept.map(appointment), ...rows.map(appointment)], rules, elsewhere);
  if (problem) throw conflict(problem);
  const { created, after } = await repo.insertAndReadBookings(trx, schoolId, event.id, party, rows);
  // A ticketed event's bookings carry their tickets (a cancelled one's are voided by a trigger).
  const tickets = isTicketedGroup(event.group_int)
    ? await issueTickets(
        trx,
        schoolId,
        event.id,
        rows.map((row, index) => ({ ...row, id: created[index] ?? 0 })),
      )
    : [];
  const createdRows = after.filter((row) => created.includes(row.id));
  if (change.byAdmin && change.actor)
    await recordAudit(trx, change.actor, bookingChangeEntry(event, createdRows, cancelled));
  await mailBookingChange(ctx, trx, event, family, {
    created: createdRows,
    cancelled,
    all: after,
    tickets,
  });

  // Last, the places: the conditional UPDATE is the capacity rule (the CHECK stands behind it). Several
  // slots are locked in id order first, so two families booking the same pair never deadlock.
  await repo.lockSlotsInOrder(
    trx,
    [...toRelease, ...toTake].map((d) => d.slotId),
  );
  await repo.releasePlaces(trx, schoolId, toRelease);
  const taken = await repo.takePlaces(trx, schoolId, event.id, toTake);
  if (taken.length < toTake.length) throw conflict(BOOKING_TEXT.slotTaken);
  const message =
    created.length > 0 && cancelled.length > 0
      ? BOOKING_TEXT.changed
      : created.length > 0
        ? BOOKING_TEXT.booked
        : BOOKING_TEXT.cancelled;
  return {
    message,
    bookings: after.map((row) => myBookingView(row, event.timezone)),
    created,
    replayed: false,
  };
}

type Locked = NonNullable<Awaited<ReturnType<typeof repo.lockEventAndParty>>>;

/**
 * What a change must pass before it books, given the event and the party (locked, or peeked at): the
 * booking window, the recipients, the items' fields and children. Throws the first that fails.
 */
function checkChange(party: Party, change: Change, locked: Locked): void {
  if (!change.byAdmin) {
    const view = bookingEventView(locked.event, [], new Date());
    if (!view.isOpen) throw conflict(view.closedReason ?? BOOKING_TEXT.closed);
  }
  // New bookings, the family's or an admin's on their behalf, only for whom the recipients allow: a
  // family left out is refused before anything is said about its children.
  const open = change.items.length > 0 ? openFrom(locked.recipients, party) : 'all';
  if (!isOpen(open)) throw forbidden(ACCESS_TEXT.notOpenToYou);
  checkItems(locked.event, change.items);
  checkChildren(
    party,
    new Set(locked.family.children),
    change.items.map((item) => item.studentId),
  );
  if (
    party.role === 'parent' &&
    locked.event.group_int === EVENT_GROUPS.parentTeacher &&
    change.items.some((item) => item.studentId === null)
  )
    throw unprocessable(BOOKING_TEXT.notYourChild, {
      'items.0.studentId': [BOOKING_TEXT.notYourChild],
    });
  checkOpenFor(
    open,
    change.items.map((item) => (party.role === 'student' ? party.userId : item.studentId)),
  );
}

/** Whether a peeked change would pass checkChange (the transaction runs it again for its errors). */
function passesChecks(booker: Booker, party: Party, change: Change, peeked: Locked): boolean {
  if (!bookerFor(booker, peeked.event)) return false;
  try {
    checkChange(party, change, peeked);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs a change in one transaction (decision 009): the event FOR SHARE, then the party's row, then
 * applyChange. A lost race or a broken rule comes back as 409 with the fresh grid.
 */
async function runChange(
  ctx: AppContext,
  booker: Booker,
  eventId: number,
  party: Party,
  change: Change,
  retried = false,
): Promise<BookingResult> {
  let seen: repo.BookingEventRow | undefined;
  try {
    const slotIds = [...new Set(change.items.map((item) => item.slotId))];
    // A family's booking first reads without locks: when a slot it asks for is already full (half the
    // attempts in a rush) and nothing else stands in the way, that read is the 409's answer, and no
    // transaction starts. Otherwise the transaction checks everything again under its locks.
    if (!change.byAdmin && slotIds.length > 0 && !retried) {
      const peeked = await repo.peekEventAndParty(ctx.db, booker.schoolId, eventId, party, slotIds);
      if (peeked?.lost && peeked.fullSlots.length > 0 && passesChecks(booker, party, change, peeked)) {
        const { event, lost } = peeked;
        const grid =
          event.group_int === EVENT_GROUPS.parentTeacher
            ? { grid: gridView(lost.slots, lost.bookings, [], event.timezone) }
            : await partyGrid(ctx.db, event, party, undefined, 'skip');
        throw new HttpError(409, BOOKING_TEXT.slotTaken, undefined, {
          grid: grid.grid,
          bookings: lost.bookings.map((row) => myBookingView(row, event.timezone)),
        });
      }
    }
    // A deadlock (two families' changes crossing) is retried here, not handed to the family as a 503.
    const result = await withTransactionRetry(() =>
      ctx.db.transaction().execute(async (trx) => {
        const locked = await repo.lockEventAndParty(trx, booker.schoolId, eventId, party, slotIds);
        if (!locked || (!change.byAdmin && !bookerFor(booker, locked.event)))
          throw notFound(EVENT_TEXT.notFound);
        const { event, family } = locked;
        seen = event;
        checkChange(party, change, locked);
        if (locked.fullSlots.length > 0) throw conflict(BOOKING_TEXT.slotTaken);
        return applyChange(ctx, trx, event, party, family, booker.userId, change);
      }),
    );
    return { message: result.message, bookings: result.bookings, created: result.created };
  } catch (error) {
    if (isReplay(error) && change.idempotencyKey && !retried) {
      // The same request committed in parallel: answer (once) with what it made.
      return runChange(ctx, booker, eventId, party, change, true);
    }
    const rule = error instanceof HttpError ? error : constraintConflict(error);
    if (!rule) throw error;
    if (rule.statusCode !== 409 || change.byAdmin || !seen) throw rule;
    const fresh = await lostRaceAnswer(ctx.db, seen, party, change.items);
    throw new HttpError(409, rule.message, rule.errors, fresh);
  }
}

/**
 * What a family that lost (a race or a rule) chooses again from: at a parent-teacher evening the columns
 * of the teachers it asked for and of those it has booked, with its bookings (one statement compiled
 * once); elsewhere the event's grid.
 */
async function lostRaceAnswer(db: Db, event: repo.BookingEventRow, party: Party, items: ChangeItem[]) {
  if (event.group_int !== EVENT_GROUPS.parentTeacher) return partyGrid(db, event, party, undefined, 'skip');
  const slotIds = [...new Set(items.map((item) => item.slotId))];
  const { slots, bookings: mine } = await repo.lostRaceColumns(db, event.school_id, event.id, party, slotIds);
  return {
    grid: gridView(slots, mine, [], event.timezone),
    bookings: mine.map((row) => myBookingView(row, event.timezone)),
  };
}

/** POST events/update-slot-for-booking?id: book, change (book + cancel) or cancel, for the booker's family. */
export function updateSlotForBooking(
  ctx: AppContext,
  booker: Booker,
  eventId: number,
  body: UpdateSlotForBookingRequest,
) {
  const party = partyOf(booker);
  return runChange(ctx, booker, eventId, party, {
    items: (body.items ?? []).map((item) => ({
      slotId: item.slotId,
      studentId: item.studentId ?? null,
      subjectId: item.subjectId ?? null,
      guests: item.guests ?? 0,
      gownSize: item.gownSize ?? null,
    })),
    cancelBookingIds: body.cancelBookingIds ?? [],
    idempotencyKey: body.idempotencyKey,
    byAdmin: false,
  });
}

/** A live booking of the event, or 404. */
async function liveBooking(db: Db, schoolId: number, eventId: number, bookingId: number) {
  const [booking] = await repo.bookingsById(db, schoolId, eventId, [bookingId]);
  if (booking?.status !== 'booked') throw notFound(BOOKING_TEXT.bookingNotFound);
  return booking;
}

/** The party a booking belongs to, for an admin acting on it. */
function partyOfBooking(booking: { parent_id: number | null; student_id: number | null }): Party {
  if (booking.parent_id !== null)
    return { role: 'parent', userId: booking.parent_id, parentId: booking.parent_id, studentId: null };
  if (booking.student_id !== null)
    return { role: 'student', userId: booking.student_id, parentId: null, studentId: booking.student_id };
  throw notFound(BOOKING_TEXT.bookingNotFound);
}

/**
 * POST events/remove-booking?eventId: a family cancels their own booking while booking is open; an admin
 * removes any booking of the school's event. The family is told either way.
 */
export async function removeBooking(
  ctx: AppContext,
  booker: Booker,
  eventId: number,
  bookingId: number,
  actor: Actor,
) {
  const admin = isAdmin(booker);
  const booking = await liveBooking(ctx.db, booker.schoolId, eventId, bookingId);
  const own = bookingRole(booker) !== null ? partyOf(booker) : null;
  const ownsIt =
    own !== null &&
    ((own.role === 'parent' && booking.parent_id === own.userId) ||
      (own.role === 'student' && booking.student_id === own.userId));
  if (!ownsIt && !admin) throw notFound(BOOKING_TEXT.bookingNotFound);
  const party = ownsIt && own ? own : partyOfBooking(booking);
  return runChange(ctx, booker, eventId, party, {
    items: [],
    cancelBookingIds: [bookingId],
    idempotencyKey: null,
    byAdmin: !ownsIt,
    actor,
  });
}

/** POST events/update-slot-by-admin?id: book for a family or move one of their bookings. */
export async function updateSlotByAdmin(
  ctx: AppContext,
  booker: Booker,
  eventId: number,
  body: UpdateSlotByAdminRequest,
  actor: Actor,
) {
  let party: Party;
  let studentId = body.studentId ?? null;
  let subjectId = body.subjectId ?? null;
  if (body.bookingId !== undefined) {
    // A move keeps the child and subject unless the admin changes them.
    const booking = await liveBooking(ctx.db, booker.schoolId, eventId, body.bookingId);
    party = partyOfBooking(booking);
    studentId ??= booking.student_id;
    subjectId ??= booking.subject_id;
  } else if (body.parentId) {
    party = { role: 'parent', userId: body.parentId, parentId: body.parentId, studentId: null };
  } else if (body.studentId) {
    party = { role: 'student', userId: body.studentId, parentId: null, studentId: body.studentId };
  } else {
    throw unprocessable(SERVER_TEXT.invalidInput, { parentId: ['Choose a parent or a student.'] });
  }
  const [roles, user] = await Promise.all([
    repo.rolesOf(ctx.db, party.userId),
    repo.findUser(ctx.db, booker.schoolId, party.userId),
  ]);
  if (!user || !roles.includes(party.role))
    throw unprocessable(EVENT_TEXT.unknownRecipient, { parentId: [EVENT_TEXT.unknownRecipient] });
  if (party.role === 'parent' && studentId) {
    const children = await repo.childIds(ctx.db, booker.schoolId, party.userId);
    if (!children.has(studentId))
      throw unprocessable(BOOKING_TEXT.notYourChild, { studentId: [BOOKING_TEXT.notYourChild] });
  }
  return runChange(ctx, booker, eventId, party, {
    items: [
      {
        slotId: body.slotId,
        studentId,
        subjectId,
        guests: body.guests ?? 0,
        gownSize: body.gownSize ?? null,
      },
    ],
    cancelBookingIds: body.bookingId !== undefined ? [body.bookingId] : [],
    idempotencyKey: null,
    byAdmin: true,
    actor,
  });
}

/** POST events/confirm-booking?eventId: the school confirms a booking; the family gets the confirmation. */
export async function confirmBooking(
  ctx: AppContext,
  schoolId: number,
  eventId: number,
  bookingId: number,
  actor: Actor,
) {
  return ctx.db.transaction().execute(async (trx) => {
    const event = await repo.findEventById(trx, schoolId, eventId);
    if (!event) throw notFound(EVENT_TEXT.notFound);
    const booking = await liveBooking(trx, schoolId, eventId, bookingId);
    await repo.markConfirmed(trx, schoolId, bookingId);
    const party = partyOfBooking(booking);
    const family = await repo.lockParty(trx, schoolId, party.userId);
    const all = await repo.partyBookings(trx, schoolId, eventId, party);
    const created = all.filter((row) => row.id === bookingId);
    await recordAudit(trx, actor, bookingEntry('booking.confirmed', event, created[0]));
    await mailBookingChange(ctx, trx, event, family, { created, cancelled: [], all, confirmation: true });
    return {
      message: BOOKING_TEXT.confirmed,
      bookings: all.map((row) => myBookingView(row, event.timezone)),
      created: [],
    };
  });
}

/** POST events/update-gown-size: a graduation gown size on a live booking of the family. */
export async function updateGownSize(
  ctx: AppContext,
  booker: Booker,
  query: { eventId: number; studentId: number; gownSizeId: string; userSlotId: number },
) {
  const event = await eventFor(ctx, booker, query.eventId);
  const party = partyOf(booker);
  if (!event.gown_sizes.includes(query.gownSizeId))
    throw unprocessable(BOOKING_TEXT.gownUnknown, { gownSizeId: [BOOKING_TEXT.gownUnknown] });
  const mine = await repo.partyBookings(ctx.db, event.school_id, event.id, party);
  const booking = mine.find((row) => row.id === query.userSlotId && row.student_id === query.studentId);
  if (!booking) throw notFound(BOOKING_TEXT.bookingNotFound);
  await repo.setGownSize(ctx.db, event.school_id, booking.id, query.gownSizeId);
  const after = await repo.partyBookings(ctx.db, event.school_id, event.id, party);
  return {
    message: BOOKING_TEXT.gownSaved,
    bookings: after.map((row) => myBookingView(row, event.timezone)),
    created: [],
  };
}

/** A booker is required for everything but the page itself. */
export function requireBooker(booker: Booker | null): Booker {
  // 401 without the logout action: a visitor without a session has nothing to log out of.
  if (!booker) throw new HttpError(401, BOOKING_TEXT.loginToBook);
  return booker;
}
