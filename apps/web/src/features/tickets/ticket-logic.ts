import type { MyBooking } from '@parley/domain/booking';
import { type EventTicketResponse, TICKET_TEXT, type Ticket } from '@parley/domain/tickets';
import { ApiError } from '../../lib/api-client';

// Rules of the "Your Ticket" dialog (spec §2 Ticket display dialog, §4 ticket display, §5, §8 "Ticket
// load"), pure so they are tested directly.

export type TicketLoad = { tickets: Ticket[]; error: string | null };

/** Spec §5: both ids are needed before anything is asked of the server. */
export const missingInfo = (eventId: number | null | undefined, userId: number | null | undefined): boolean =>
  !(eventId && eventId > 0 && userId && userId > 0);

/**
 * The person's tickets, theirs first, then their guests' in order. `tickets` is the full list; an older
 * answer may carry only `ticket`.
 */
export function orderedTickets(data: EventTicketResponse['data']): Ticket[] {
  const all = data.tickets.length > 0 ? [...data.tickets] : data.ticket ? [data.ticket] : [];
  if (data.ticket && !all.some((ticket) => ticket.ticketId === data.ticket?.ticketId))
    all.unshift(data.ticket);
  const own = data.ticket?.ticketId;
  return all.sort((a, b) => {
    if (a.ticketId === own) return -1;
    if (b.ticketId === own) return 1;
    return a.guestIndex - b.guestIndex;
  });
}

/** Spec §8 "Ticket load" for an answer that arrived. */
export function ticketLoadResult(data: EventTicketResponse['data']): TicketLoad {
  if (!data.success) return { tickets: [], error: data.message || TICKET_TEXT.loadFailed };
  const tickets = orderedTickets(data);
  if (tickets.length === 0) return { tickets: [], error: TICKET_TEXT.noTicketFound };
  return { tickets, error: null };
}

/** Spec §8 "Ticket load" for a request that failed. */
export function ticketLoadErrorText(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 403) return TICKET_TEXT.loadForbidden;
    if (error.status === 404) return TICKET_TEXT.loadNotFound;
    if (error.serverMessage) return error.serverMessage;
  }
  return TICKET_TEXT.loadOther;
}

export type TicketHolder = { userId: number; name: string };

/**
 * Whose tickets a parent can show for an event: one per person booked — the child, or the parent when
 * they booked for themselves (no child on the booking) — from the family's live bookings.
 */
export function ticketHolders(
  bookings: ReadonlyArray<
    Pick<MyBooking, 'studentId' | 'studentName' | 'parentId' | 'parentName' | 'status'>
  >,
  self: TicketHolder,
): TicketHolder[] {
  const holders = new Map<number, TicketHolder>();
  for (const booking of bookings) {
    if (booking.status !== 'booked') continue;
    const holder =
      booking.studentId !== null
        ? { userId: booking.studentId, name: booking.studentName ?? '' }
        : { userId: booking.parentId ?? self.userId, name: booking.parentName ?? self.name };
    if (!holders.has(holder.userId)) holders.set(holder.userId, holder);
  }
  return [...holders.values()];
}
