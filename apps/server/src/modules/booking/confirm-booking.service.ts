import { BOOKING_TEXT } from '@parley/domain/booking';
import { EVENT_TEXT } from '@parley/domain/events';
import type { AppContext } from '../../context';
import type { Actor } from '../../lib/actor';
import { notFound, unprocessable } from '../../lib/http-error';
import { recordAudit } from '../audit/audit.service';
import { bookingEntry } from '../audit/audit-entries';
import { issueEventLinksWithoutPassword } from '../tokens/tokens.repository';
import type { Booker } from './booker';
import * as repo from './booking.repository';
import { eventFor, liveBooking, partyOf, partyOfBooking } from './booking.service';
import { mailBookingChange } from './booking-mails';
import { myBookingView } from './booking-views';

// What the school or the family changes on a booking that stands: its confirmation, a gown size.

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
    // A family without a password opens their booking from the mail with a personal link.
    const links = await issueEventLinksWithoutPassword(trx, { schoolId, eventId, userIds: [party.userId] });
    await mailBookingChange(ctx, trx, event, family, {
      created,
      cancelled: [],
      all,
      confirmation: true,
      link: links.get(party.userId),
    });
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
