import { beforeEach } from 'vitest';
import { type BackoffRule, type Count, MemoryStore, type RateLimitStore } from '../src/lib/rate-limiter';

/**
 * The rate limits of an app shared by a file's tests, each test on its own clock: before each test
 * (beforeEach, registered by the call) a fresh in-memory store on a fresh clock set to now. A test that
 * moves its clock (a day-long flood, a wait for a window to end) moves no other test's, and one that
 * times out half way leaves nothing behind for the next. Call it in the describe (or file) whose app
 * takes `store`.
 */
export function clockPerTest() {
  let clock = { now: Date.now() };
  let current = new MemoryStore(() => clock.now);
  beforeEach(() => {
    const own = { now: Date.now() };
    clock = own;
    current = new MemoryStore(() => own.now);
  });
  const store: RateLimitStore = {
    hit: (key: string, windowMs: number): Promise<Count> => current.hit(key, windowMs),
    peek: (key: string): Promise<Count> => current.peek(key),
    backoff: (key: string, rule: BackoffRule, enforce?: boolean): Promise<number> =>
      current.backoff(key, rule, enforce),
    reset: (key: string): Promise<void> => current.reset(key),
    close: async (): Promise<void> => {},
  };
  return {
    /** For the app (createTestApp's rateLimitStore): the running test's store. */
    store,
    /** The running test's clock, in ms since the epoch. */
    now: () => clock.now,
    /** Moves the running test's clock on. */
    advance(ms: number): void {
      clock.now += ms;
    },
  };
}
