import { instantToLocal, isValidTimeZone, localToInstant, offsetMinutesAt } from './time-zone';

// RFC 5545 calendar files attached to booking mails.
//
// Times are written as the school's wall clock with TZID=<IANA name>, plus a VTIMEZONE that spells out
// that zone's UTC offsets, so a calendar in any other zone shows the right instant and a calendar in the
// school's zone shows the time printed in the mail. The VTIMEZONE is computed from Intl (no tz database
// shipped): for each run of consecutive years holding an entry, the offset in force on 1 January, then
// every change of offset in those years, found by probing day by day and bisecting to the second. No
// RRULEs: listing the actual changes is exact for the dates in the file, which is all a reader needs.

export type CalendarEntry = {
  uid: string;
  startsAt: Date;
  endsAt: Date;
  summary: string;
  description?: string | null;
  location?: string | null;
  url?: string | null;
  /** CONFIRMED by default; CANCELLED when the method is CANCEL */
  status?: 'CONFIRMED' | 'CANCELLED';
  /** revision number, 0 by default: raise it on every change so calendars replace the old copy */
  sequence?: number;
};

export type CalendarFileInput = {
  productName: string;
  /** IANA zone the times are written in (the school's) */
  timeZone: string;
  method: 'PUBLISH' | 'CANCEL';
  entries: CalendarEntry[];
  /** DTSTAMP of every entry */
  now: Date;
};

/** The reminder the product promises: one day before (what the VALARM says and does). */
export const CALENDAR_REMINDER = { trigger: '-P1D', text: 'Reminder: 1 day before' } as const;

const LINE_OCTETS = 75;
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/**
 * The text of a .ics file (CRLF line ends, lines folded at 75 octets). Cancelled entries carry no
 * VALARM: a reminder for an appointment that is off would only mislead.
 *
 * @throws RangeError for an unknown time zone, an invalid date, an entry that does not end after it
 *   starts, a negative or fractional sequence, or a URL holding control characters.
 */
export function calendarFile(input: CalendarFileInput): string {
  const { productName, timeZone, method, entries, now } = input;
  if (!isValidTimeZone(timeZone)) throw new RangeError(`Unknown time zone "${timeZone}"`);
  const tzid = parameterValue(timeZone);
  const lines = [
    'BEGIN:VCALENDAR',
    `PRODID:-//${escapeText(productName)}//Booking//EN`,
    'VERSION:2.0',
    'CALSCALE:GREGORIAN',
    `METHOD:${method}`,
    ...timeZoneLines(timeZone, tzid, entries.length > 0 ? entries : [{ startsAt: now, endsAt: now }]),
  ];
  const stamp = utcStamp(now);
  for (const entry of entries) {
    const start = checkedMs(entry.startsAt, 'start');
    const end = checkedMs(entry.endsAt, 'end');
    if (end <= start) throw new RangeError(`Calendar entry "${entry.uid}" must end after it starts`);
    const sequence = entry.sequence ?? 0;
    if (!Number.isInteger(sequence) || sequence < 0) {
      throw new RangeError(`Calendar entry "${entry.uid}": sequence must be a whole number, 0 or more`);
    }
    const status = entry.status ?? (method === 'CANCEL' ? 'CANCELLED' : 'CONFIRMED');
    lines.push(
      'BEGIN:VEVENT',
      `UID:${escapeText(entry.uid)}`,
      `DTSTAMP:${stamp}`,
      `DTSTART${dateTime(start, timeZone, tzid)}`,
      `DTEND${dateTime(end, timeZone, tzid)}`,
      `SUMMARY:${escapeText(entry.summary)}`,
    );
    if (entry.description) lines.push(`DESCRIPTION:${escapeText(entry.description)}`);
    if (entry.location) lines.push(`LOCATION:${escapeText(entry.location)}`);
    if (entry.url) lines.push(`URL:${uriValue(entry.url)}`);
    lines.push(`STATUS:${status}`, `SEQUENCE:${sequence}`);
    if (status !== 'CANCELLED') {
      lines.push(
        'BEGIN:VALARM',
        'ACTION:DISPLAY',
        `DESCRIPTION:${escapeText(CALENDAR_REMINDER.text)}`,
        `TRIGGER:${CALENDAR_REMINDER.trigger}`,
        'END:VALARM',
      );
    }
    lines.push('END:VEVENT');
  }
  lines.push('END:VCALENDAR');
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}

/**
 * A file name for an attachment: ASCII letters, digits, '.', '-' and '_' only (accents dropped, anything
 * else becomes '-'), at most 80 characters before ".ics"; "event.ics" when nothing usable is left.
 * ASCII keeps it intact through every mail client's Content-Disposition handling.
 */
export function icsFileName(name: string): string {
  let base = String(name ?? '')
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/\.ics$/i, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-._]+|[-._]+$/g, '')
    .slice(0, 80)
    .replace(/[-._]+$/g, '');
  if (base === '') base = 'event';
  // Windows refuses these names whatever the extension.
  if (/^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i.test(base)) base = `event-${base}`;
  return `${base}.ics`;
}

// ── VTIMEZONE ────────────────────────────────────────────────────────────────────────────────────────

type Observance = { at: number; from: number; to: number };

function timeZoneLines(timeZone: string, tzid: string, entries: Array<{ startsAt: Date; endsAt: Date }>) {
  const years = new Set<number>();
  for (const entry of entries) {
    for (const instant of [entry.startsAt, entry.endsAt]) {
      years.add(Number(instantToLocal(instant, timeZone).date.slice(0, 4)));
    }
  }
  const sorted = [...years].sort((a, b) => a - b);
  // The same zone and years give the same lines (a booking's mail is written for every booking).
  const key = `${timeZone}|${sorted.join(',')}`;
  let lines = zoneBlocks.get(key);
  if (!lines) {
    lines = zoneBlock(timeZone, tzid, sorted);
    if (zoneBlocks.size >= ZONE_YEARS_KEPT) zoneBlocks.clear();
    zoneBlocks.set(key, lines);
  }
  return lines;
}

const zoneBlocks = new Map<string, string[]>();

/** The VTIMEZONE of the years given (ascending). */
function zoneBlock(timeZone: string, tzid: string, sorted: number[]): string[] {
  // Runs of consecutive years: the offset on 1 January of each run, then every change in the run.
  const observances: Observance[] = [];
  sorted.forEach((year, index) => {
    const { start, offset, changes } = yearOfZone(timeZone, year);
    if (index === 0 || sorted[index - 1] !== year - 1) {
      observances.push({ at: start, from: offset, to: offset });
    }
    observances.push(...changes);
  });

  // The smallest offset seen is labelled STANDARD, larger ones DAYLIGHT. Readers use only the offsets,
  // so a zone whose law says otherwise (Europe/Dublin's summer time is its legal standard) loses nothing.
  const standard = Math.min(...observances.map((o) => o.to));
  const lines = ['BEGIN:VTIMEZONE', `TZID:${tzid}`];
  for (const { at, from, to } of observances) {
    const kind = to > standard ? 'DAYLIGHT' : 'STANDARD';
    lines.push(
      `BEGIN:${kind}`,
      // The onset is written in the wall time before the change (RFC 5545 §3.6.5).
      `DTSTART:${wallStamp(at + from * MINUTE_MS)}`,
      `TZOFFSETFROM:${utcOffset(from)}`,
      `TZOFFSETTO:${utcOffset(to)}`,
      `END:${kind}`,
    );
  }
  lines.push('END:VTIMEZONE');
  return lines;
}

type ZoneYear = { start: number; offset: number; changes: Observance[] };

// A year of a zone costs hundreds of Intl lookups and never changes while the process runs: keep some.
const zoneYears = new Map<string, ZoneYear>();
const ZONE_YEARS_KEPT = 200;

/** The instant a year starts on the zone's wall clock, the offset then, and the year's changes. */
function yearOfZone(timeZone: string, year: number): ZoneYear {
  const key = `${timeZone}|${year}`;
  let known = zoneYears.get(key);
  if (!known) {
    const start = yearStart(year, timeZone);
    known = {
      start,
      offset: offsetAt(start, timeZone),
      changes: offsetChanges(start, yearStart(year + 1, timeZone), timeZone),
    };
    if (zoneYears.size >= ZONE_YEARS_KEPT) zoneYears.clear();
    zoneYears.set(key, known);
  }
  return known;
}

/**
 * Every change of UTC offset in (from, to]: the first second of the new offset, and both offsets. A
 * change right at `to` (the next 1 January) is kept here, as the next year starts from its new offset.
 */
function offsetChanges(from: number, to: number, timeZone: string): Observance[] {
  const changes: Observance[] = [];
  let before = from;
  let offset = offsetAt(before, timeZone);
  while (before < to) {
    const probe = Math.min(before + DAY_MS, to);
    const probed = offsetAt(probe, timeZone);
    if (probed === offset) {
      before = probe;
      continue;
    }
    // Bisect to the second: `low` still has the old offset, `high` the new one.
    let low = before;
    let high = probe;
    while (high - low > 1000) {
      const mid = low + Math.floor((high - low) / 2000) * 1000;
      if (offsetAt(mid, timeZone) === offset) low = mid;
      else high = mid;
    }
    const next = offsetAt(high, timeZone);
    changes.push({ at: high, from: offset, to: next });
    // Go on from the change itself, so a second change in the same day is not missed.
    before = high;
    offset = next;
  }
  return changes;
}

/** The instant a year starts on the zone's wall clock. */
function yearStart(year: number, timeZone: string): number {
  return localToInstant(`${String(year).padStart(4, '0')}-01-01`, '00:00', timeZone).getTime();
}

/** Local minus UTC in minutes (may hold seconds, for old local mean times). */
function offsetAt(ms: number, timeZone: string): number {
  return offsetMinutesAt(new Date(ms), timeZone);
}

// ── values and lines ─────────────────────────────────────────────────────────────────────────────────

/**
 * ";TZID=Zone:YYYYMMDDTHHMMSS" on the zone's wall clock, or ":YYYYMMDDTHHMMSSZ" for an instant in the
 * second run of a repeated hour (clocks going back): a reader takes such a wall time as its first run
 * (RFC 5545 §3.3.5), which would be an hour early, so only UTC says it right.
 */
function dateTime(ms: number, timeZone: string, tzid: string): string {
  const offset = offsetAt(ms, timeZone);
  const wall = ms + offset * MINUTE_MS;
  const earlier = [offsetAt(ms - DAY_MS, timeZone), offsetAt(ms + DAY_MS, timeZone)].some(
    (other) =>
      other !== offset &&
      wall - other * MINUTE_MS < ms &&
      offsetAt(wall - other * MINUTE_MS, timeZone) === other,
  );
  return earlier ? `:${wallStamp(ms)}Z` : `;TZID=${tzid}:${wallStamp(wall)}`;
}

/** A wall-clock reading held as "ms as if UTC", written YYYYMMDDTHHMMSS. */
function wallStamp(wallMs: number): string {
  return new Date(wallMs).toISOString().replace(/[-:]/g, '').slice(0, 15);
}

function utcStamp(instant: Date): string {
  return `${wallStamp(checkedMs(instant, 'DTSTAMP'))}Z`;
}

/** ±HHMM, or ±HHMMSS when there are seconds; never -0000 (RFC 5545 §3.3.14). */
function utcOffset(minutes: number): string {
  const seconds = Math.round(minutes * 60);
  const abs = Math.abs(seconds);
  const pad = (value: number) => String(value).padStart(2, '0');
  const hhmm = `${pad(Math.floor(abs / 3600))}${pad(Math.floor((abs % 3600) / 60))}`;
  return `${seconds < 0 ? '-' : '+'}${hhmm}${abs % 60 === 0 ? '' : pad(abs % 60)}`;
}

/** TEXT value (RFC 5545 §3.3.11): backslash, semicolon, comma and line breaks escaped; other controls dropped. */
function escapeText(value: string): string {
  // Most values hold nothing to escape: one test instead of five replacements.
  const text = String(value);
  if (!ESCAPED.test(text)) return text;
  return text
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n')
    .replace(/\p{Cc}/gu, (char) => (char === '\t' ? char : ''));
}

const ESCAPED = /[\\;,\p{Cc}]/u;

/** A URI value cannot be escaped: refuse what would break the line instead. */
function uriValue(value: string): string {
  if (/\p{Cc}/u.test(value)) throw new RangeError('A calendar URL must not hold control characters');
  return value;
}

/** A parameter value, quoted when it holds a character that would end it (RFC 5545 §3.1). */
function parameterValue(value: string): string {
  if (/["\p{Cc}]/u.test(value)) throw new RangeError(`Unusable time zone name "${value}"`);
  return /[;:,]/.test(value) ? `"${value}"` : value;
}

/**
 * Folds a content line at 75 octets (RFC 5545 §3.1): continuation lines start with one space, which
 * counts toward their 75. Splits only between code points, so no UTF-8 sequence is ever cut.
 */
function foldLine(line: string): string {
  if (line.length <= LINE_OCTETS && !NOT_ASCII.test(line)) return line;
  let out = '';
  let octets = 0;
  for (const char of line) {
    const size = utf8Length(char.codePointAt(0) ?? 0);
    if (octets + size > LINE_OCTETS) {
      out += '\r\n ';
      octets = 1;
    }
    out += char;
    octets += size;
  }
  return out;
}

const NOT_ASCII = /[^\p{ASCII}]/u;

function utf8Length(codePoint: number): number {
  if (codePoint < 0x80) return 1;
  if (codePoint < 0x800) return 2;
  if (codePoint < 0x10000) return 3;
  return 4;
}

function checkedMs(value: Date, what: string): number {
  const ms = value instanceof Date ? value.getTime() : Number.NaN;
  if (!Number.isFinite(ms)) throw new RangeError(`Invalid ${what}: expected a valid Date`);
  return ms;
}
