import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useServerNow } from './use-server-now';

// The call's countdown (issue 41) runs on the server's clock: read against when its answer came, not when
// the page started counting (a family may wait minutes on the page before joining).

const T0 = Date.parse('2026-12-07T17:00:00.000Z');

afterEach(() => {
  vi.useRealTimers();
});

describe('the server’s clock on the call page', () => {
  it('is the answer’s time moved on by this device’s clock since the answer came', () => {
    // The server's clock is 5 s ahead of this device's; the page starts counting 30 s after the answer.
    vi.useFakeTimers({ now: T0 + 30_000 });
    const { result } = renderHook(() => useServerNow(new Date(T0 + 5_000).toISOString(), T0));
    expect(result.current).toBe(T0 + 35_000);
    act(() => {
      vi.advanceTimersByTime(1_000);
    });
    expect(result.current).toBe(T0 + 36_000);
  });
});
