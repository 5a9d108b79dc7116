import {
  BOOKING_STATE_TEXT,
  BOOKING_TEXT,
  type BookingResult,
  scheduleProblem,
  type UpdateSlotByAdminRequest,
  type UpdateSlotForBookingRequest,
} from '@parley/domain/booking';
import { isOpen } from '@parley/domain/event-access';
import { EVENT_GROUPS, isTicketedGroup } from '@parley/domain/event-groups';
import { EVENT_TEXT } from '@parley/domain/events';
import { ACCESS_TEXT, SERVER_TEXT } from '@parley/domain/messages';
import type { AppContext } from '../../context';
import type { Db } from '../../db/database';
import type { Actor } from '../../lib/actor';
import { conflict, forbidden, HttpError, notFound, unprocessable } from '../../lib/http-error';
import { withTransactionRetry } from '../../lib/transaction-retry';
import { recordAudit } from '../audit/audit.service';
import { bookingChangeEntry, bookingGuestsEntry } from '../audit/audit-entries';
import { issueTickets, matchTickets } from '../tickets/tickets.service';
import { issueEventLinksWithoutPassword } from '../tokens/tokens.repository';
import { type Booker, bookerFor, bookingRole, openFrom } from './booker';
import * as repo from './booking.repository';
import {
  checkChildren,
  checkOpenFor,
  isAdmin,
  liveBooking,
  type Party,
  partyGrid,
  partyOf,
  partyOfBooking,
} from './booking.service';
import { bookingChangeMessages } from './booking-mails';
import { bookingWindowOf, gridView, myBookingView } from './booking-views';
import { eventContextsOf, recipientAccessOf } from './event-contexts';
import { fullSlotHintsOf } from './full-slot-hints';
import { slotLabelsOf } from './slot-labels';

// The booking flow (issue 5, decision 009). A change runs in one transaction: the event FOR SHARE and the
// family's row in one locking read, then the family's holdings, the new rows, the answer, and last the
// mail with the COMMIT. Capacity, "one slot per parent per teacher" and "no overlapping appointments" are
// PostgreSQL's (its count of the places from the rows with the CHECK behind it, migration 023; exclusion
// constraints); a request that loses gets 409 with the message and the fresh grid. A family's booking of a
// slot this process last saw full (full-slot-hints.ts) first reads without locks: when the slot is still
// full, that one read, which carries the columns in question, is its 409, and no transaction starts. The
// hot statements are compiled once (booking.repository.ts).

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
  /** The personal link the family books through: their mail opens their booking with it. */
  familyLink?: string | undefined;
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
type Opened = NonNullable<Awaited<ReturnType<typeof repo.openChange>>>;

/**
 * At a ticketed event, a booking cancelled and booked again in the same slot for the same person is the same
 * booking with other guests (or gown): it is changed in place, keeping its row and its tickets (issue 34).
 * Pairs each such booking with its item.
 */
function changesInPlace(
  live: repo.HoldingRow[],
  change: Change,
  attendeeOf: (item: ChangeItem) => number | null,
) {
  const pairs: Array<{ booking: repo.HoldingRow; item: ChangeItem }> = [];
  for (const id of change.cancelBookingIds) {
    const booking = live.find((b) => b.id === id);
    const item = change.items.find(
      (i) =>
        booking !== undefined &&
        i.slotId === booking.slot_id &&
        attendeeOf(i) === booking.student_id &&
        !pairs.some((pair) => pair.item === i),
    );
    if (booking && item) pairs.push({ booking, item });
  }
  return pairs;
}

/**
 * Books and cancels for one party, inside runChange's transaction, after openChange locked the event and
 * the party and read what the party holds and the slots asked for (those it holds are left out below).
 * Locks in decision 008's order (the children, the slots in id order, then the bookings), then: the
 * cancellation (a booking another request cancelled first is 404, never released twice), the changes in
 * place, the INSERT with the party's bookings after it (one statement), the tickets, and last the change's
 * mails and pushes with the COMMIT. The places are the database's: its triggers count them from the rows
 * the change writes, and refuse a slot past its capacity (migration 023).
 */
async function applyChange(
  ctx: AppContext,
  trx: Db,
  event: repo.BookingEventRow,
  party: Party,
  family: repo.PartyRow,
  actorId: number,
  change: Change,
  { holdings, slots: askedSlots }: Pick<Opened, 'holdings' | 'slots'>,
): Promise<Outcome> {
  const schoolId = event.school_id;
  const replay = change.idempotencyKey
    ? holdings.filter((b) => b.idempotency_key === change.idempotencyKey)
    : [];
  if (replay.length > 0) {
    const mine = await repo.partyBookings(trx, schoolId, event.id, party);
    return {
      message: BOOKING_STATE_TEXT.replayed,
      bookings: mine.map((row) => myBookingView(row, event.timezone)),
      created: replay.map((row) => row.id),
      replayed: true,
    };
  }
  const live = holdings.filter((b) => b.status === 'booked');
  if (change.cancelBookingIds.some((id) => !live.some((b) => b.id === id)))
    throw notFound(BOOKING_TEXT.bookingNotFound);
  const ticketed = isTicketedGroup(event.group_int);
  const attendeeOf = (item: ChangeItem) => (party.role === 'student' ? party.userId : item.studentId);
  const inPlace = ticketed ? changesInPlace(live, change, attendeeOf) : [];
  const items = change.items.filter((item) => !inPlace.some((pair) => pair.item === item));
  const cancelIds = change.cancelBookingIds.filter((id) => !inPlace.some((pair) => pair.booking.id === id));
  const kept = live.filter((b) => !cancelIds.includes(b.id));

  // Slots booked anew are read without locking them: a slot not in this event is the family's mistake
  // (422), and one without room loses at once (a hint: the database's count is the rule).
  const held = new Map(live.flatMap((b) => (b.slot_id ? [[b.slot_id, b] as const] : [])));
  const slots = askedSlots.filter((slot) => !held.has(slot.id));
  const missing = items.findIndex(
    (item) => !held.has(item.slotId) && !slots.some((s) => s.id === item.slotId),
  );
  if (missing >= 0) {
    const index = change.items.indexOf(items[missing] as ChangeItem);
    throw unprocessable(BOOKING_TEXT.slotNotInEvent, {
      [`items.${index}.slotId`]: [BOOKING_TEXT.slotNotInEvent],
    });
  }
  const needed = (slotId: number) =>
    ticketed ? items.reduce((sum, item) => sum + (item.slotId === slotId ? 1 + item.guests : 0), 0) : 1;
  if (slots.some((slot) => slot.booked_count + needed(slot.id) > slot.capacity))
    throw conflict(BOOKING_TEXT.slotTaken);
  const slotOf = new Map<number, { teacher_id: number | null; starts_at: Date; ends_at: Date }>([
    ...held,
    ...slots.map((slot) => [slot.id, slot] as const),
  ]);
  const rows: repo.NewBooking[] = items.map((item) => {
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
      student_id: attendeeOf(item),
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

  // Several slots are locked in id order before any row changes (their triggers lock them as they count),
  // so two families moving across the same pair never deadlock.
  const left = live.flatMap((b) => (cancelIds.includes(b.id) && b.slot_id ? [b.slot_id] : []));
  const booked = [...new Set([...rows, ...inPlace.map((pair) => pair.booking)].map((b) => b.slot_id ?? 0))];
  await repo.lockSlotsInOrder(trx, schoolId, [...left, ...booked]);
  const cancelled =
    cancelIds.length > 0
      ? await repo.partyBookings(trx, schoolId, event.id, party, { bookingIds: cancelIds })
      : [];
  // One booking changes state once: the second of two requests cancelling or moving it finds it gone.
  if ((await repo.cancelBookingRows(trx, schoolId, cancelIds)).length < cancelIds.length)
    throw notFound(BOOKING_STATE_TEXT.alreadyCancelled);
  for (const { booking, item } of inPlace) {
    const changed = await repo.changeGuests(trx, schoolId, booking.id, item);
    if (!changed) throw notFound(BOOKING_STATE_TEXT.alreadyCancelled);
  }
  const { created, after } = await repo.insertAndReadBookings(trx, schoolId, event.id, party, rows);
  const changedRows = after.filter((row) => inPlace.some((pair) => pair.booking.id === row.id));
  // A ticketed event's bookings carry their tickets (a cancelled one's are voided by a trigger); one
  // changed in place keeps its own.
  const tickets = ticketed
    ? await issueTickets(
        trx,
        schoolId,
        event.id,
        rows.map((row, index) => ({ ...row, id: created[index] ?? 0 })),
      )
    : [];
  for (const row of changedRows) tickets.push(...(await matchTickets(trx, schoolId, event.id, row)));
  const createdRows = after.filter((row) => created.includes(row.id));
  if (change.byAdmin && change.actor)
    await recordAudit(trx, change.actor, [
      ...[bookingChangeEntry(event, createdRows, cancelled)].flat(),
      ...changedRows.map((row) =>
        bookingGuestsEntry(event, row, inPlace.find((pair) => pair.booking.id === row.id)?.booking ?? row),
      ),
    ]);
  // The family's mail opens their booking: through the personal link they booked with, or, when the school
  // acted for a family without a password, a new one.
  const link =
    change.familyLink ??
    (change.byAdmin
      ? (
          await issueEventLinksWithoutPassword(trx, { schoolId, eventId: event.id, userIds: [party.userId] })
        ).get(party.userId)
      : null);
  const messages = await bookingChangeMessages(ctx, event, family, {
    created: createdRows,
    cancelled,
    changed: changedRows,
    all: after,
    tickets,
    link,
  });
  // The transaction's last statement: the messages (its COMMIT follows, once this function returns).
  const full = await repo.sendMessages(trx, schoolId, booked, messages);
  const hints = fullSlotHintsOf(ctx.db);
  hints.forget(left);
  hints.saw(
    full.map((slot) => slot.id),
    full.flatMap((slot) => (slot.now_full ? [slot.id] : [])),
  );
  const message =
    (created.length > 0 && cancelled.length > 0) || changedRows.length > 0
      ? BOOKING_TEXT.changed
      : created.length > 0
        ? BOOKING_TEXT.booked
        : BOOKING_TEXT.cancelled;
  return {
    message,
    bookings: after.map((row) => myBookingView(row, event.timezone)),
    created: [...created, ...changedRows.map((row) => row.id)],
    replayed: false,
  };
}

/** The event and the party as a change is checked against them (locked, or peeked at). */
type Locked = {
  event: repo.BookingEventRow;
  family: repo.PartyRow;
  recipients: repo.RecipientAccess;
  fullSlots: number[];
};

/**
 * The event's context at the version a booking's own read brought (event-contexts.ts), with that read: the
 * kept context, or the event read again with `db` (inside the transaction, under the event's lock).
 * Undefined when the event is not the school's.
 */
async function withContext(
  ctx: AppContext,
  db: Db,
  schoolId: number,
  eventId: number,
  party: Party,
  read: { version: number; family: repo.PartyRow; fullSlots: number[] } | undefined,
): Promise<Locked | undefined> {
  if (!read) return undefined;
  const context = await eventContextsOf(ctx.db).at(eventId, read.version, () =>
    repo.eventContext(db, schoolId, eventId),
  );
  if (!context) return undefined;
  return {
    event: context.event,
    family: read.family,
    recipients: recipientAccessOf(context, party.userId, read.family),
    fullSlots: read.fullSlots,
  };
}

/**
 * What a change must pass before it books, given the event and the party (locked, or peeked at): the
 * booking window, the recipients, the items' fields and children. Throws the first that fails.
 */
function checkChange(party: Party, change: Change, locked: Locked): void {
  if (!change.byAdmin) {
    const window = bookingWindowOf(locked.event, new Date());
    if (!window.isOpen) throw conflict(window.reason ?? BOOKING_TEXT.closed);
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
    // A family's booking of a slot last seen full (half the attempts in a rush) first reads without locks:
    // when a slot it asks for is still full and nothing else stands in the way, that read carries the
    // 409's answer, and no transaction starts. Otherwise the transaction checks everything under its locks.
    const hints = fullSlotHintsOf(ctx.db);
    if (!change.byAdmin && !retried && hints.anyFull(slotIds)) {
      const read = await repo.peekEventAndParty(ctx.db, booker.schoolId, eventId, party, slotIds);
      if (read) hints.saw(slotIds, read.fullSlots);
      const peeked =
        read && read.fullSlots.length > 0
          ? await withContext(ctx, ctx.db, booker.schoolId, eventId, party, read)
          : undefined;
      if (read && peeked && passesChecks(booker, party, change, peeked))
        throw new HttpError(
          409,
          BOOKING_TEXT.slotTaken,
          undefined,
          await lostRaceAnswer(ctx.db, peeked.event, party, change.items, read.lostRace),
        );
    }
    // A deadlock (two families' changes crossing) is retried here, not handed to the family as a 503.
    const result = await withTransactionRetry(() =>
      ctx.db.transaction().execute(async (trx) => {
        const opened = await repo.openChange(
          trx,
          booker.schoolId,
          eventId,
          party,
          change.idempotencyKey,
          slotIds,
        );
        const locked = await withContext(ctx, trx, booker.schoolId, eventId, party, opened);
        if (!opened || !locked || (!change.byAdmin && !bookerFor(booker, locked.event)))
          throw notFound(EVENT_TEXT.notFound);
        const { event, family } = locked;
        seen = event;
        checkChange(party, change, locked);
        hints.saw(slotIds, locked.fullSlots);
        if (locked.fullSlots.length > 0) throw conflict(BOOKING_TEXT.slotTaken);
        return applyChange(ctx, trx, event, party, family, booker.userId, change, opened);
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
 * of the teachers it asked for and of those it has booked (their places read already by the peek, or one
 * statement compiled once), labelled from what this process keeps (slot-labels.ts), with its bookings when
 * it holds any (a statement of their own); elsewhere the event's grid.
 */
async function lostRaceAnswer(
  db: Db,
  event: repo.BookingEventRow,
  party: Party,
  items: ChangeItem[],
  read?: repo.LostRacePlaces,
) {
  if (event.group_int !== EVENT_GROUPS.parentTeacher) return partyGrid(db, event, party, undefined, 'skip');
  const slotIds = [...new Set(items.map((item) => item.slotId))];
  const { places, holdsBookings } =
    read ?? (await repo.lostRacePlaces(db, event.school_id, event.id, party, slotIds));
  const mine = holdsBookings ? await repo.partyBookings(db, event.school_id, event.id, party) : [];
  const slots = await slotLabelsOf(db).labelled(event.id, places, (only) =>
    repo.slotLabels(db, event.school_id, event.id, only),
  );
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
    familyLink: booker.linkToken,
  });
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
  const [booking] = await repo.bookingsById(ctx.db, booker.schoolId, eventId, [bookingId]);
  const own = bookingRole(booker) !== null ? partyOf(booker) : null;
  const ownsIt =
    own !== null &&
    ((own.role === 'parent' && booking?.parent_id === own.userId) ||
      (own.role === 'student' && booking?.student_id === own.userId));
  if (!booking || (!ownsIt && !admin)) throw notFound(BOOKING_TEXT.bookingNotFound);
  // Said to the family or an admin only: to anyone else the booking is not there at all.
  if (booking.status !== 'booked') throw notFound(BOOKING_STATE_TEXT.alreadyCancelled);
  const party = ownsIt && own ? own : partyOfBooking(booking);
  return runChange(ctx, booker, eventId, party, {
    items: [],
    cancelBookingIds: [bookingId],
    idempotencyKey: null,
    byAdmin: !ownsIt,
    actor,
    ...(ownsIt && { familyLink: booker.linkToken }),
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
    repo.rolesOf(ctx.db, booker.schoolId, party.userId),
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
