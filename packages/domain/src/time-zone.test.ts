import { describe, expect, it } from 'vitest';
import {
  formatLocalDate,
  formatLocalDateTime,
  formatLocalTime,
  instantToLocal,
  isoString,
  isValidDate,
  isValidTime,
  isValidTimeZone,
  localToInstant,
} from './time-zone';

// These tests run under TZ=UTC and TZ=America/Los_Angeles: none of them may depend on the host's zone.

const utc = (iso: string) => new Date(iso);
const toIso = (date: string, time: string, zone: string) => localToInstant(date, time, zone).toISOString();

describe('localToInstant on ordinary days', () => {
  it.each([
    ['UTC', '2026-03-12', '16:30', '2026-03-12T16:30:00.000Z'],
    ['Europe/London', '2026-01-15', '09:00', '2026-01-15T09:00:00.000Z'],
    ['Europe/London', '2026-07-15', '09:00', '2026-07-15T08:00:00.000Z'],
    ['America/New_York', '2026-01-15', '18:00', '2026-01-15T23:00:00.000Z'],
    ['America/New_York', '2026-07-15', '18:00', '2026-07-15T22:00:00.000Z'],
    ['Australia/Sydney', '2026-01-15', '09:00', '2026-01-14T22:00:00.000Z'],
    ['Australia/Sydney', '2026-07-15', '09:00', '2026-07-14T23:00:00.000Z'],
    ['Asia/Kolkata', '2026-03-12', '16:30', '2026-03-12T11:00:00.000Z'],
    ['Australia/Adelaide', '2026-01-15', '09:00', '2026-01-14T22:30:00.000Z'],
    ['Australia/Adelaide', '2026-07-01', '09:00', '2026-06-30T23:30:00.000Z'],
    ['America/New_York', '2026-12-31', '23:30', '2027-01-01T04:30:00.000Z'],
    ['Asia/Kolkata', '2026-03-13', '00:15', '2026-03-12T18:45:00.000Z'],
  ])('%s %s %s → %s', (zone, date, time, expected) => {
    expect(toIso(date, time, zone)).toBe(expected);
  });
});

describe('nonexistent local times (spring forward) move on by the length of the gap', () => {
  it('London 2027-03-28: 01:00–01:59 do not exist; 01:30 is 02:30 BST = 01:30Z', () => {
    expect(toIso('2027-03-28', '00:59', 'Europe/London')).toBe('2027-03-28T00:59:00.000Z');
    expect(toIso('2027-03-28', '01:00', 'Europe/London')).toBe('2027-03-28T01:00:00.000Z');
    expect(toIso('2027-03-28', '01:30', 'Europe/London')).toBe('2027-03-28T01:30:00.000Z');
    expect(toIso('2027-03-28', '02:00', 'Europe/London')).toBe('2027-03-28T01:00:00.000Z');
    expect(instantToLocal(localToInstant('2027-03-28', '01:30', 'Europe/London'), 'Europe/London')).toEqual({
      date: '2027-03-28',
      time: '02:30',
      offsetMinutes: 60,
    });
  });

  it('New York 2026-03-08: 02:30 is 03:30 EDT', () => {
    const instant = localToInstant('2026-03-08', '02:30', 'America/New_York');
    expect(instant.toISOString()).toBe('2026-03-08T07:30:00.000Z');
    expect(instantToLocal(instant, 'America/New_York')).toEqual({
      date: '2026-03-08',
      time: '03:30',
      offsetMinutes: -240,
    });
  });

  it('Sydney 2026-10-04 (southern spring): 02:30 is 03:30 AEDT', () => {
    const instant = localToInstant('2026-10-04', '02:30', 'Australia/Sydney');
    expect(instant.toISOString()).toBe('2026-10-03T16:30:00.000Z');
    expect(instantToLocal(instant, 'Australia/Sydney').time).toBe('03:30');
  });

  it('Adelaide 2026-10-04 (half-hour zone): 02:15 is 03:15 ACDT (+10:30)', () => {
    const instant = localToInstant('2026-10-04', '02:15', 'Australia/Adelaide');
    expect(instant.toISOString()).toBe('2026-10-03T16:45:00.000Z');
    expect(instantToLocal(instant, 'Australia/Adelaide')).toEqual({
      date: '2026-10-04',
      time: '03:15',
      offsetMinutes: 630,
    });
  });

  it('Samoa skipped 2011-12-30 entirely: noon that day is noon the next day', () => {
    const instant = localToInstant('2011-12-30', '12:00', 'Pacific/Apia');
    expect(instant.toISOString()).toBe('2011-12-30T22:00:00.000Z');
    expect(instantToLocal(instant, 'Pacific/Apia')).toEqual({
      date: '2011-12-31',
      time: '12:00',
      offsetMinutes: 14 * 60,
    });
  });
});

describe('ambiguous local times (fall back) are the earlier instant', () => {
  it.each([
    ['Europe/London', '2026-10-25', '01:30', '2026-10-25T00:30:00.000Z', 60],
    ['America/New_York', '2026-11-01', '01:30', '2026-11-01T05:30:00.000Z', -240],
    ['Australia/Sydney', '2026-04-05', '02:30', '2026-04-04T15:30:00.000Z', 660],
    ['Australia/Adelaide', '2026-04-05', '02:30', '2026-04-04T16:00:00.000Z', 630],
  ])('%s %s %s → %s (offset %i)', (zone, date, time, expected, offset) => {
    const instant = localToInstant(date, time, zone);
    expect(instant.toISOString()).toBe(expected);
    expect(instantToLocal(instant, zone)).toEqual({ date, time, offsetMinutes: offset });
    // The later reading of the same wall clock exists too, one hour on, with the standard offset.
    const later = new Date(instant.getTime() + 3_600_000);
    expect(instantToLocal(later, zone)).toEqual({ date, time, offsetMinutes: offset - 60 });
  });

  it('the times just outside the overlap are not ambiguous', () => {
    expect(toIso('2026-10-25', '00:59', 'Europe/London')).toBe('2026-10-24T23:59:00.000Z');
    expect(toIso('2026-10-25', '02:00', 'Europe/London')).toBe('2026-10-25T02:00:00.000Z');
  });
});

describe('instantToLocal', () => {
  it('reads the wall clock and offset of each zone at one instant', () => {
    const instant = utc('2026-03-12T23:30:00Z');
    expect(instantToLocal(instant, 'UTC')).toEqual({ date: '2026-03-12', time: '23:30', offsetMinutes: 0 });
    expect(instantToLocal(instant, 'Europe/London')).toEqual({
      date: '2026-03-12',
      time: '23:30',
      offsetMinutes: 0,
    });
    expect(instantToLocal(instant, 'America/New_York')).toEqual({
      date: '2026-03-12',
      time: '19:30',
      offsetMinutes: -240,
    });
    expect(instantToLocal(instant, 'Asia/Kolkata')).toEqual({
      date: '2026-03-13',
      time: '05:00',
      offsetMinutes: 330,
    });
    expect(instantToLocal(instant, 'Australia/Sydney')).toEqual({
      date: '2026-03-13',
      time: '10:30',
      offsetMinutes: 660,
    });
  });

  it('prints midnight as 00:00 and pads early years', () => {
    expect(instantToLocal(utc('2026-03-12T00:00:00Z'), 'UTC').time).toBe('00:00');
    expect(instantToLocal(localToInstant('0999-01-02', '10:00', 'UTC'), 'UTC').date).toBe('0999-01-02');
  });

  it('round-trips every quarter hour through DST weeks in several zones (ambiguous → earlier)', () => {
    const weeks: Array<[string, string]> = [
      ['Europe/London', '2027-03-25T00:00:00Z'],
      ['Europe/London', '2026-10-22T00:00:00Z'],
      ['America/New_York', '2026-03-06T00:00:00Z'],
      ['America/New_York', '2026-10-30T00:00:00Z'],
      ['Australia/Sydney', '2026-04-02T00:00:00Z'],
      ['Australia/Sydney', '2026-10-01T00:00:00Z'],
      ['Australia/Adelaide', '2026-10-01T00:00:00Z'],
      ['Asia/Kolkata', '2026-03-10T00:00:00Z'],
    ];
    let ambiguous = 0;
    for (const [zone, from] of weeks) {
      for (let step = 0; step < 4 * 24 * 5; step++) {
        const instant = new Date(utc(from).getTime() + step * 15 * 60_000);
        const local = instantToLocal(instant, zone);
        const back = localToInstant(local.date, local.time, zone);
        const shown = instantToLocal(back, zone);
        expect([shown.date, shown.time], `${zone} ${instant.toISOString()}`).toEqual([
          local.date,
          local.time,
        ]);
        if (back.getTime() !== instant.getTime()) {
          ambiguous++;
          expect(back.getTime()).toBe(instant.getTime() - 3_600_000);
        }
      }
    }
    // Three spans hold a one-hour overlap (London, New York, Sydney autumn), each seen at four quarter
    // hours; the spring spans and Kolkata hold none.
    expect(ambiguous).toBe(3 * 4);
  });

  it('refuses an invalid Date and a missing zone instead of using the host zone', () => {
    expect(() => instantToLocal(new Date(Number.NaN), 'UTC')).toThrow(RangeError);
    expect(() => instantToLocal(utc('2026-03-12T10:00:00Z'), '')).toThrow(/time zone is required/);
    expect(() => instantToLocal(utc('2026-03-12T10:00:00Z'), undefined as unknown as string)).toThrow(
      /time zone is required/,
    );
  });
});

describe('localToInstant input errors', () => {
  it('throws a RangeError for a bad date, time or zone', () => {
    expect(() => localToInstant('2026-02-30', '10:00', 'UTC')).toThrow(/Invalid date "2026-02-30"/);
    expect(() => localToInstant('2026-02-28', '24:00', 'UTC')).toThrow(/Invalid time "24:00"/);
    expect(() => localToInstant('2026-02-28', '10:00', 'Mars/Olympus')).toThrow(RangeError);
  });
});

describe('display helpers', () => {
  const instant = utc('2026-03-12T16:30:00Z');

  it('formats the time of day in the zone', () => {
    expect(formatLocalTime(instant, 'Europe/London')).toBe('16:30');
    expect(formatLocalTime(instant, 'America/New_York')).toBe('12:30');
    expect(formatLocalTime(instant, 'Asia/Kolkata')).toBe('22:00');
    expect(formatLocalTime(utc('2026-03-12T00:05:00Z'), 'UTC')).toBe('00:05');
    expect(formatLocalTime(instant, 'America/New_York', 'en-US')).toMatch(/^12:30\sPM$/);
  });

  it('formats the date and date-time as "Thu 12 Mar 2026, 16:30"', () => {
    expect(formatLocalDate(instant, 'Europe/London')).toBe('Thu 12 Mar 2026');
    expect(formatLocalDateTime(instant, 'Europe/London')).toBe('Thu 12 Mar 2026, 16:30');
    // Late evening in New York is already the next day in Kolkata and Sydney.
    const late = utc('2026-03-12T23:30:00Z');
    expect(formatLocalDateTime(late, 'America/New_York')).toBe('Thu 12 Mar 2026, 19:30');
    expect(formatLocalDateTime(late, 'Asia/Kolkata')).toBe('Fri 13 Mar 2026, 05:00');
    expect(formatLocalDate(late, 'Australia/Sydney')).toBe('Fri 13 Mar 2026');
  });

  it('labels an instant the same each time, in each zone and locale, past the labels it remembers', () => {
    const minute = 60_000;
    const start = utc('2026-03-12T00:00:00Z').getTime();
    // More distinct instants than are remembered (20,000), each asked for twice in two zones.
    for (let i = 0; i < 25_000; i += 1) {
      const at = new Date(start + i * minute);
      const expected = `${String(Math.floor(i / 60) % 24).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`;
      expect(formatLocalTime(at, 'UTC')).toBe(expected);
      expect(formatLocalTime(at, 'UTC')).toBe(expected);
    }
    expect(formatLocalTime(instant, 'Europe/London')).toBe('16:30');
    expect(formatLocalTime(instant, 'Asia/Kolkata')).toBe('22:00');
    expect(formatLocalDate(instant, 'Europe/London')).toBe('Thu 12 Mar 2026');
    expect(formatLocalDate(instant, 'Europe/London', 'en-US')).not.toBe('Thu 12 Mar 2026');
    expect(() => formatLocalTime(instant, '')).toThrow(RangeError);
    expect(() => formatLocalTime(instant, 'Not/AZone')).toThrow(RangeError);
    expect(() => formatLocalDate(instant, 'Not/AZone')).toThrow(RangeError);
  });

  it('writes an instant as toISOString does, the same each time, and refuses an invalid one', () => {
    const start = utc('2026-03-12T00:00:00Z').getTime();
    for (let i = 0; i < 25_000; i += 1) {
      const at = new Date(start + i * 61_001);
      expect(isoString(at)).toBe(at.toISOString());
    }
    expect(isoString(instant)).toBe('2026-03-12T16:30:00.000Z');
    expect(() => isoString(new Date(Number.NaN))).toThrow(RangeError);
  });

  it('shows both readings of a fall-back hour with the same wall clock', () => {
    const first = localToInstant('2026-10-25', '01:30', 'Europe/London');
    const second = new Date(first.getTime() + 3_600_000);
    expect(formatLocalDateTime(first, 'Europe/London')).toBe('Sun 25 Oct 2026, 01:30');
    expect(formatLocalDateTime(second, 'Europe/London')).toBe('Sun 25 Oct 2026, 01:30');
  });
});

describe('guards', () => {
  it.each([
    ['2026-03-12', true],
    ['2028-02-29', true],
    ['2000-02-29', true],
    ['2026-12-31', true],
    ['2026-02-29', false],
    ['1900-02-29', false],
    ['2026-04-31', false],
    ['2026-13-01', false],
    ['2026-00-10', false],
    ['2026-01-00', false],
    ['0000-01-01', false],
    ['2026-3-12', false],
    ['12/03/2026', false],
    [' 2026-03-12', false],
    ['2026-03-12T00:00', false],
    ['', false],
    [20260312, false],
    [null, false],
  ])('isValidDate(%j) is %s', (value, expected) => {
    expect(isValidDate(value)).toBe(expected);
  });

  it.each([
    ['00:00', true],
    ['09:05', true],
    ['16:30', true],
    ['23:59', true],
    ['24:00', false],
    ['23:60', false],
    ['9:30', false],
    ['09:5', false],
    ['09.30', false],
    ['09:30:00', false],
    ['4pm', false],
    ['', false],
    [930, false],
    [undefined, false],
  ])('isValidTime(%j) is %s', (value, expected) => {
    expect(isValidTime(value)).toBe(expected);
  });

  it('knows real time zones and refuses made-up or empty ones', () => {
    expect(isValidTimeZone('Europe/London')).toBe(true);
    expect(isValidTimeZone('UTC')).toBe(true);
    expect(isValidTimeZone('Australia/Adelaide')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus')).toBe(false);
    expect(isValidTimeZone('')).toBe(false);
    expect(isValidTimeZone(undefined)).toBe(false);
  });
});

describe('instantToLocal read through the hour cache', () => {
  // What Intl says directly, with no cache in between: the reference each reading must equal.
  const formats = new Map<string, Intl.DateTimeFormat>();
  const formatIn = (zone: string) => {
    const known = formats.get(zone);
    if (known) return known;
    const format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formats.set(zone, format);
    return format;
  };
  const reference = (instant: Date, zone: string) => {
    const parts = Object.fromEntries(
      formatIn(zone)
        .formatToParts(instant)
        .map((part) => [part.type, Number(part.value)]),
    ) as Record<string, number>;
    const hour = parts.hour === 24 ? 0 : (parts.hour ?? 0);
    const wall = new Date(0);
    wall.setUTCFullYear(parts.year ?? 0, (parts.month ?? 1) - 1, parts.day ?? 1);
    wall.setUTCHours(hour, parts.minute ?? 0, parts.second ?? 0, 0);
    const pad = (value: number | undefined, width: number) => String(value).padStart(width, '0');
    return {
      date: `${pad(parts.year, 4)}-${pad(parts.month, 2)}-${pad(parts.day, 2)}`,
      time: `${pad(hour, 2)}:${pad(parts.minute, 2)}`,
      offsetMinutes: (wall.getTime() - Math.floor(instant.getTime() / 1000) * 1000) / 60_000,
    };
  };

  // Zones with half- and quarter-hour offsets, a 30-minute daylight shift, southern and northern
  // summers, a legal "negative" summer time, and an early year with a local mean time in seconds.
  const zones = [
    'Europe/London',
    'America/New_York',
    'Australia/Lord_Howe',
    'Asia/Kathmandu',
    'America/St_Johns',
    'Pacific/Chatham',
    'Europe/Dublin',
    'Africa/Casablanca',
  ];

  it.each(zones)('%s: every minute around each change of offset in 2026, and again once cached', (zone) => {
    // Every three hours across the year finds each change; then every minute of the day around it.
    const around: number[] = [];
    const year = Date.UTC(2026, 0, 1);
    let before = reference(new Date(year), zone).offsetMinutes;
    for (let ms = year; ms < Date.UTC(2027, 0, 1); ms += 3 * 3_600_000) {
      const offset = reference(new Date(ms), zone).offsetMinutes;
      if (offset !== before) around.push(ms);
      before = offset;
    }
    const instants = around.flatMap((ms) =>
      Array.from({ length: 24 * 60 }, (_, minute) => ms - 12 * 3_600_000 + minute * 60_000 + 17_000),
    );
    instants.push(Date.UTC(2026, 2, 12, 16, 30), Date.UTC(2026, 6, 1, 0, 0, 59));
    for (const pass of ['first', 'cached']) {
      for (const ms of instants) {
        const instant = new Date(ms);
        expect(instantToLocal(instant, zone), `${zone} ${instant.toISOString()} (${pass})`).toEqual(
          reference(instant, zone),
        );
      }
    }
  });

  it('reads an early year whose offset has seconds (local mean time) as Intl does', () => {
    for (const iso of ['1850-06-01T12:00:30Z', '1880-01-01T00:00:00Z', '1847-12-01T00:01:14Z']) {
      const instant = new Date(iso);
      expect(instantToLocal(instant, 'Europe/London')).toEqual(reference(instant, 'Europe/London'));
      expect(instantToLocal(instant, 'Europe/Amsterdam')).toEqual(reference(instant, 'Europe/Amsterdam'));
    }
  });
});
