import {
  BOOKING_STATE_TEXT,
  BOOKING_TEXT,
  type BookingResult,
  scheduleProblem,
} from '@parley/domain/booking';
import { EVENT_GROUPS, isTicketedGroup } from '@parley/domain/event-groups';
import { EVENT_TEXT } from '@parley/domain/events';
import type { AppContext } from '../../context';
import type { Db } from '../../db/database';
import { conflict, type HttpError, notFound, unprocessable } from '../../lib/http-error';
import { recordAudit } from '../audit/audit.service';
import { bookingChangeEntry, bookingGuestsEntry } from '../audit/audit-entries';
import { issueTickets, matchTickets } from '../tickets/tickets.service';
import { issueEventLinksWithoutPassword } from '../tokens/tokens.repository';
import { type Booker, bookerFor } from './booker';
import * as repo from './booking.repository';
import type { Party } from './booking.service';
import { bookingChangeMessages } from './booking-mails';
import { myBookingView } from './booking-views';
import { type Change, type ChangeItem, checkChange, withContext } from './change-rules';
import { fullSlotHintsOf } from './full-slot-hints';

// The transaction of a booking change (decision 009): under the event's and the party's locks, the
// cancellations, the changes in place, the new rows, the tickets, and last the mails with the COMMIT.
/** A rule the database reported (23P01 exclusion, 23514 check) as the family's 409. */
export function constraintConflict(error: unknown): HttpError | null {
  const { code, constraint } = (error ?? {}) as { code?: string; constraint?: string };
  if (code === '23P01') {
    if (constraint === 'bookings_parent_teacher_once' || constraint === 'bookings_student_teacher_once')
      return conflict(BOOKING_TEXT.sameTeacher);
    return conflict(BOOKING_TEXT.overlap);
  }
  if (code === '23514' && constraint === 'slots_booked_count') return conflict(BOOKING_TEXT.slotTaken);
  return null;
}

export const isReplay = (error: unknown) =>
  (error as { code?: string; constraint?: string })?.code === '23505' &&
  (error as { constraint?: string }).constraint === 'bookings_idempotency_key';

type Outcome = BookingResult & { replayed: boolean };
export type Opened = NonNullable<Awaited<ReturnType<typeof repo.openChange>>>;

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
export async function applyChange(
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

/**
 * The change's transaction (decision 009): the event FOR SHARE and the party's row in one locking read
 * (openChange), the checks again under those locks, then applyChange. `saw` is told the event once it is
 * read, so that a 409 after it can answer with the fresh grid.
 */
export async function changeInTransaction(
  ctx: AppContext,
  trx: Db,
  booker: Booker,
  eventId: number,
  party: Party,
  change: Change,
  slotIds: number[],
  saw: (event: repo.BookingEventRow) => void,
): Promise<Outcome> {
  const opened = await repo.openChange(trx, booker.schoolId, eventId, party, change.idempotencyKey, slotIds);
  const locked = await withContext(ctx, trx, booker.schoolId, eventId, party, opened);
  if (!opened || !locked || (!change.byAdmin && !bookerFor(booker, locked.event)))
    throw notFound(EVENT_TEXT.notFound);
  saw(locked.event);
  checkChange(party, change, locked);
  fullSlotHintsOf(ctx.db).saw(slotIds, locked.fullSlots);
  if (locked.fullSlots.length > 0) throw conflict(BOOKING_TEXT.slotTaken);
  return applyChange(ctx, trx, locked.event, party, locked.family, booker.userId, change, opened);
}
