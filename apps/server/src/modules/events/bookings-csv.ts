import { CSV_COLUMNS, TICKET_CSV_COLUMNS, TICKET_CSV_STATUS } from '@parley/domain/events';
import { formatLocalDateTime, instantToLocal, perInstant } from '@parley/domain/time-zone';
import type { BookingRow, TicketCsvRow } from './events.repository';

// The bookings download (events/download-bookings): opens correctly in Excel — UTF-8 with a byte-order
// mark, CRLF rows, quoted fields — with dates and times on the school's wall clock.

export const BOM = '\uFEFF';

/** Quotes a field when needed, and defuses text a spreadsheet would run as a formula. */
export function csvField(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n;]/.test(text) || text !== text.trim() ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A booking's tickets as the CSV shows them: the attendee's (the admitted one, else the live one) and guests in. */
type BookingTickets = { attendee: TicketCsvRow | null; guestsAdmitted: number };

function ticketsByBooking(tickets: readonly TicketCsvRow[]): Map<number, BookingTickets> {
  const byBooking = new Map<number, BookingTickets>();
  for (const ticket of tickets) {
    let entry = byBooking.get(ticket.booking_id);
    if (!entry) {
      entry = { attendee: null, guestsAdmitted: 0 };
      byBooking.set(ticket.booking_id, entry);
    }
    if (ticket.guest_index > 0) {
      // The door counts every admission, whatever happened to the ticket after it.
      if (ticket.scanned_at) entry.guestsAdmitted += 1;
    } else if (rank(ticket) >= rank(entry.attendee)) {
      entry.attendee = ticket;
    }
  }
  return byBooking;
}

const rank = (ticket: TicketCsvRow | null) =>
  !ticket ? 0 : ticket.scanned_at ? 3 : ticket.status === 'valid' ? 2 : 1;

/** The file's first line, after the byte-order mark: a ticketed event's columns add the door's. */
export function csvHeader(ticketed: boolean): string {
  return `${BOM}${(ticketed ? [...CSV_COLUMNS, ...TICKET_CSV_COLUMNS] : CSV_COLUMNS).join(',')}\r\n`;
}

/**
 * Bookings as CSV lines, each ending in CRLF; a ticketed event's (`tickets` given: those of these
 * bookings) add guests, gown size, the attendee's ticket (status, when and by whom it was scanned, on the
 * school's clock) and how many guests are in.
 */
export function csvLines(
  rows: BookingRow[],
  timeZone: string,
  tickets: TicketCsvRow[] | null = null,
): string {
  const byBooking = tickets ? ticketsByBooking(tickets) : null;
  const dateOf = perInstant((instant) => instantToLocal(instant, timeZone).date);
  const timeOf = perInstant((instant) => instantToLocal(instant, timeZone).time);
  let lines = '';
  for (const row of rows) {
    const status = row.status === 'booked' ? 'Booked' : 'Cancelled';
    const fields: Array<string | number | null> = [
      dateOf(row.starts_at),
      timeOf(row.starts_at),
      row.teacher_name,
      row.location,
      row.parent_name,
      row.student_name,
      row.subject_name,
      status,
    ];
    if (byBooking) {
      const { attendee, guestsAdmitted } = byBooking.get(row.id) ?? { attendee: null, guestsAdmitted: 0 };
      const scannedAt = attendee?.scanned_at ?? null;
      fields.push(
        row.guests,
        row.gown_size,
        !attendee
          ? TICKET_CSV_STATUS.none
          : scannedAt
            ? TICKET_CSV_STATUS.admitted
            : TICKET_CSV_STATUS[attendee.status],
        scannedAt ? formatLocalDateTime(scannedAt, timeZone) : null,
        scannedAt ? (attendee?.scanned_by_name ?? null) : null,
        guestsAdmitted,
      );
    }
    lines += `${fields.map(csvField).join(',')}\r\n`;
  }
  return lines;
}

/** "bookings-year-9-parents-evening.csv": a safe file name from the event's name. */
export function csvFileName(eventName: string): string {
  const slug = eventName
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '-')
    .slice(0, 50);
  return `bookings-${slug || 'event'}.csv`;
}
