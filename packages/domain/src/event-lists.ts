import { bookingItem, recipientItem } from './events';
import { idParam } from './fields';
import { z } from './zod';

// An event's long lists, its recipients and its bookings, a page at a time (issue 39, decision 035): apart
// from events.ts, so that a page that only shows an event does not carry these schemas.

/** A long list comes a page at a time (decision 035): the page asked for, 1 first. */
const pageParam = z.coerce.number().int().min(1).max(100_000).default(1);
/** What a list is searched for: part of a name or an email, any case. */
const searchParam = z.string().trim().max(100).default('');
/** Rows of the recipients list per page. */
export const RECIPIENTS_PAGE_SIZE = 50;
/** events/recipients?eventId&q&notBooked&page: a page of the event's recipients, searched on the server. */
export const recipientsQuery = z.strictObject({
  eventId: idParam,
  q: searchParam,
  notBooked: z.coerce.number().int().min(0).max(1).default(0),
  page: pageParam,
});
export type RecipientsQuery = z.output<typeof recipientsQuery>;

/** A page of recipients, and how many match. */
export const recipientsPage = z.object({
  items: z.array(recipientItem),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});
export type RecipientsPage = z.infer<typeof recipientsPage>;

/**
 * events/recipient-counts?eventId: the whole list in three counts, whatever the search. Its own call, asked
 * once as the card opens rather than with every page: at 40,000 recipients they cost more than a page.
 */
export const recipientCountsQuery = z.strictObject({ eventId: idParam });
/** Everyone on the list, those whose family has booked, and the families that have not. */
export const recipientCounts = z.object({
  people: z.number(),
  bookedPeople: z.number(),
  notBookedFamilies: z.number(),
});
export type RecipientCounts = z.infer<typeof recipientCounts>;

/** Rows of the bookings list per page. */
export const BOOKINGS_PAGE_SIZE = 50;
/** events/bookings?eventId&q&cancelled&page: a page of the event's bookings, searched on the server. */
export const eventBookingsQuery = z.strictObject({
  eventId: idParam,
  /** Part of the teacher's, parent's or student's name, any case. */
  q: searchParam,
  /** 1: the cancelled bookings too (a move leaves one behind). */
  cancelled: z.coerce.number().int().min(0).max(1).default(0),
  page: pageParam,
});
export type EventBookingsQuery = z.output<typeof eventBookingsQuery>;

/** A page of bookings in time order, how many match, and how many of the event's are cancelled. */
export const eventBookingsPage = z.object({
  items: z.array(bookingItem),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
  cancelledCount: z.number(),
});
export type EventBookingsPage = z.infer<typeof eventBookingsPage>;
