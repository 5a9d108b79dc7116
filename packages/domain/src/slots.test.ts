import { describe, expect, it } from 'vitest';
import {
  type GeneratedSlot,
  generateSlots,
  SECTION_PLAN_TEXT,
  type SectionPlan,
  SlotPlanError,
  slotsAffectedBy,
  validateSectionPlan,
} from './slots';
import { instantToLocal } from './time-zone';

// These tests run under TZ=UTC and TZ=America/Los_Angeles: none of them may depend on the host's zone.

const MINUTE = 60_000;

const plan = (overrides: Partial<SectionPlan> = {}): SectionPlan => ({
  date: '2026-03-12',
  start: '16:00',
  end: '18:00',
  timeZone: 'Europe/London',
  slotMinutes: 10,
  breakMinutes: 0,
  ...overrides,
});

/** Local start times of the slots, as the school sees them. */
const starts = (slots: GeneratedSlot[], zone: string) =>
  slots.map((s) => instantToLocal(s.startsAt, zone).time);
const iso = (date: Date | undefined) => date?.toISOString();

function expectExactLengths(slots: GeneratedSlot[], minutes: number) {
  expect(slots.length).toBeGreaterThan(0);
  for (const slot of slots) expect(slot.endsAt.getTime() - slot.startsAt.getTime()).toBe(minutes * MINUTE);
}

function expectStep(slots: GeneratedSlot[], minutes: number) {
  for (let i = 1; i < slots.length; i++) {
    expect((slots[i]?.startsAt.getTime() ?? 0) - (slots[i - 1]?.startsAt.getTime() ?? 0)).toBe(
      minutes * MINUTE,
    );
  }
}

describe('generateSlots on an ordinary day', () => {
  it('fills the section with consecutive slots, the last ending at the section end', () => {
    const slots = generateSlots(plan());
    expect(slots).toHaveLength(12);
    expect(iso(slots[0]?.startsAt)).toBe('2026-03-12T16:00:00.000Z');
    expect(iso(slots[11]?.startsAt)).toBe('2026-03-12T17:50:00.000Z');
    expect(iso(slots[11]?.endsAt)).toBe('2026-03-12T18:00:00.000Z');
    expectExactLengths(slots, 10);
    expectStep(slots, 10);
  });

  it('separates slots by the break', () => {
    const slots = generateSlots(plan({ end: '17:00', breakMinutes: 5 }));
    expect(starts(slots, 'Europe/London')).toEqual(['16:00', '16:15', '16:30', '16:45']);
    expect(iso(slots[3]?.endsAt)).toBe('2026-03-12T16:55:00.000Z');
    expectExactLengths(slots, 10);
  });

  it('drops the last partial slot of a section that does not divide evenly', () => {
    const slots = generateSlots(plan({ end: '16:55' }));
    expect(starts(slots, 'Europe/London')).toEqual(['16:00', '16:10', '16:20', '16:30', '16:40']);
    expect(iso(slots.at(-1)?.endsAt)).toBe('2026-03-12T16:50:00.000Z');
    const withBreak = generateSlots(plan({ end: '16:50', breakMinutes: 5 }));
    expect(starts(withBreak, 'Europe/London')).toEqual(['16:00', '16:15', '16:30']);
  });

  it('accepts the limits of slot length and break', () => {
    expect(generateSlots(plan({ slotMinutes: 1, end: '16:05' }))).toHaveLength(5);
    expect(generateSlots(plan({ slotMinutes: 240, start: '14:00' }))).toHaveLength(1);
    expect(generateSlots(plan({ slotMinutes: 30, breakMinutes: 120, start: '12:00' }))).toHaveLength(3);
  });

  it('uses the zone given, not the host zone: UTC, New York, Kolkata (+5:30), Adelaide (+10:30)', () => {
    expect(iso(generateSlots(plan({ timeZone: 'UTC' }))[0]?.startsAt)).toBe('2026-03-12T16:00:00.000Z');
    expect(iso(generateSlots(plan({ timeZone: 'America/New_York' }))[0]?.startsAt)).toBe(
      '2026-03-12T20:00:00.000Z',
    );
    const kolkata = generateSlots(plan({ timeZone: 'Asia/Kolkata', end: '17:00', slotMinutes: 15 }));
    expect(kolkata.map((s) => iso(s.startsAt))).toEqual([
      '2026-03-12T10:30:00.000Z',
      '2026-03-12T10:45:00.000Z',
      '2026-03-12T11:00:00.000Z',
      '2026-03-12T11:15:00.000Z',
    ]);
    expect(starts(kolkata, 'Asia/Kolkata')).toEqual(['16:00', '16:15', '16:30', '16:45']);
    const adelaide = generateSlots(plan({ timeZone: 'Australia/Adelaide', end: '16:30', slotMinutes: 15 }));
    expect(iso(adelaide[0]?.startsAt)).toBe('2026-03-12T05:30:00.000Z');
    expect(adelaide).toHaveLength(2);
  });
});

describe('generateSlots with breaks and unavailability (one grid per section)', () => {
  it('skips the slots a range covers; the next slot starts at the range end when it is on the grid', () => {
    const slots = generateSlots(plan({ unavailable: [{ start: '17:00', end: '17:20' }] }));
    expect(starts(slots, 'Europe/London')).toEqual([
      '16:00',
      '16:10',
      '16:20',
      '16:30',
      '16:40',
      '16:50',
      '17:20',
      '17:30',
      '17:40',
      '17:50',
    ]);
  });

  it('keeps later slots on the grid when a range ends between grid points', () => {
    const slots = generateSlots(plan({ unavailable: [{ start: '17:05', end: '17:15' }] }));
    expect(starts(slots, 'Europe/London')).toEqual([
      '16:00',
      '16:10',
      '16:20',
      '16:30',
      '16:40',
      '16:50',
      '17:20',
      '17:30',
      '17:40',
      '17:50',
    ]);
    for (const slot of slots) expect((slot.startsAt.getTime() / MINUTE) % 10).toBe(0);
  });

  it('works with the break between slots: a range touching a slot end or the next start keeps both', () => {
    const base = plan({ breakMinutes: 5 });
    expect(starts(generateSlots(base), 'Europe/London')).toEqual([
      '16:00',
      '16:15',
      '16:30',
      '16:45',
      '17:00',
      '17:15',
      '17:30',
      '17:45',
    ]);
    const teacherBreak = generateSlots({ ...base, unavailable: [{ start: '16:50', end: '17:10' }] });
    expect(starts(teacherBreak, 'Europe/London')).toEqual([
      '16:00',
      '16:15',
      '16:30',
      '17:15',
      '17:30',
      '17:45',
    ]);
    const touching = generateSlots({ ...base, unavailable: [{ start: '16:55', end: '17:15' }] });
    expect(starts(touching, 'Europe/London')).toEqual([
      '16:00',
      '16:15',
      '16:30',
      '16:45',
      '17:15',
      '17:30',
      '17:45',
    ]);
  });

  it('handles ranges at the edges of the section and beyond them', () => {
    const lateArrival = generateSlots(plan({ unavailable: [{ start: '15:00', end: '16:30' }] }));
    expect(starts(lateArrival, 'Europe/London')[0]).toBe('16:30');
    expect(lateArrival).toHaveLength(9);

    const earlyLeave = generateSlots(plan({ unavailable: [{ start: '17:40', end: '19:00' }] }));
    expect(starts(earlyLeave, 'Europe/London').at(-1)).toBe('17:30');
    expect(iso(earlyLeave.at(-1)?.endsAt)).toBe('2026-03-12T17:40:00.000Z');

    const touchingOutside = generateSlots(
      plan({
        unavailable: [
          { start: '15:00', end: '16:00' },
          { start: '18:00', end: '19:00' },
        ],
      }),
    );
    expect(touchingOutside).toHaveLength(12);
  });

  it('merges overlapping ranges and can leave no slot at all', () => {
    const overlapping = generateSlots(
      plan({
        unavailable: [
          { start: '16:40', end: '17:00' },
          { start: '16:20', end: '16:45' },
        ],
      }),
    );
    expect(starts(overlapping, 'Europe/London').slice(0, 3)).toEqual(['16:00', '16:10', '17:00']);
    expect(overlapping).toHaveLength(8);
    expect(generateSlots(plan({ unavailable: [{ start: '12:00', end: '20:00' }] }))).toEqual([]);
  });
});

describe('generateSlots across DST changes counts real elapsed minutes', () => {
  it('London spring forward 2027-03-28 00:30–03:30 local is 2 real hours: 12 slots', () => {
    const slots = generateSlots(plan({ date: '2027-03-28', start: '00:30', end: '03:30' }));
    expect(slots).toHaveLength(12);
    expectExactLengths(slots, 10);
    expectStep(slots, 10);
    expect(iso(slots[0]?.startsAt)).toBe('2027-03-28T00:30:00.000Z');
    expect(iso(slots[11]?.endsAt)).toBe('2027-03-28T02:30:00.000Z');
    expect(starts(slots, 'Europe/London').slice(0, 5)).toEqual(['00:30', '00:40', '00:50', '02:00', '02:10']);
  });

  it('London fall back 2026-10-25 00:30–02:30 local is 3 real hours: 18 slots, 01:00–01:50 twice', () => {
    const slots = generateSlots(plan({ date: '2026-10-25', start: '00:30', end: '02:30' }));
    expect(slots).toHaveLength(18);
    expectExactLengths(slots, 10);
    expectStep(slots, 10);
    expect(iso(slots[0]?.startsAt)).toBe('2026-10-24T23:30:00.000Z');
    expect(iso(slots[17]?.endsAt)).toBe('2026-10-25T02:30:00.000Z');
    const local = starts(slots, 'Europe/London');
    expect(local.filter((time) => time === '01:30')).toHaveLength(2);
    expect(local.slice(8, 10)).toEqual(['01:50', '01:00']);
  });

  it('New York both directions (30-minute slots)', () => {
    const spring = generateSlots(
      plan({
        timeZone: 'America/New_York',
        date: '2026-03-08',
        start: '01:00',
        end: '04:00',
        slotMinutes: 30,
      }),
    );
    expect(starts(spring, 'America/New_York')).toEqual(['01:00', '01:30', '03:00', '03:30']);
    expectExactLengths(spring, 30);

    const fall = generateSlots(
      plan({
        timeZone: 'America/New_York',
        date: '2026-11-01',
        start: '00:00',
        end: '03:00',
        slotMinutes: 30,
      }),
    );
    expect(starts(fall, 'America/New_York')).toEqual([
      '00:00',
      '00:30',
      '01:00',
      '01:30',
      '01:00',
      '01:30',
      '02:00',
      '02:30',
    ]);
    expect(iso(fall[0]?.startsAt)).toBe('2026-11-01T04:00:00.000Z');
    expectExactLengths(fall, 30);
  });

  it('Sydney (southern hemisphere): back in April, forward in October', () => {
    const april = generateSlots(
      plan({
        timeZone: 'Australia/Sydney',
        date: '2026-04-05',
        start: '01:00',
        end: '04:00',
        slotMinutes: 20,
      }),
    );
    expect(april).toHaveLength(12);
    expect(iso(april[0]?.startsAt)).toBe('2026-04-04T14:00:00.000Z');
    expectExactLengths(april, 20);

    const october = generateSlots(
      plan({
        timeZone: 'Australia/Sydney',
        date: '2026-10-04',
        start: '01:00',
        end: '04:00',
        slotMinutes: 20,
      }),
    );
    expect(starts(october, 'Australia/Sydney')).toEqual([
      '01:00',
      '01:20',
      '01:40',
      '03:00',
      '03:20',
      '03:40',
    ]);
    expectExactLengths(october, 20);
  });

  it('Adelaide (+9:30/+10:30) forward in October', () => {
    const slots = generateSlots(
      plan({
        timeZone: 'Australia/Adelaide',
        date: '2026-10-04',
        start: '01:00',
        end: '04:00',
        slotMinutes: 30,
      }),
    );
    expect(starts(slots, 'Australia/Adelaide')).toEqual(['01:00', '01:30', '03:00', '03:30']);
    expect(iso(slots[0]?.startsAt)).toBe('2026-10-03T15:30:00.000Z');
  });

  it('a start inside the gap moves on by the gap; a start inside the overlap is the earlier one', () => {
    const gap = generateSlots(plan({ date: '2027-03-28', start: '01:30', end: '03:00' }));
    expect(starts(gap, 'Europe/London')).toEqual(['02:30', '02:40', '02:50']);
    expect(iso(gap[0]?.startsAt)).toBe('2027-03-28T01:30:00.000Z');

    const overlap = generateSlots(plan({ date: '2026-10-25', start: '01:30', end: '03:00' }));
    expect(iso(overlap[0]?.startsAt)).toBe('2026-10-25T00:30:00.000Z');
    expect(overlap).toHaveLength(15);
  });

  it('an unavailable range in the fall-back hour covers its earlier reading only', () => {
    const slots = generateSlots(
      plan({
        date: '2026-10-25',
        start: '00:30',
        end: '02:30',
        unavailable: [{ start: '01:00', end: '01:30' }],
      }),
    );
    expect(slots).toHaveLength(15);
    expect(slots.map((s) => iso(s.startsAt))).not.toContain('2026-10-25T00:00:00.000Z');
    expect(slots.map((s) => iso(s.startsAt))).toContain('2026-10-25T01:00:00.000Z');
  });
});

describe('generateSlots refuses plans that cannot make slots', () => {
  const refusal = (overrides: Partial<SectionPlan>) => {
    try {
      generateSlots(plan(overrides));
    } catch (error) {
      return error;
    }
    throw new Error('expected a SlotPlanError');
  };

  it.each([
    [{ end: '16:00' }, 'end', 'End must be after start'],
    [{ end: '15:00' }, 'end', 'End must be after start'],
    [{ slotMinutes: 0 }, 'slotMinutes', 'Slot length must be between 1 and 240 minutes'],
    [{ slotMinutes: 241 }, 'slotMinutes', 'Slot length must be between 1 and 240 minutes'],
    [{ breakMinutes: -1 }, 'breakMinutes', 'Break must be between 0 and 120 minutes'],
    [{ breakMinutes: 121 }, 'breakMinutes', 'Break must be between 0 and 120 minutes'],
  ] as const)('%j → %s: %s', (overrides, field, text) => {
    const error = refusal(overrides);
    expect(error).toBeInstanceOf(SlotPlanError);
    expect(error).toBeInstanceOf(Error);
    expect((error as SlotPlanError).name).toBe('SlotPlanError');
    expect((error as SlotPlanError).errors).toEqual({ [field]: [text] });
    expect((error as SlotPlanError).message).toBe(text);
  });

  it('refuses an end that is after the start on the clock face but before it in time (spring gap)', () => {
    // 01:30 does not exist and becomes 02:30 BST; 02:00 BST is half an hour before that.
    const error = refusal({ date: '2027-03-28', start: '01:30', end: '02:00' }) as SlotPlanError;
    expect(error.errors).toEqual({ end: ['End must be after start'] });
  });

  it('lists every problem in the message', () => {
    const error = refusal({ start: '9am', slotMinutes: 0 }) as SlotPlanError;
    expect(error.message).toBe('Enter a time as HH:MM; Slot length must be between 1 and 240 minutes');
  });
});

describe('validateSectionPlan texts', () => {
  it('finds nothing wrong with a good plan', () => {
    expect(validateSectionPlan(plan({ unavailable: [{ start: '17:00', end: '17:15' }] }))).toEqual({});
  });

  it('names each bad field with a clear text', () => {
    expect(
      validateSectionPlan({
        date: '2026-02-30',
        start: '4pm',
        end: '25:00',
        timeZone: 'Mars/Olympus',
        slotMinutes: 7.5,
        breakMinutes: 2.5,
        unavailable: [{ start: '17:00', end: '5pm' }],
      }),
    ).toEqual({
      date: ['Enter a date as YYYY-MM-DD'],
      start: ['Enter a time as HH:MM'],
      end: ['Enter a time as HH:MM'],
      timeZone: ['Unknown time zone'],
      slotMinutes: ['Slot length must be a whole number of minutes'],
      breakMinutes: ['Break must be a whole number of minutes'],
      unavailable: ['Unavailable time 1: enter times as HH:MM'],
    });
  });

  it('reports out-of-range minutes and non-numbers', () => {
    expect(validateSectionPlan(plan({ slotMinutes: 300, breakMinutes: 500 }))).toEqual({
      slotMinutes: [SECTION_PLAN_TEXT.slotRange],
      breakMinutes: [SECTION_PLAN_TEXT.breakRange],
    });
    expect(
      validateSectionPlan(plan({ slotMinutes: Number.NaN, breakMinutes: '5' as unknown as number })),
    ).toEqual({
      slotMinutes: ['Slot length must be a whole number of minutes'],
      breakMinutes: ['Break must be a whole number of minutes'],
    });
  });

  it('says when the section cannot hold one slot', () => {
    expect(validateSectionPlan(plan({ end: '16:05' }))).toEqual({
      end: ['The section is shorter than one slot'],
    });
    expect(validateSectionPlan(plan({ end: '16:10' }))).toEqual({});
  });

  it('numbers the unavailable ranges it refuses', () => {
    expect(
      validateSectionPlan(
        plan({
          unavailable: [
            { start: '16:30', end: '16:45' },
            { start: '17:00', end: '16:50' },
            { start: '17:10', end: '17:10' },
            { start: '', end: '17:30' },
          ],
        }),
      ),
    ).toEqual({
      unavailable: [
        'Unavailable time 2: end must be after start',
        'Unavailable time 3: end must be after start',
        'Unavailable time 4: enter times as HH:MM',
      ],
    });
  });

  it('refuses unavailable times that are not a list', () => {
    expect(validateSectionPlan(plan({ unavailable: '17:00-17:15' as unknown as [] }))).toEqual({
      unavailable: ['Unavailable times must be a list of start and end times'],
    });
  });

  it('does not compare times when the date or zone is unusable', () => {
    expect(validateSectionPlan(plan({ date: '', end: '15:00' }))).toEqual({ date: [SECTION_PLAN_TEXT.date] });
    expect(validateSectionPlan(plan({ timeZone: '', end: '15:00' }))).toEqual({
      timeZone: [SECTION_PLAN_TEXT.timeZone],
    });
  });
});

describe('slotsAffectedBy', () => {
  const before = generateSlots(plan({ end: '17:00' })).map((slot, index) => ({
    ...slot,
    id: index + 1,
    booked: [1, 3, 5, 6].includes(index + 1),
  }));
  const ids = (slots: Array<{ id: number }>) => slots.map((slot) => slot.id);

  it('finds nothing when the slots are regenerated unchanged (new Date objects, same instants)', () => {
    expect(slotsAffectedBy(before, generateSlots(plan({ end: '17:00' })))).toEqual([]);
  });

  it('lists the booked slots an earlier end drops, not the free ones', () => {
    // 16:00–16:40 keeps slots 1–4; 5 (booked) and 6 (booked) go.
    expect(ids(slotsAffectedBy(before, generateSlots(plan({ end: '16:40' }))))).toEqual([5, 6]);
    expect(ids(slotsAffectedBy(before, generateSlots(plan({ end: '16:50' }))))).toEqual([6]);
  });

  it('lists booked slots that move: same start with a new end counts', () => {
    // 15-minute slots: 16:00–16:15 starts with slot 1 but ends later; every booked slot moves.
    expect(ids(slotsAffectedBy(before, generateSlots(plan({ end: '17:00', slotMinutes: 15 }))))).toEqual([
      1, 3, 5, 6,
    ]);
    // A later start shifts the grid.
    expect(ids(slotsAffectedBy(before, generateSlots(plan({ start: '16:05', end: '17:00' }))))).toEqual([
      1, 3, 5, 6,
    ]);
  });

  it('a new teacher break drops only the slots it covers', () => {
    const withBreak = generateSlots(plan({ end: '17:00', unavailable: [{ start: '16:15', end: '16:30' }] }));
    // Slots 2 (16:10, free) and 3 (16:20, booked) go; 16:30 onwards stay put.
    expect(ids(slotsAffectedBy(before, withBreak))).toEqual([3]);
  });

  it('returns the caller’s own slot objects', () => {
    const [affected] = slotsAffectedBy(before, []);
    expect(affected).toBe(before[0]);
    expect(slotsAffectedBy(before, [])).toHaveLength(4);
  });
});
