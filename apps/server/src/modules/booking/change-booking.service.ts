import {
  BOOKING_STATE_TEXT,
  BOOKING_TEXT,
  type BookingResult,
  type UpdateSlotByAdminRequest,
  type UpdateSlotForBookingRequest,
} from '@parley/domain/booking';
import { EVENT_TEXT } from '@parley/domain/events';
import { SERVER_TEXT } from '@parley/domain/messages';
import type { AppContext } from '../../context';
import type { Actor } from '../../lib/actor';
import { HttpError, notFound, unprocessable } from '../../lib/http-error';
import { withTransactionRetry } from '../../lib/transaction-retry';
import { type Booker, bookingRole } from './booker';
import * as repo from './booking.repository';
import { isAdmin, liveBooking, type Party, partyOf, partyOfBooking } from './booking.service';
import { lostRaceAnswer } from './change-answer';
import { peekFullSlots } from './change-peek';
import type { Change } from './change-rules';
import { changeInTransaction, constraintConflict, isReplay } from './change-transaction';

// The booking flow (issue 5, decision 009), in three phases: the peek (change-peek.ts: a slot this process
// last saw full is read without locks first, and when it still is, that read is the 409), the transaction
// (change-transaction.ts: the event FOR SHARE and the family's row in one locking read, the checks of
// change-rules.ts, the new rows, and last the mail with the COMMIT) and the answer of a family that lost
// (change-answer.ts). Capacity, "one slot per parent per teacher" and "no overlapping appointments" are
// PostgreSQL's (its count of the places from the rows with the CHECK behind it, migration 023; exclusion
// constraints); a request that loses gets 409 with the message and the fresh grid. The hot statements are
// compiled once (booking.repository.ts).

/**
 * Runs a change: the peek, then the transaction (retried on a deadlock). A lost race or a broken rule comes
 * back as 409 with the fresh grid.
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
    if (!change.byAdmin && !retried) {
      const lost = await peekFullSlots(ctx, booker, eventId, party, change, slotIds);
      if (lost) throw lost;
    }
    // A deadlock (two families' changes crossing) is retried here, not handed to the family as a 503.
    const result = await withTransactionRetry(() =>
      ctx.db.transaction().execute((trx) =>
        changeInTransaction(ctx, trx, booker, eventId, party, change, slotIds, (event) => {
          seen = event;
        }),
      ),
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
