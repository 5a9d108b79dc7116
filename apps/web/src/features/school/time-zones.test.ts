import { describe, expect, it } from 'vitest';
import { timeZoneLabel, timeZoneOptions } from './time-zones';

describe('time-zone picker', () => {
  it('offers the IANA zones of this runtime, sorted, with UTC and the saved zone', () => {
    const zones = timeZoneOptions('Etc/Unknown_Zone');
    expect(zones).toContain('Europe/London');
    expect(zones).toContain('America/New_York');
    expect(zones).toContain('UTC');
    expect(zones).toContain('Etc/Unknown_Zone');
    expect([...zones].sort((a, b) => a.localeCompare(b))).toEqual(zones);
    expect(new Set(zones).size).toBe(zones.length);
  });

  it('labels a zone with its offset so either can be searched', () => {
    const winter = new Date('2026-01-15T12:00:00Z');
    expect(timeZoneLabel('America/New_York', winter)).toBe('America/New York (GMT-05:00)');
    expect(timeZoneLabel('Not/AZone', winter)).toBe('Not/AZone');
  });
});
