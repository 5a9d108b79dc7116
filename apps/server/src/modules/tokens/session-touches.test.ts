import { describe, expect, it, vi } from 'vitest';
import { SessionTouches } from './session-touches';

describe('the marks of sessions used', () => {
  it('writes the marks gathered together, each session at most once a minute, and none from the request itself', async () => {
    const write = vi.fn(async (_hashes: string[]) => {});
    const touches = new SessionTouches(write);
    touches.touch('a', 0);
    touches.touch('b', 1_000);
    touches.touch('a', 2_000);
    expect(write).not.toHaveBeenCalled();
    await touches.flush();
    expect(write).toHaveBeenCalledTimes(1);
    expect(write.mock.calls[0]?.[0]).toEqual(['a', 'b']);
    // Within the minute, nothing more; after it, the session is marked again.
    touches.touch('a', 59_999);
    await touches.flush();
    expect(write).toHaveBeenCalledTimes(1);
    touches.touch('a', 60_000);
    await touches.flush();
    expect(write.mock.calls[1]?.[0]).toEqual(['a']);
  });

  it('writes on its own a second later', async () => {
    vi.useFakeTimers();
    try {
      const write = vi.fn(async (_hashes: string[]) => {});
      const touches = new SessionTouches(write);
      touches.touch('a');
      await vi.advanceTimersByTimeAsync(999);
      expect(write).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      expect(write).toHaveBeenCalledWith(['a']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('reports a failed write, and the next request marks the session again', async () => {
    const write = vi.fn(async (_hashes: string[]): Promise<void> => {
      throw new Error('connection lost');
    });
    const touches = new SessionTouches(write);
    const log = { error: vi.fn(), warn: vi.fn() };
    touches.reportTo(log);
    touches.touch('a', 0);
    await touches.flush();
    expect(log.error).toHaveBeenCalledWith(
      expect.objectContaining({ err: expect.any(Error) }),
      'marking sessions as active failed',
    );
    // The database going away (a connection cut, a restart) is a warning: it is not a fault in the code.
    write.mockRejectedValueOnce(
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
    );
    touches.touch('b', 0);
    await touches.flush();
    expect(log.warn).toHaveBeenCalledWith(
      expect.objectContaining({ err: expect.any(Error) }),
      'marking sessions as active failed',
    );
    expect(log.error).toHaveBeenCalledTimes(1);
    write.mockImplementation(async () => {});
    touches.touch('a', 1_000);
    await touches.flush();
    expect(write).toHaveBeenLastCalledWith(['a']);
  });

  it('keeps at most 10,000 sessions in mind, and as many marks waiting', async () => {
    const write = vi.fn(async (_hashes: string[]) => {});
    const touches = new SessionTouches(write);
    for (let i = 0; i <= 10_000; i++) touches.touch(`s${i}`, 0);
    await touches.flush();
    // The one past the bound waits for its next request, which marks it.
    expect(write.mock.calls[0]?.[0]).toHaveLength(10_000);
    touches.touch('s10000', 1);
    await touches.flush();
    expect(write.mock.calls[1]?.[0]).toEqual(['s10000']);
    // It took the place of the oldest in mind, s0: marked again at once; s9999 is still remembered.
    touches.touch('s0', 2);
    touches.touch('s9999', 2);
    await touches.flush();
    expect(write.mock.calls[2]?.[0]).toEqual(['s0']);
  });

  it('waits for a write already under way, so the app closes after it', async () => {
    let finish = () => {};
    const write = vi.fn((_hashes: string[]) => new Promise<void>((resolve) => (finish = resolve)));
    const touches = new SessionTouches(write);
    touches.touch('a', 0);
    const first = touches.flush();
    let closed = false;
    const closing = touches.flush().then(() => (closed = true));
    await Promise.resolve();
    expect(closed).toBe(false);
    finish();
    await Promise.all([first, closing]);
    expect(closed).toBe(true);
    expect(write).toHaveBeenCalledTimes(1);
  });
});
