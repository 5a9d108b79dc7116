import { describe, expect, it } from 'vitest';
import { chartScale, niceCeiling, seriesPath } from './load-test-logic';

const point = (second: number, bookings: number, p50Ms: number | null, p99Ms: number | null) => ({
  second,
  bookings,
  attempts: bookings,
  conflicts: 0,
  p50Ms,
  p99Ms,
});

describe('the rush chart', () => {
  it('rounds its scales up to 1, 2 or 5 of a power of ten', () => {
    expect(niceCeiling(0, 5)).toBe(5);
    expect(niceCeiling(17)).toBe(20);
    expect(niceCeiling(230)).toBe(500);
    expect(niceCeiling(1000)).toBe(1000);
  });

  it('shows at least ten seconds, and every second the run has lasted', () => {
    expect(chartScale([], 0).seconds).toBe(10);
    const series = Array.from({ length: 41 }, (_, i) => point(i, 20 + i, 40, 180 + i));
    const scale = chartScale(series, 41.2);
    expect(scale).toMatchObject({ seconds: 42, bookings: 100, ms: 500 });
    expect(scale.secondTicks.at(-1)).toBeLessThanOrEqual(42);
  });

  it('breaks a latency line where a second had no answers', () => {
    const path = seriesPath(
      [point(0, 1, 10, 20), point(1, 0, null, null), point(2, 1, 30, 40)],
      'p50Ms',
      (p) => p.second * 10,
      (v) => v,
    );
    expect(path).toBe('M0.0,10.0M20.0,30.0');
  });
});
