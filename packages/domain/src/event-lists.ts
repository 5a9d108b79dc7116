import { bookingItem, recipientItem, slotGroup } from './events';
import { idField, idParam } from './fields';
import { VALIDATION } from './messages';
import { flagParam, pageOf, pageParam, searchParam } from './paging';
import { z } from './zod';

// An event's long lists, its recipients, bookings and slots, a page at a time (issue 39, decision 035):
// apart from events.ts, so that a page that only shows an event does not carry these schemas.

/** Rows of the recipients list per page. */
export const RECIPIENTS_PAGE_SIZE = 50;
/** events/recipients?eventId&q&notBooked&page: a page of the event's recipients, searched on the server. */
export const recipientsQuery = z.strictObject({
  eventId: idParam,
  q: searchParam,
  notBooked: flagParam,
  page: pageParam,
});
export type RecipientsQuery = z.output<typeof recipientsQuery>;

/** A page of recipients, and how many match. */
export const recipientsPage = pageOf(recipientItem);
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
  cancelled: flagParam,
  page: pageParam,
});
export type EventBookingsQuery = z.output<typeof eventBookingsQuery>;

/** A page of bookings in time order, how many match, and how many of the event's are cancelled. */
export const eventBookingsPage = pageOf(bookingItem).extend({ cancelledCount: z.number() });
export type EventBookingsPage = z.infer<typeof eventBookingsPage>;

/** Teachers' columns of the slot grid asked for at once: a page of the grid, or the one a dialog needs. */
export const SLOT_COLUMNS_MAX = 25;
/**
 * events/slots?eventId&sectionId&teacherIds: the slot grid's columns, of one section and of the teachers
 * named (comma-separated ids; a parent-teacher evening's grid comes a few teachers at a time). Without
 * teacherIds, every column: what a general or ticketed event has is one per section.
 */
export const eventSlotsQuery = z.strictObject({
  eventId: idParam,
  sectionId: idParam.optional(),
  teacherIds: z
    .string()
    .max(SLOT_COLUMNS_MAX * 11)
    .regex(/^\d{1,10}(,\d{1,10})*$/, VALIDATION.idInvalid)
    .transform((text) => [...new Set(text.split(',').map(Number))])
    .pipe(z.array(idField).max(SLOT_COLUMNS_MAX))
    .optional(),
});
export type EventSlotsQuery = z.output<typeof eventSlotsQuery>;

export const eventSlotsAnswer = z.object({ items: z.array(slotGroup) });
export type EventSlotsAnswer = z.infer<typeof eventSlotsAnswer>;
