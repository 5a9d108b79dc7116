import { BOOKING_TEXT } from '@parley/domain/booking';
import { isOpen } from '@parley/domain/event-access';
import { EVENT_GROUPS } from '@parley/domain/event-groups';
import { ACCESS_TEXT } from '@parley/domain/messages';
import type { AppContext } from '../../context';
import type { Db } from '../../db/database';
import type { Actor } from '../../lib/actor';
import { conflict, forbidden, unprocessable } from '../../lib/http-error';
import { type Booker, bookerFor, openFrom } from './booker';
import * as repo from './booking.repository';
import { checkChildren, checkOpenFor, type Party } from './booking.service';
import { bookingWindowOf } from './booking-views';
import { eventContextsOf, recipientAccessOf } from './event-contexts';

// What a booking change must pass (decision 009), the same whether the peek (change-peek.ts) or the
// transaction (change-transaction.ts) asks: the booking window, the recipients, the items and children.
export type ChangeItem = {
  slotId: number;
  studentId: number | null;
  subjectId: number | null;
  guests: number;
  gownSize: string | null;
};

export type Change = {
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
export function checkItems(event: repo.BookingEventRow, items: ChangeItem[]) {
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

/** The event and the party as a change is checked against them (locked, or peeked at). */
export type Locked = {
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
export async function withContext(
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
export function checkChange(party: Party, change: Change, locked: Locked): void {
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
export function passesChecks(booker: Booker, party: Party, change: Change, peeked: Locked): boolean {
  if (!bookerFor(booker, peeked.event)) return false;
  try {
    checkChange(party, change, peeked);
    return true;
  } catch {
    return false;
  }
}
