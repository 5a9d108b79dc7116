import { isTicketedGroup } from '@parley/domain/event-groups';
import type { AppContext } from '../../context';
import { notFound } from '../../lib/http-error';
import { bookingsCsv, csvFileName } from './bookings-csv';
import * as repo from './events.repository';
import { loadSchool } from './sections.service';

/** The event's bookings as a CSV file (spec: Download bookings), in the school's zone. */
export async function bookingsExport(ctx: AppContext, schoolId: number, eventId: number) {
  const event = await repo.findEvent(ctx.db, schoolId, eventId);
  if (!event) throw notFound('Event not found.');
  const ticketed = isTicketedGroup(event.group_int);
  const [info, rows, tickets] = await Promise.all([
    loadSchool(ctx.db, schoolId),
    repo.exportBookings(ctx.db, schoolId, event.id),
    ticketed ? repo.exportTickets(ctx.db, schoolId, event.id) : null,
  ]);
  return { fileName: csvFileName(event.name), csv: bookingsCsv(rows, info.timezone, tickets) };
}
