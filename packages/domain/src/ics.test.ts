import { describe, expect, it } from 'vitest';
import {
  CALENDAR_REMINDER,
  type CalendarEntry,
  type CalendarFileInput,
  calendarFile,
  icsFileName,
} from './ics';

// These tests run under TZ=UTC: nothing here may depend on the host's zone. Every file is read back with
// the small RFC 5545 reader at the bottom, which knows nothing of Intl: it resolves DTSTART;TZID with the
// file's own VTIMEZONE, so a wrong offset or onset shows up as a wrong instant.

const NOW = new Date('2026-03-01T12:00:00Z');

const entry = (overrides: Partial<CalendarEntry> = {}): CalendarEntry => ({
  uid: 'booking-1@parley.test',
  startsAt: new Date('2026-03-12T17:00:00Z'),
  endsAt: new Date('2026-03-12T17:10:00Z'),
  summary: 'Parents’ evening: Ms Patel',
  ...overrides,
});

const file = (overrides: Partial<CalendarFileInput> = {}) =>
  calendarFile({
    productName: 'Parley',
    timeZone: 'Europe/London',
    method: 'PUBLISH',
    entries: [entry()],
    now: NOW,
    ...overrides,
  });

const at = (iso: string) => new Date(iso);

describe('calendarFile: the calendar', () => {
  it('writes the calendar properties, CRLF line ends and a final CRLF', () => {
    const text = file();
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const lines = unfold(text);
    expect(lines.slice(0, 5)).toEqual([
      'BEGIN:VCALENDAR',
      'PRODID:-//Parley//Booking//EN',
      'VERSION:2.0',
      'CALSCALE:GREGORIAN',
      'METHOD:PUBLISH',
    ]);
    expect(lines.filter((line) => line === 'BEGIN:VTIMEZONE')).toHaveLength(1);
    expect(read(text).events).toHaveLength(1);
  });

  it('names the product in PRODID, escaped', () => {
    expect(unfold(file({ productName: 'Acme, Inc; School' }))).toContain(
      'PRODID:-//Acme\\, Inc\\; School//Booking//EN',
    );
  });

  it('writes one event per entry with UID, DTSTAMP from now in UTC, summary, status and sequence', () => {
    const text = file({
      entries: [
        entry(),
        entry({
          uid: 'booking-2@parley.test',
          sequence: 3,
          startsAt: at('2026-03-12T17:10:00Z'),
          endsAt: at('2026-03-12T17:20:00Z'),
        }),
      ],
    });
    const [first, second] = read(text).events;
    expect(first?.props.UID).toBe('booking-1@parley.test');
    expect(first?.props.DTSTAMP).toBe('20260301T120000Z');
    expect(first?.props.SUMMARY).toBe('Parents’ evening: Ms Patel');
    expect(first?.props.STATUS).toBe('CONFIRMED');
    expect(first?.props.SEQUENCE).toBe('0');
    expect(second?.props.UID).toBe('booking-2@parley.test');
    expect(second?.props.SEQUENCE).toBe('3');
  });

  it('writes description, location and URL when present, and leaves them out when not', () => {
    const full = read(
      file({
        entries: [
          entry({ description: 'Maths', location: 'Room 12', url: 'https://parley.test/b/ABC?x=1,2' }),
        ],
      }),
    ).events[0];
    expect(full?.props.DESCRIPTION).toBe('Maths');
    expect(full?.props.LOCATION).toBe('Room 12');
    expect(full?.props.URL).toBe('https://parley.test/b/ABC?x=1,2');
    const bare = read(file({ entries: [entry({ description: null, location: '', url: null })] })).events[0];
    expect(bare?.props).not.toHaveProperty('DESCRIPTION');
    expect(bare?.props).not.toHaveProperty('LOCATION');
    expect(bare?.props).not.toHaveProperty('URL');
  });

  it('adds the product reminder, one day before, to confirmed entries', () => {
    const event = read(file()).events[0];
    expect(event?.alarms).toEqual([
      { ACTION: 'DISPLAY', DESCRIPTION: 'Reminder: 1 day before', TRIGGER: '-P1D' },
    ]);
    expect(CALENDAR_REMINDER).toEqual({ trigger: '-P1D', text: 'Reminder: 1 day before' });
  });

  it('marks entries cancelled under METHOD:CANCEL, without a reminder', () => {
    const text = file({ method: 'CANCEL', entries: [entry({ sequence: 1 })] });
    expect(unfold(text)).toContain('METHOD:CANCEL');
    const event = read(text).events[0];
    expect(event?.props.STATUS).toBe('CANCELLED');
    expect(event?.props.SEQUENCE).toBe('1');
    expect(event?.alarms).toEqual([]);
  });

  it('mixes confirmed and cancelled entries in one PUBLISH', () => {
    const text = file({ entries: [entry(), entry({ uid: 'booking-2@parley.test', status: 'CANCELLED' })] });
    expect(read(text).events.map((e) => [e.props.STATUS, e.alarms.length])).toEqual([
      ['CONFIRMED', 1],
      ['CANCELLED', 0],
    ]);
  });

  it('still writes a valid calendar with no entries (time zone of the current year)', () => {
    const text = file({ entries: [] });
    expect(read(text).events).toEqual([]);
    expect(read(text).zone.observances.map((o) => o.dtstart)).toEqual([
      '20260101T000000',
      '20260329T010000',
      '20261025T020000',
    ]);
  });

  it('refuses an unknown zone, an entry that does not end after it starts, a bad sequence or URL', () => {
    expect(() => file({ timeZone: 'Mars/Olympus' })).toThrow(RangeError);
    expect(() => file({ timeZone: '' })).toThrow(RangeError);
    expect(() => file({ entries: [entry({ endsAt: at('2026-03-12T17:00:00Z') })] })).toThrow(RangeError);
    expect(() => file({ entries: [entry({ startsAt: new Date(Number.NaN) })] })).toThrow(RangeError);
    expect(() => file({ entries: [entry({ sequence: -1 })] })).toThrow(RangeError);
    expect(() => file({ entries: [entry({ sequence: 1.5 })] })).toThrow(RangeError);
    expect(() => file({ entries: [entry({ url: 'https://x.test/\r\nATTACH:evil' })] })).toThrow(RangeError);
  });
});

describe('calendarFile: VTIMEZONE', () => {
  it('Europe/London 2026: GMT on 1 January, BST from 29 March 01:00Z, GMT from 25 October 01:00Z', () => {
    const { zone } = read(file());
    expect(zone.tzid).toBe('Europe/London');
    expect(zone.observances).toEqual([
      { kind: 'STANDARD', dtstart: '20260101T000000', from: '+0000', to: '+0000' },
      { kind: 'DAYLIGHT', dtstart: '20260329T010000', from: '+0000', to: '+0100' },
      { kind: 'STANDARD', dtstart: '20261025T020000', from: '+0100', to: '+0000' },
    ]);
    expect(onsets(zone)).toEqual([
      '2026-01-01T00:00:00.000Z',
      '2026-03-29T01:00:00.000Z',
      '2026-10-25T01:00:00.000Z',
    ]);
  });

  it('America/New_York 2026: EDT from 8 March 07:00Z, EST from 1 November 06:00Z', () => {
    const { zone } = read(file({ timeZone: 'America/New_York' }));
    expect(zone.observances).toEqual([
      { kind: 'STANDARD', dtstart: '20260101T000000', from: '-0500', to: '-0500' },
      { kind: 'DAYLIGHT', dtstart: '20260308T020000', from: '-0500', to: '-0400' },
      { kind: 'STANDARD', dtstart: '20261101T020000', from: '-0400', to: '-0500' },
    ]);
    expect(onsets(zone).slice(1)).toEqual(['2026-03-08T07:00:00.000Z', '2026-11-01T06:00:00.000Z']);
  });

  it('Australia/Lord_Howe 2026: a 30-minute daylight saving, summer in January', () => {
    const { zone } = read(file({ timeZone: 'Australia/Lord_Howe' }));
    expect(zone.observances).toEqual([
      { kind: 'DAYLIGHT', dtstart: '20260101T000000', from: '+1100', to: '+1100' },
      { kind: 'STANDARD', dtstart: '20260405T020000', from: '+1100', to: '+1030' },
      { kind: 'DAYLIGHT', dtstart: '20261004T020000', from: '+1030', to: '+1100' },
    ]);
    // 02:00 +11 = 15:00Z the day before; 02:00 +10:30 = 15:30Z the day before.
    expect(onsets(zone).slice(1)).toEqual(['2026-04-04T15:00:00.000Z', '2026-10-03T15:30:00.000Z']);
  });

  it('Asia/Kolkata and UTC: one STANDARD, no changes', () => {
    expect(read(file({ timeZone: 'Asia/Kolkata' })).zone.observances).toEqual([
      { kind: 'STANDARD', dtstart: '20260101T000000', from: '+0530', to: '+0530' },
    ]);
    const utc = read(file({ timeZone: 'UTC' }));
    expect(utc.zone.tzid).toBe('UTC');
    expect(utc.zone.observances).toEqual([
      { kind: 'STANDARD', dtstart: '20260101T000000', from: '+0000', to: '+0000' },
    ]);
  });

  it('covers every year the entries span, and only those', () => {
    const across = file({
      entries: [entry({ startsAt: at('2026-12-31T23:00:00Z'), endsAt: at('2027-01-01T01:00:00Z') })],
    });
    expect(read(across).zone.observances.map((o) => o.dtstart)).toEqual([
      '20260101T000000',
      '20260329T010000',
      '20261025T020000',
      '20270328T010000',
      '20271031T020000',
    ]);
    // 2026 and 2028 but not 2027: the offset in force on 1 January 2028 starts its own run.
    const apart = file({
      entries: [
        entry(),
        entry({ uid: 'b', startsAt: at('2028-06-01T17:00:00Z'), endsAt: at('2028-06-01T17:10:00Z') }),
      ],
    });
    expect(read(apart).zone.observances.map((o) => o.dtstart)).toEqual([
      '20260101T000000',
      '20260329T010000',
      '20261025T020000',
      '20280101T000000',
      '20280326T010000',
      '20281029T020000',
    ]);
  });

  it('takes the year on the zone’s own calendar (New Year in Auckland is still December in UTC)', () => {
    const text = file({
      timeZone: 'Pacific/Auckland',
      entries: [entry({ startsAt: at('2026-12-31T12:00:00Z'), endsAt: at('2026-12-31T12:10:00Z') })],
    });
    expect(read(text).zone.observances[0]).toEqual({
      kind: 'DAYLIGHT',
      dtstart: '20270101T000000',
      from: '+1300',
      to: '+1300',
    });
  });
});

describe('calendarFile: event times in the school’s zone', () => {
  it('writes DTSTART and DTEND as wall-clock times with TZID', () => {
    const event = read(file()).events[0];
    expect(event?.lines).toContain('DTSTART;TZID=Europe/London:20260312T170000');
    expect(event?.lines).toContain('DTEND;TZID=Europe/London:20260312T171000');
    const summer = read(
      file({
        entries: [entry({ startsAt: at('2026-07-01T16:00:00Z'), endsAt: at('2026-07-01T16:10:00Z') })],
      }),
    );
    expect(summer.events[0]?.lines).toContain('DTSTART;TZID=Europe/London:20260701T170000');
  });

  it.each([
    // London, clocks forward 29 March 2026 01:00Z: 00:30 GMT, then 02:30 BST.
    ['Europe/London', '2026-03-29T00:30:00Z', '20260329T003000'],
    ['Europe/London', '2026-03-29T01:30:00Z', '20260329T023000'],
    // London, clocks back 25 October 2026 01:00Z: the first 01:30 is BST.
    ['Europe/London', '2026-10-25T00:30:00Z', '20261025T013000'],
    ['Europe/London', '2026-10-25T02:30:00Z', '20261025T023000'],
    ['America/New_York', '2026-03-08T06:30:00Z', '20260308T013000'],
    ['America/New_York', '2026-03-08T07:30:00Z', '20260308T033000'],
    ['Australia/Lord_Howe', '2026-04-04T14:45:00Z', '20260405T014500'],
    ['Australia/Lord_Howe', '2026-10-03T15:45:00Z', '20261004T024500'],
    ['Asia/Kolkata', '2026-03-12T11:00:00Z', '20260312T163000'],
    ['UTC', '2026-03-12T17:00:00Z', '20260312T170000'],
  ])('%s: %s → local %s, and back', (timeZone, iso, local) => {
    const startsAt = at(iso);
    const endsAt = new Date(startsAt.getTime() + 10 * 60_000);
    const text = file({ timeZone, entries: [entry({ startsAt, endsAt })] });
    const parsed = read(text);
    expect(parsed.events[0]?.lines).toContain(`DTSTART;TZID=${timeZone}:${local}`);
    expect(instantOf(parsed, 'DTSTART', 0)).toBe(startsAt.toISOString());
    expect(instantOf(parsed, 'DTEND', 0)).toBe(endsAt.toISOString());
  });

  it('writes the second run of a repeated hour in UTC, which a wall time cannot say', () => {
    // 25 October 2026 01:30 GMT (01:30Z) reads as 01:30 BST (00:30Z) when written with TZID.
    const startsAt = at('2026-10-25T01:30:00Z');
    const endsAt = at('2026-10-25T01:40:00Z');
    const parsed = read(file({ entries: [entry({ startsAt, endsAt })] }));
    expect(parsed.events[0]?.lines).toContain('DTSTART:20261025T013000Z');
    expect(instantOf(parsed, 'DTSTART', 0)).toBe(startsAt.toISOString());
    expect(instantOf(parsed, 'DTEND', 0)).toBe(endsAt.toISOString());
  });

  it('round-trips every half hour of 2026 in London, New York, Lord Howe and Kolkata', () => {
    for (const timeZone of ['Europe/London', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata']) {
      const entries: CalendarEntry[] = [];
      // Around each change, and a sample across the year.
      const starts = [
        ...halfHours('2026-03-07T00:00:00Z', 72),
        ...halfHours('2026-03-28T00:00:00Z', 72),
        ...halfHours('2026-04-03T00:00:00Z', 96),
        ...halfHours('2026-10-02T00:00:00Z', 96),
        ...halfHours('2026-10-24T00:00:00Z', 72),
        ...halfHours('2026-10-31T00:00:00Z', 72),
        ...Array.from({ length: 52 }, (_, week) => Date.UTC(2026, 0, 1 + 7 * week, 9, 15)),
      ];
      starts.forEach((start, i) => {
        entries.push(
          entry({ uid: `e${i}`, startsAt: new Date(start), endsAt: new Date(start + 45 * 60_000) }),
        );
      });
      const parsed = read(file({ timeZone, entries }));
      entries.forEach((original, i) => {
        expect(instantOf(parsed, 'DTSTART', i), `${timeZone} ${original.startsAt.toISOString()}`).toBe(
          original.startsAt.toISOString(),
        );
        expect(instantOf(parsed, 'DTEND', i)).toBe(original.endsAt.toISOString());
      });
    }
  });
});

describe('calendarFile: text values and folding', () => {
  it('escapes backslash, semicolon, comma and line breaks, and drops other control characters', () => {
    const description = 'Bring: pens, paper; a \\ ruler\r\nRoom 3\nor 4\rask\u0007 at the desk\ttoday';
    const event = read(file({ entries: [entry({ description, summary: 'A, B; C' })] })).events[0];
    expect(event?.raw.DESCRIPTION).toBe(
      'Bring: pens\\, paper\\; a \\\\ ruler\\nRoom 3\\nor 4\\nask at the desk\ttoday',
    );
    expect(event?.props.DESCRIPTION).toBe(
      'Bring: pens, paper; a \\ ruler\nRoom 3\nor 4\nask at the desk\ttoday',
    );
    expect(event?.raw.SUMMARY).toBe('A\\, B\\; C');
  });

  it('folds long lines at 75 octets without splitting a character, and unfolds to the same text', () => {
    const pieces = ['é', '—', '😀', 'a', '中'];
    for (let length = 0; length < 160; length += 7) {
      for (const piece of pieces) {
        const summary = `${'x'.repeat(length % 80)}${piece.repeat(length)}, done`;
        const text = file({ entries: [entry({ summary })] });
        for (const line of text.split('\r\n')) {
          expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
          expect(line).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
        }
        expect(read(text).events[0]?.props.SUMMARY).toBe(summary);
      }
    }
  });

  it('starts each continuation with exactly one space', () => {
    const text = file({ entries: [entry({ summary: 'y'.repeat(200) })] });
    const lines = text.split('\r\n');
    const start = lines.findIndex((line) => line.startsWith('SUMMARY:'));
    expect(lines[start]).toHaveLength(75);
    expect(lines[start + 1]).toMatch(/^ y{74}$/);
    expect(lines[start + 2]).toMatch(/^ y{59}$/);
  });
});

describe('icsFileName', () => {
  it.each([
    ['Parents’ evening: Year 7', 'Parents-evening-Year-7.ics'],
    ['Élan & Co / "Spring" 2026', 'Elan-Co-Spring-2026.ics'],
    ['report.ics', 'report.ics'],
    ['  ..hidden  ', 'hidden.ics'],
    ['../../etc/passwd', 'etc-passwd.ics'],
    ['中文', 'event.ics'],
    ['', 'event.ics'],
    ['CON', 'event-CON.ics'],
    ['nul.txt', 'event-nul.txt.ics'],
    ['a\u0000b\nc', 'a-b-c.ics'],
  ])('%j → %s', (name, expected) => {
    expect(icsFileName(name)).toBe(expected);
  });

  it('keeps names short', () => {
    const name = icsFileName(`${'Long name '.repeat(30)}`);
    expect(name.length).toBeLessThanOrEqual(84);
    expect(name).toMatch(/^[A-Za-z0-9][A-Za-z0-9._-]*[A-Za-z0-9]\.ics$/);
  });
});

// ── a tiny RFC 5545 reader ───────────────────────────────────────────────────────────────────────────

type Observance = { kind: string; dtstart: string; from: string; to: string };
type ParsedEvent = {
  /** unfolded content lines of the event itself (not its alarms) */
  lines: string[];
  /** property name → raw (still escaped) value */
  raw: Record<string, string>;
  /** property name → unescaped value */
  props: Record<string, string>;
  alarms: Array<Record<string, string>>;
};
type Parsed = { zone: { tzid: string; observances: Observance[] }; events: ParsedEvent[] };

/** Content lines, unfolded (RFC 5545 §3.1: CRLF followed by one space or tab is removed). */
function unfold(text: string): string[] {
  return text
    .replace(/\r\n[ \t]/g, '')
    .split('\r\n')
    .filter((line) => line !== '');
}

function read(text: string): Parsed {
  const parsed: Parsed = { zone: { tzid: '', observances: [] }, events: [] };
  const stack: string[] = [];
  let observance: Observance | null = null;
  let event: ParsedEvent | null = null;
  let alarm: Record<string, string> | null = null;
  for (const line of unfold(text)) {
    const colon = line.indexOf(':');
    const [name = '', ...params] = line.slice(0, colon).split(';');
    const value = line.slice(colon + 1);
    if (name === 'BEGIN') {
      stack.push(value);
      if (value === 'STANDARD' || value === 'DAYLIGHT')
        observance = { kind: value, dtstart: '', from: '', to: '' };
      if (value === 'VEVENT') event = { lines: [], raw: {}, props: {}, alarms: [] };
      if (value === 'VALARM') alarm = {};
      continue;
    }
    if (name === 'END') {
      expect(stack.pop()).toBe(value);
      if (observance && (value === 'STANDARD' || value === 'DAYLIGHT'))
        parsed.zone.observances.push(observance);
      if (event && value === 'VEVENT') parsed.events.push(event);
      if (alarm && value === 'VALARM') event?.alarms.push(alarm);
      if (value === 'VALARM') alarm = null;
      continue;
    }
    const top = stack.at(-1);
    if (top === 'VTIMEZONE' && name === 'TZID') parsed.zone.tzid = value;
    if ((top === 'STANDARD' || top === 'DAYLIGHT') && observance) {
      if (name === 'DTSTART') observance.dtstart = value;
      if (name === 'TZOFFSETFROM') observance.from = value;
      if (name === 'TZOFFSETTO') observance.to = value;
    }
    if (top === 'VALARM' && alarm) alarm[name] = value;
    if (top === 'VEVENT' && event) {
      event.lines.push(line);
      const key =
        params.length > 0 && name !== 'DTSTART' && name !== 'DTEND' ? `${name};${params.join(';')}` : name;
      event.raw[key] = value;
      event.props[key] = name === 'URL' ? value : unescapeText(value);
      if (params.length > 0) event.props[`${name}:params`] = params.join(';');
    }
  }
  expect(stack).toEqual([]);
  return parsed;
}

function unescapeText(value: string): string {
  return value.replace(/\\([\\;,nN])/g, (_, char: string) => (char === 'n' || char === 'N' ? '\n' : char));
}

/** Wall-clock YYYYMMDDTHHMMSS as ms "as if UTC". */
function wallMs(value: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})$/.exec(value);
  if (!m) throw new Error(`bad date-time ${value}`);
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  return Date.UTC(y, mo - 1, d, h, mi, s);
}

/** ±HHMM[SS] in ms. */
function offsetMs(value: string): number {
  const m = /^([+-])(\d{2})(\d{2})(\d{2})?$/.exec(value);
  if (!m) throw new Error(`bad offset ${value}`);
  const ms = (Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4] ?? 0)) * 1000;
  return m[1] === '-' ? -ms : ms;
}

/** Each observance's onset as an instant: its DTSTART is wall time in the offset before it. */
function onsets(zone: Parsed['zone']): string[] {
  return zone.observances.map((o) => new Date(wallMs(o.dtstart) - offsetMs(o.from)).toISOString());
}

/**
 * The instant of an event's DTSTART or DTEND: UTC as written, or a TZID wall time resolved with the
 * file's VTIMEZONE (the offset in force is that of the latest onset at or before the instant; of two
 * readings, the earlier, as RFC 5545 §3.3.5 says).
 */
function instantOf(parsed: Parsed, property: 'DTSTART' | 'DTEND', index: number): string {
  const event = parsed.events[index];
  const value = event?.props[property] ?? '';
  const params = event?.props[`${property}:params`];
  if (value.endsWith('Z')) {
    expect(params).toBeUndefined();
    return new Date(wallMs(value.slice(0, -1))).toISOString();
  }
  expect(params).toBe(`TZID=${parsed.zone.tzid}`);
  const wall = wallMs(value);
  const changes = parsed.zone.observances
    .map((o) => ({ at: wallMs(o.dtstart) - offsetMs(o.from), from: offsetMs(o.from), to: offsetMs(o.to) }))
    .sort((a, b) => a.at - b.at);
  const offsetAt = (instant: number) =>
    changes.filter((c) => c.at <= instant).at(-1)?.to ?? changes[0]?.from ?? Number.NaN;
  const readings = [...new Set(changes.flatMap((c) => [c.from, c.to]))]
    .map((offset) => wall - offset)
    .filter((instant) => offsetAt(instant) === wall - instant)
    .sort((a, b) => a - b);
  expect(readings.length).toBeGreaterThan(0);
  return new Date(readings[0] ?? Number.NaN).toISOString();
}

function halfHours(fromIso: string, count: number): number[] {
  const from = Date.parse(fromIso);
  return Array.from({ length: count }, (_, i) => from + i * 30 * 60_000);
}
