import { describe, expect, it } from 'vitest';
import {
  emptyFigures,
  isSyntheticAddress,
  LOAD_TEST_LIMITS,
  loadTestSummary,
  percentile,
  rehearsalConcurrency,
  secondsLabel,
} from './load-test';

const finished = (overrides: Partial<ReturnType<typeof emptyFigures>> = {}) => ({
  status: 'finished' as const,
  parents: 1000,
  figures: { ...emptyFigures(), bookings: 2870, seconds: 41.2, p50Ms: 80, p99Ms: 412, ...overrides },
  integrity: { doubleBookings: 0, overCapacity: 0, countDrift: 0, bookingsInDatabase: 2870, ok: true },
  failure: null,
});

describe('the rehearsal in plain words', () => {
  it('says what the issue says', () => {
    expect(loadTestSummary(finished())).toBe(
      '1,000 parents booked 2,870 appointments in 41 s; slowest 1 % waited 0.4 s; no double bookings.',
    );
  });

  it('says when the time limit stopped it, and what the check found', () => {
    const run = finished({ stoppedAtLimit: true, parentsDone: 640, limitSeconds: 60, seconds: 60 });
    expect(loadTestSummary({ ...run, integrity: { ...run.integrity, doubleBookings: 2, ok: false } })).toBe(
      '1,000 parents booked 2,870 appointments in 60 s; slowest 1 % waited 0.4 s; stopped at the 60 s limit with 640 parents done; 2 integrity problems found (2 double bookings, 0 slots over capacity).',
    );
  });

  it('says nothing while running, and the failure when it failed', () => {
    expect(loadTestSummary({ ...finished(), status: 'running' })).toBeNull();
    expect(loadTestSummary({ ...finished(), status: 'failed', failure: 'Interrupted.' })).toBe(
      'Interrupted.',
    );
  });

  it('takes percentiles by nearest rank and labels seconds as people say them', () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(sorted, 50)).toBe(50);
    expect(percentile(sorted, 99)).toBe(99);
    expect(percentile([], 99)).toBeNull();
    expect(secondsLabel(41_200)).toBe('41 s');
    expect(secondsLabel(412)).toBe('0.4 s');
    expect(secondsLabel(23)).toBe('0.02 s');
  });

  it('knows a synthetic address by its undeliverable domain', () => {
    expect(isSyntheticAddress('parent1.ab12@rehearsal.parley.invalid')).toBe(true);
    expect(isSyntheticAddress('Someone@School.INVALID ')).toBe(true);
    expect(isSyntheticAddress('parent@example.org')).toBe(false);
  });
});

describe('rehearsalConcurrency', () => {
  it('takes at most half the pool on PostgreSQL, up to the limit, and one on the embedded database', () => {
    expect(rehearsalConcurrency(null)).toBe(1);
    expect(rehearsalConcurrency(2)).toBe(1);
    expect(rehearsalConcurrency(3)).toBe(1);
    expect(rehearsalConcurrency(10)).toBe(5);
    expect(rehearsalConcurrency(16)).toBe(8);
    expect(rehearsalConcurrency(100)).toBe(LOAD_TEST_LIMITS.concurrency);
  });
});
