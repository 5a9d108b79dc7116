// Wall-clock times in a named IANA time zone ↔ instants, with Intl only (isomorphic, no dependencies).
//
// Nothing here reads the machine's time zone: every function takes the zone explicitly, and a missing or
// empty zone is an error rather than a silent fall-back to the host's zone (Intl's default).
//
// Local times that do not map to exactly one instant (RFC 5545 §3.3.5, Temporal's "compatible"):
// - nonexistent (spring-forward gap): read with the offset in force *before* the gap, which moves the wall
//   clock forward by the gap's length. London 2027-03-28 01:30 → 01:30Z, shown as 02:30 BST.
// - ambiguous (fall-back overlap): the earlier of the two instants (the offset in force before the change).
//   London 2026-10-25 01:30 → 00:30Z (01:30 BST), not 01:30Z (01:30 GMT).

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)$/;
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

export type LocalDateTime = {
  /** YYYY-MM-DD on the wall calendar of the zone */
  date: string;
  /** HH:MM, 24 h */
  time: string;
  /** local minus UTC, in minutes: +60 for BST, -300 for EST, +330 for India */
  offsetMinutes: number;
};

/** A real Gregorian calendar date written YYYY-MM-DD (years 0001–9999): 2026-02-29 is not one. */
export function isValidDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = DATE_PATTERN.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

/** A 24-hour time written HH:MM, from 00:00 to 23:59. */
export function isValidTime(value: unknown): value is string {
  return typeof value === 'string' && TIME_PATTERN.test(value);
}

/** A time zone name Intl knows ("Europe/London", "UTC"). An empty name is not one. */
export function isValidTimeZone(value: unknown): value is string {
  if (typeof value !== 'string' || value.trim() === '') return false;
  try {
    formatter('en-US', value, 'parts');
    return true;
  } catch {
    return false;
  }
}

/**
 * The instant at which a wall clock in `timeZone` shows `date` `time`.
 *
 * The zone's offset is probed a day either side of the wall time read as if it were UTC (every real
 * offset lies within ±14 h, so the two probes bracket any change near it); each candidate offset is
 * applied and re-checked by formatting the result back to the zone. One match: that instant. Two (fall
 * back): the earlier. None (spring forward): the offset before the gap, so the clock moves on by the gap.
 *
 * @throws RangeError for a malformed date or time, or an unknown time zone.
 */
export function localToInstant(date: string, time: string, timeZone: string): Date {
  if (!isValidDate(date)) throw new RangeError(`Invalid date "${date}": expected a real date as YYYY-MM-DD`);
  if (!isValidTime(time)) throw new RangeError(`Invalid time "${time}": expected HH:MM from 00:00 to 23:59`);
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  const wall = wallClockMs(year, month, day, hour, minute, 0);

  const before = offsetMsAt(wall - DAY_MS, timeZone);
  const after = offsetMsAt(wall + DAY_MS, timeZone);
  // The usual case: no change of offset near this wall time.
  if (before === after && offsetMsAt(wall - before, timeZone) === before) return new Date(wall - before);
  const candidates = [...new Set([before, offsetMsAt(wall, timeZone), after])]
    .map((offset) => wall - offset)
    .filter((instant) => instant + offsetMsAt(instant, timeZone) === wall);
  if (candidates.length > 0) return new Date(Math.min(...candidates));
  return new Date(wall - before);
}

/** What a wall clock in `timeZone` shows at `instant`, and the zone's offset then. */
export function instantToLocal(instant: Date, timeZone: string): LocalDateTime {
  const ms = instantMs(instant);
  const offset = offsetMsAt(ms, timeZone);
  // The wall clock is UTC moved by the offset.
  const wall = new Date(ms + offset);
  return {
    date: `${pad(wall.getUTCFullYear(), 4)}-${pad(wall.getUTCMonth() + 1, 2)}-${pad(wall.getUTCDate(), 2)}`,
    time: `${pad(wall.getUTCHours(), 2)}:${pad(wall.getUTCMinutes(), 2)}`,
    offsetMinutes: offset / MINUTE_MS,
  };
}

/** The zone's offset (local − UTC) at an instant, in minutes (may hold seconds, for old local mean times). */
export function offsetMinutesAt(instant: Date, timeZone: string): number {
  return offsetMsAt(instantMs(instant), timeZone) / MINUTE_MS;
}

/** "16:30" (en-GB) — the time of day in the zone, in the locale's hour style. */
export function formatLocalTime(instant: Date, timeZone: string, locale = 'en-GB'): string {
  const ms = instantMs(instant);
  return rememberedIn(labelsOf('time', timeZone, locale), ms, () =>
    formatter(locale, timeZone, 'time').format(ms),
  );
}

/**
 * "Thu 12 Mar 2026" (en-GB) — the calendar date in the zone. The weekday is always followed by a space
 * (ICU versions disagree on a comma there; one fixed shape keeps screens and tests stable).
 */
export function formatLocalDate(instant: Date, timeZone: string, locale = 'en-GB'): string {
  const ms = instantMs(instant);
  return rememberedIn(labelsOf('date', timeZone, locale), ms, () => {
    const parts = formatter(locale, timeZone, 'date').formatToParts(ms);
    return parts
      .map((part, index) =>
        part.type === 'literal' && parts[index - 1]?.type === 'weekday' && /^,\s*$/.test(part.value)
          ? ' '
          : part.value,
      )
      .join('');
  });
}

/** "Thu 12 Mar 2026, 16:30" (en-GB) — date and time in the zone. */
export function formatLocalDateTime(instant: Date, timeZone: string, locale = 'en-GB'): string {
  return `${formatLocalDate(instant, timeZone, locale)}, ${formatLocalTime(instant, timeZone, locale)}`;
}

/**
 * An instant as the wire sends it (ISO text), in the zone and the app's style: "Thu 12 Mar 2026, 16:30".
 * Every screen shows instants this way, whatever the browser's locale and zone (issue 36); text that is no
 * instant is shown as it came.
 */
export function formatIsoDateTime(iso: string, timeZone: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : formatLocalDateTime(date, timeZone);
}

/** "16:30": an ISO instant's time of day in the zone; text that is no instant as it came. */
export function formatIsoTime(iso: string, timeZone: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : formatLocalTime(date, timeZone);
}

// ── internals ────────────────────────────────────────────────────────────────────────────────────────

// The same few instants are labelled over and over (an evening's slot times, on every grid and answer), and
// Intl formats one in 0.75–2.4 µs where a lookup takes 0.3: each label is remembered by its instant, in one
// map per format, zone and locale, the oldest half forgotten past the bound. A label depends only on its
// format and instant (zone rules change with the runtime only). Keyed by the number: building a string key
// per label cost more than the lookup.
const MAX_REMEMBERED = 20_000;
type Labels = Map<string, Map<string, Map<number, string>>>;
const labelMaps: Record<'time' | 'date', Labels> = { time: new Map(), date: new Map() };

function rememberedIn(labels: Map<number, string>, ms: number, make: () => string): string {
  let label = labels.get(ms);
  if (label === undefined) {
    label = make();
    if (labels.size >= MAX_REMEMBERED) {
      let drop = MAX_REMEMBERED / 2;
      for (const old of labels.keys()) {
        labels.delete(old);
        if (--drop === 0) break;
      }
    }
    labels.set(ms, label);
  }
  return label;
}

/** The labels of one format (time or date) in one zone and locale. */
function labelsOf(kind: 'time' | 'date', timeZone: string, locale: string): Map<number, string> {
  let byZone = labelMaps[kind].get(timeZone);
  if (!byZone) {
    formatter(locale, timeZone, kind);
    byZone = new Map();
    labelMaps[kind].set(timeZone, byZone);
  }
  let labels = byZone.get(locale);
  if (!labels) {
    formatter(locale, timeZone, kind); // throws for an unknown zone or locale before anything is kept
    labels = new Map();
    byZone.set(locale, labels);
  }
  return labels;
}

const isoStrings = new Map<number, string>();

/** The instant as JSON writes it (toISOString), remembered: a grid writes the same slot times again and again. */
export function isoString(instant: Date): string {
  const ms = instantMs(instant);
  return rememberedIn(isoStrings, ms, () => instant.toISOString());
}

type FormatterKind = 'parts' | 'time' | 'date';
const formatters = new Map<string, Intl.DateTimeFormat>();

const FORMAT_OPTIONS: Record<FormatterKind, Intl.DateTimeFormatOptions> = {
  parts: {
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  },
  time: { hour: '2-digit', minute: '2-digit' },
  date: { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' },
};

/** Formatters are costly to build and safe to share: one per locale, zone and shape. */
function formatter(locale: string, timeZone: string, kind: FormatterKind): Intl.DateTimeFormat {
  // Intl falls back to the host's zone when none is given: refuse that here.
  if (typeof timeZone !== 'string' || timeZone.trim() === '') {
    throw new RangeError('A time zone is required (an IANA name such as "Europe/London")');
  }
  const key = `${kind}|${locale}|${timeZone}`;
  let cached = formatters.get(key);
  if (!cached) {
    cached = new Intl.DateTimeFormat(locale, { ...FORMAT_OPTIONS[kind], timeZone });
    formatters.set(key, cached);
  }
  return cached;
}

type WallParts = { year: number; month: number; day: number; hour: number; minute: number; second: number };

function wallParts(ms: number, timeZone: string): WallParts {
  const out: WallParts = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  for (const part of formatter('en-US', timeZone, 'parts').formatToParts(ms)) {
    if (part.type in out) out[part.type as keyof WallParts] = Number(part.value);
  }
  // Some engines print midnight as 24 even with hourCycle h23.
  if (out.hour === 24) out.hour = 0;
  return out;
}

// The zone's offset through each UTC hour asked about: one that is the same at the hour's first and last
// second holds all through it (no zone changes its offset twice within an hour), so every other instant
// of that hour is answered without Intl, whose formatToParts is the costly part of reading a time (a
// booking's mail and .ics read a few instants of the same evening many times over). Null: the offset
// changes within that hour, and each instant is measured.
const HOUR_MS = 3_600_000;
const hourOffsets = new Map<string, number | null>();
const HOUR_OFFSETS_KEPT = 20_000;

/** The zone's offset (local − UTC) at an instant, in ms. */
function offsetMsAt(ms: number, timeZone: string): number {
  const hourStart = Math.floor(ms / HOUR_MS) * HOUR_MS;
  const key = `${timeZone}|${hourStart}`;
  let known = hourOffsets.get(key);
  if (known === undefined) {
    const first = measuredOffsetMs(hourStart, timeZone);
    known = first === measuredOffsetMs(hourStart + HOUR_MS - 1000, timeZone) ? first : null;
    if (hourOffsets.size >= HOUR_OFFSETS_KEPT) hourOffsets.clear();
    hourOffsets.set(key, known);
  }
  return known ?? measuredOffsetMs(ms, timeZone);
}

/** The zone's offset at an instant as Intl reads it. */
function measuredOffsetMs(ms: number, timeZone: string): number {
  const p = wallParts(ms, timeZone);
  const wholeSecond = Math.floor(ms / 1000) * 1000;
  return wallClockMs(p.year, p.month, p.day, p.hour, p.minute, p.second) - wholeSecond;
}

/** A wall-clock reading as ms since the epoch, as if it were UTC (Date.UTC maps years 0–99 to 19xx). */
function wallClockMs(year: number, month: number, day: number, hour: number, minute: number, second: number) {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  return date.getTime();
}

function instantMs(instant: Date): number {
  const ms = instant instanceof Date ? instant.getTime() : Number.NaN;
  if (!Number.isFinite(ms)) throw new RangeError('Invalid instant: expected a valid Date');
  return ms;
}

function daysInMonth(year: number, month: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month, 0);
  return date.getUTCDate();
}

const pad = (value: number, width: number) => String(value).padStart(width, '0');

/** "Thu 12 Mar 2026, 16:00 – 19:00" in the school's zone: a section, a slot or a booking. */
export function sectionLabel(startsAt: Date, endsAt: Date, timeZone: string): string {
  return `${formatLocalDate(startsAt, timeZone)}, ${formatLocalTime(startsAt, timeZone)} – ${formatLocalTime(endsAt, timeZone)}`;
}

/** A formatter that formats each distinct instant once (many slots share the same few start times). */
export function perInstant(format: (instant: Date) => string): (instant: Date) => string {
  const done = new Map<number, string>();
  return (instant) => {
    const ms = instant.getTime();
    let text = done.get(ms);
    if (text === undefined) {
      text = format(instant);
      done.set(ms, text);
    }
    return text;
  };
}
