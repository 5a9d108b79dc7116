import { describe, expect, it } from 'vitest';
import { timeAgo, timeUntil } from './relative-time';

const now = new Date('2026-03-12T12:00:00Z');
const at = (ms: number) => new Date(now.getTime() + ms);

describe('relative times (createdAtHuman, timeToEvent)', () => {
  it('says how long ago, in the largest whole unit', () => {
    expect(timeAgo(at(-10_000), now)).toBe('just now');
    expect(timeAgo(at(-60_000), now)).toBe('1 minute ago');
    expect(timeAgo(at(-59 * 60_000), now)).toBe('59 minutes ago');
    expect(timeAgo(at(-3 * 86_400_000), now)).toBe('3 days ago');
    expect(timeAgo(at(-14 * 86_400_000), now)).toBe('2 weeks ago');
    expect(timeAgo(at(-400 * 86_400_000), now)).toBe('1 year ago');
    expect(timeAgo(at(60_000), now)).toBe('just now');
  });

  it('says how long until, and "now" once it has come', () => {
    expect(timeUntil(at(3 * 86_400_000 + 5_000), now)).toBe('in 3 days');
    expect(timeUntil(at(2 * 3_600_000), now)).toBe('in 2 hours');
    expect(timeUntil(at(90_000), now)).toBe('in 1 minute');
    expect(timeUntil(at(-1), now)).toBe('now');
  });
});
