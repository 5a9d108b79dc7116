import { describe, expect, it } from 'vitest';
import { eventChoices, toSectionSummary } from './events';
import { perInstant, sectionLabel } from './time-zone';

// The event formatting the server's events and booking modules share (moved here from the events service).

describe('sectionLabel', () => {
  it('reads a span on the school’s wall clock, across a DST change', () => {
    const starts = new Date('2026-03-29T00:30:00Z'); // 00:30 GMT, the night London moves to BST
    const ends = new Date('2026-03-29T01:30:00Z'); // 02:30 BST
    expect(sectionLabel(starts, ends, 'Europe/London')).toBe('Sun 29 Mar 2026, 00:30 – 02:30');
    expect(sectionLabel(starts, ends, 'America/New_York')).toBe('Sat 28 Mar 2026, 20:30 – 21:30');
  });
});

describe('perInstant', () => {
  it('formats each distinct instant once', () => {
    let calls = 0;
    const format = perInstant((instant) => `${++calls}:${instant.toISOString()}`);
    const a = new Date('2026-01-01T10:00:00Z');
    expect(format(a)).toBe('1:2026-01-01T10:00:00.000Z');
    expect(format(new Date(a.getTime()))).toBe('1:2026-01-01T10:00:00.000Z');
    expect(format(new Date('2026-01-01T10:10:00Z'))).toBe('2:2026-01-01T10:10:00.000Z');
  });
});

describe('eventChoices', () => {
  it('turns the option columns into the options and the choices a family gets', () => {
    expect(
      eventChoices({
        slot_minutes: 10,
        break_minutes: 0,
        travel_minutes: 5,
        capacity: 1,
        guest_allowance: 2,
        gown_sizes: ['S', 'M'],
        max_appointments_per_child: 3,
      }),
    ).toEqual({
      options: {
        slotMinutes: 10,
        breakMinutes: 0,
        travelMinutes: 5,
        usersPerSlot: 1,
        guestAllowance: 2,
        gownSizes: ['S', 'M'],
        maxAppointmentsPerChild: 3,
      },
      guestCountOptions: [0, 1, 2],
      gownOptions: [
        { id: 'S', name: 'S' },
        { id: 'M', name: 'M' },
      ],
    });
  });
});

describe('toSectionSummary', () => {
  it('keeps the local fields, gives the instants as ISO text and labels them in the zone', () => {
    expect(
      toSectionSummary(
        {
          id: 7,
          date: '2026-03-12',
          start_time: '16:00',
          end_time: '19:00',
          starts_at: new Date('2026-03-12T16:00:00Z'),
          ends_at: new Date('2026-03-12T19:00:00Z'),
          location: 'Main hall',
        },
        'Europe/London',
      ),
    ).toEqual({
      id: 7,
      date: '2026-03-12',
      start: '16:00',
      end: '19:00',
      startsAt: '2026-03-12T16:00:00.000Z',
      endsAt: '2026-03-12T19:00:00.000Z',
      location: 'Main hall',
      label: 'Thu 12 Mar 2026, 16:00 – 19:00',
    });
  });
});
