import { describe, expect, it } from 'vitest';
import {
  CALENDAR_ALERT_MINUTES,
  CALENDAR_DEFAULT_LOCATION,
  CALENDAR_EVENT_HOURS,
  CALENDAR_TEXT,
  calendarEventPayload,
  titleMatches,
  wholeDay,
} from './calendar-event';

// Spec §3 calendar payload and §9 calendar constants, §8 Calendar texts (word for word).

describe('calendar event payload (spec §3, §9)', () => {
  const start = Date.parse('2026-03-12T16:00:00.000Z');

  it('lasts two hours from the event date, alerts 1,440 minutes before, with the default notes', () => {
    expect(calendarEventPayload({ name: 'Spring evening', eventDate: '2026-03-12T16:00:00.000Z' })).toEqual({
      title: 'Spring evening',
      location: 'School',
      notes: 'School meeting event: Spring evening',
      startDate: start,
      endDate: start + 7_200_000,
      isAllDay: false,
      alertOffsetInMinutes: [1440],
    });
    expect([CALENDAR_EVENT_HOURS, CALENDAR_ALERT_MINUTES, CALENDAR_DEFAULT_LOCATION]).toEqual([
      2,
      1440,
      'School',
    ]);
  });

  it('keeps a given location and notes, and takes a ms timestamp as the date', () => {
    const payload = calendarEventPayload({
      name: 'Prom',
      eventDate: start,
      location: 'Main hall',
      notes: 'Bring the ticket',
    });
    expect(payload).toMatchObject({ location: 'Main hall', notes: 'Bring the ticket', startDate: start });
  });

  it('has nothing to add without a usable date', () => {
    expect(calendarEventPayload({ name: 'A', eventDate: null })).toBeNull();
    expect(calendarEventPayload({ name: 'A', eventDate: 'soon' })).toBeNull();
  });
});

describe('existence check (spec §9: the whole day, titles containing the name)', () => {
  it('spans the local day of the event date, midnight to the last millisecond', () => {
    // TZ=UTC in the web test project.
    expect(wholeDay(Date.parse('2026-03-12T16:00:00.000Z'))).toEqual({
      from: Date.parse('2026-03-12T00:00:00.000Z'),
      to: Date.parse('2026-03-12T23:59:59.999Z'),
    });
  });

  it('matches titles that contain the name, nothing else', () => {
    expect(titleMatches('Spring evening', 'Spring evening')).toBe(true);
    expect(titleMatches('Hill School: Spring evening (Room 4)', 'Spring evening')).toBe(true);
    expect(titleMatches('Spring', 'Spring evening')).toBe(false);
    expect(titleMatches(null, 'Spring evening')).toBe(false);
    expect(titleMatches('anything', '')).toBe(false);
  });
});

it('spec §8 Calendar texts, word for word', () => {
  expect(CALENDAR_TEXT).toEqual({
    failed: 'Failed to add event to calendar',
    permissionDenied: 'Calendar permission denied. Please enable calendar access in your device settings.',
    notNative: 'Calendar access is only available on mobile devices.',
    added: 'Event added to calendar successfully!',
  });
});
