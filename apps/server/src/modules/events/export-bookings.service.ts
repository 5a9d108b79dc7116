import { isTicketedGroup } from '@parley/domain/event-groups';
import type { AppContext } from '../../context';
import { csvFileName, csvHeader, csvLines } from './bookings-csv';
import * as repo from './events.repository';
import { requireEvent } from './events.service';
import { loadSchool } from './sections.service';

/**
 * Bookings read and written at a time: what the server holds of a download, whatever the evening's size
 * (a few megabytes). Fewer, larger batches cost less: at 17,000 bookings 1,000 a batch took 0.34 s, 5,000
 * a batch 0.23 s, as much as the file built whole.
 */
export const EXPORT_BATCH = 5_000;

/**
 * The event's bookings as a CSV file (spec: Download bookings), in the school's zone. The file is streamed
 * in batches read one after another as the client takes them (issue 39): an evening of 17,000 bookings is
 * never held whole, and the first bytes go out at once. The event is checked before anything is sent.
 */
export async function bookingsExport(
  ctx: AppContext,
  schoolId: number,
  eventId: number,
  batch = EXPORT_BATCH,
) {
  const [event, { timezone }] = await Promise.all([
    requireEvent(ctx.db, schoolId, eventId),
    loadSchool(ctx.db, schoolId),
  ]);
  return {
    fileName: csvFileName(event.name),
    chunks: csvChunks(ctx, schoolId, event.id, {
      ticketed: isTicketedGroup(event.group_int),
      timezone,
      batch,
    }),
  };
}

async function* csvChunks(
  ctx: AppContext,
  schoolId: number,
  eventId: number,
  options: { ticketed: boolean; timezone: string; batch: number },
): AsyncGenerator<string> {
  yield csvHeader(options.ticketed);
  let after: repo.ExportAfter | null = null;
  for (;;) {
    const rows = await repo.exportBookings(ctx.db, schoolId, eventId, { after, limit: options.batch });
    const ids = rows.map((row) => row.id);
    const tickets = options.ticketed ? await repo.exportTickets(ctx.db, schoolId, eventId, ids) : null;
    if (rows.length > 0) yield csvLines(rows, options.timezone, tickets);
    const last = rows.at(-1);
    if (!last || rows.length < options.batch) return;
    after = { startsAt: last.starts_at, teacherName: last.teacher_name ?? '', id: last.id };
  }
}
