import { CSV_COLUMNS } from '@parley/domain/events';
import { instantToLocal, perInstant } from '@parley/domain/time-zone';
import type { BookingRow } from './events.repository';

// The bookings download (events/download-bookings): opens correctly in Excel — UTF-8 with a byte-order
// mark, CRLF rows, quoted fields — with dates and times on the school's wall clock.

export const BOM = '\uFEFF';

/** Quotes a field when needed, and defuses text a spreadsheet would run as a formula. */
export function csvField(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n;]/.test(text) || text !== text.trim() ? `"${text.replaceAll('"', '""')}"` : text;
}

export function bookingsCsv(rows: BookingRow[], timeZone: string): string {
  const lines = [CSV_COLUMNS.join(',')];
  const dateOf = perInstant((instant) => instantToLocal(instant, timeZone).date);
  const timeOf = perInstant((instant) => instantToLocal(instant, timeZone).time);
  for (const row of rows) {
    const status = row.status === 'booked' ? 'Booked' : 'Cancelled';
    lines.push(
      [
        dateOf(row.starts_at),
        timeOf(row.starts_at),
        row.teacher_name,
        row.location,
        row.parent_name,
        row.student_name,
        row.subject_name,
        status,
      ]
        .map(csvField)
        .join(','),
    );
  }
  return `${BOM}${lines.join('\r\n')}\r\n`;
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
