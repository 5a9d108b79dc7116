import { createConnection } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type BackoffRule,
  backoffWait,
  MemoryStore,
  RateLimiter,
  type RateLimitStore,
  type RateRule,
  RedisStore,
} from './rate-limiter';

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

/** True when something answers on Redis's port within a moment. */
function reachable(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

const redisAt = new URL(REDIS_URL);
const redisUp = await reachable(redisAt.hostname, Number(redisAt.port || 6379));
// CI has Redis (as it has PostgreSQL): there these tests always run, and fail when it does not answer.
// Locally, without Redis, they say so and skip.
const runRedisTests = redisUp || Boolean(process.env.CI);
if (!runRedisTests) console.warn(`SKIPPED: no Redis at ${REDIS_URL}; the RedisStore tests need one`);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** 3 free failures, then 1 s doubling up to 8 s; forgotten after 60 s without one. */
const rule: BackoffRule = {
  name: 'test-backoff',
  free: 3,
  firstDelayMs: 1000,
  maxDelayMs: 8000,
  idleMs: 60_000,
};

describe('backoffWait', () => {
  it('is 0 below the free failures, then doubles from the last failure up to the cap', () => {
    const justFailed = (count: number) => backoffWait(rule, { count, msLeft: rule.idleMs });
    expect([0, 1, 2].map(justFailed)).toEqual([0, 0, 0]);
    expect([3, 4, 5, 6, 7, 30].map(justFailed)).toEqual([1000, 2000, 4000, 8000, 8000, 8000]);
    // 1.5 s after the 5th failure, 2.5 s of its 4 s are left; nothing once the counter has expired.
    expect(backoffWait(rule, { count: 5, msLeft: rule.idleMs - 1500 })).toBe(2500);
    expect(backoffWait(rule, { count: 5, msLeft: rule.idleMs - 4000 })).toBe(0);
    expect(backoffWait(rule, { count: 5, msLeft: 0 })).toBe(0);
  });
});

describe('MemoryStore', () => {
  let now: number;
  let store: MemoryStore;
  beforeEach(() => {
    now = Date.parse('2026-01-01T10:00:00Z');
    store = new MemoryStore(() => now);
  });

  it('counts hits within a fixed window, says how long it has left, and starts again when it ends', async () => {
    expect(await store.hit('k', 60_000)).toEqual({ count: 1, msLeft: 60_000 });
    expect(await store.hit('k', 60_000)).toEqual({ count: 2, msLeft: 60_000 });
    now += 59_999;
    expect(await store.hit('k', 60_000)).toEqual({ count: 3, msLeft: 1 }); // later hits do not stretch it
    now += 1; // the window opened at 10:00:00 ends at 10:01:00
    expect(await store.hit('k', 60_000)).toEqual({ count: 1, msLeft: 60_000 });
  });

  it('keeps keys apart', async () => {
    await store.hit('login-ip:10.0.0.1', 1000);
    await store.hit('login-ip:10.0.0.1', 1000);
    expect((await store.hit('login-ip:10.0.0.2', 1000)).count).toBe(1);
    expect((await store.hit('login-email:10.0.0.1', 1000)).count).toBe(1);
    expect((await store.hit('login-ip:10.0.0.1', 1000)).count).toBe(3);
  });

  it('peek reads without counting; reset forgets', async () => {
    expect(await store.peek('k')).toEqual({ count: 0, msLeft: 0 });
    await store.hit('k', 60_000);
    await store.hit('k', 60_000);
    now += 10_000;
    expect(await store.peek('k')).toEqual({ count: 2, msLeft: 50_000 });
    expect(await store.peek('k')).toEqual({ count: 2, msLeft: 50_000 });
    await store.reset('k');
    expect(await store.peek('k')).toEqual({ count: 0, msLeft: 0 });
    now += 50_000;
    await store.hit('gone', 1000);
    now += 1000;
    expect(await store.peek('gone')).toEqual({ count: 0, msLeft: 0 });
  });

  it('backoff: free failures pass; then each waits its growing delay after the last, and refusals count nothing', async () => {
    for (let i = 0; i < 3; i++) expect(await store.backoff('b', rule)).toBe(0);
    expect(await store.backoff('b', rule)).toBe(1000);
    now += 400;
    expect(await store.backoff('b', rule)).toBe(600);
    expect(await store.peek('b')).toEqual({ count: 3, msLeft: 59_600 }); // refused: not counted
    now += 600;
    expect(await store.backoff('b', rule)).toBe(0); // the 4th, counted: the expiry starts again
    expect(await store.peek('b')).toEqual({ count: 4, msLeft: 60_000 });
    expect(await store.backoff('b', rule)).toBe(2000);
    now += 2000;
    expect(await store.backoff('b', rule)).toBe(0);
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      const wait = await store.backoff('b', rule);
      waits.push(wait);
      now += wait;
      expect(await store.backoff('b', rule)).toBe(0);
    }
    expect(waits).toEqual([4000, 8000, 8000, 8000]);
  });

  it('backoff: forgotten after idleMs without a failure; enforce=false counts without waiting', async () => {
    for (let i = 0; i < 5; i++) await store.backoff('b', rule, false);
    expect(await store.peek('b')).toEqual({ count: 5, msLeft: 60_000 });
    expect(await store.backoff('b', rule)).toBe(4000);
    now += 60_000;
    expect(await store.backoff('b', rule)).toBe(0);
    expect((await store.peek('b')).count).toBe(1);
  });

  it('sweeps ended windows once it holds many keys, at most every 10 s, without losing live ones', async () => {
    const size = () => (store as unknown as { entries: Map<string, unknown> }).entries.size;
    for (let i = 0; i < 50_001; i++) await store.hit(`old-${i}`, 1000); // the last one sweeps (nothing ended)
    await store.hit('live', 60_000);
    now += 2000;
    await store.hit('early', 1000); // within 10 s of the last sweep: none, though many have ended
    expect(size()).toBe(50_003);
    now += 8000;
    expect((await store.hit('trigger', 1000)).count).toBe(1); // sweeps
    expect(size()).toBe(2);
    expect((await store.hit('live', 60_000)).count).toBe(2);
  });

  it('close() forgets every count', async () => {
    await store.hit('k', 60_000);
    await store.close();
    expect((await store.hit('k', 60_000)).count).toBe(1);
  });
});

describe('RateLimiter', () => {
  const perIp: RateRule = { name: 'test-ip', max: 3, windowMs: 60_000 };
  const perEmail: RateRule = { name: 'test-email', max: 2, windowMs: 30_000 };
  let now: number;
  let limiter: RateLimiter;
  beforeEach(() => {
    now = Date.parse('2026-01-01T10:00:00Z');
    limiter = new RateLimiter(new MemoryStore(() => now));
  });

  it('allows up to max hits per key, then answers how long until the window ends', async () => {
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      waits.push(await limiter.consume([[perIp, '10.0.0.1']]));
      now += 1000;
    }
    expect(waits).toEqual([0, 0, 0, 57_000]);
    expect(await limiter.consume([[perIp, '10.0.0.2']])).toBe(0);
  });

  it('refuses when any rule is over, with the longest wait, and counts the hit on every rule', async () => {
    const both = (email: string): Array<[RateRule, string]> => [
      [perIp, 'ip'],
      [perEmail, email],
    ];
    expect(await limiter.consume(both('a@x.org'))).toBe(0);
    expect(await limiter.consume(both('a@x.org'))).toBe(0);
    expect(await limiter.consume(both('a@x.org'))).toBe(30_000); // email over (3 > 2)
    // The refused hit still counted on the IP rule: one more and the IP is over too.
    expect(await limiter.consume(both('b@x.org'))).toBe(60_000);
  });

  it('keeps rules with the same key apart', async () => {
    for (let i = 0; i < 3; i++) await limiter.consume([[perIp, 'same']]);
    expect(await limiter.consume([[perEmail, 'same']])).toBe(0);
    await limiter.reset(perIp, 'same');
    expect(await limiter.peek(perIp, 'same')).toEqual({ count: 0, msLeft: 0 });
    expect((await limiter.peek(perEmail, 'same')).count).toBe(1);
  });
});

describe.runIf(runRedisTests)(`RedisStore on ${REDIS_URL}`, () => {
  let redis: Redis;
  let store: RateLimitStore;
  const prefix = `test-${process.pid}-${Date.now()}`;
  beforeAll(() => {
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    store = new RedisStore(redis);
  });
  afterAll(async () => {
    const keys = await redis.keys(`parley:rl:${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await store.close();
  });

  it('counts hits under parley:rl:<key> with the window as its expiry, and says how long is left', async () => {
    const key = `${prefix}-count`;
    expect((await store.hit(key, 60_000)).count).toBe(1);
    expect((await store.hit(key, 60_000)).count).toBe(2);
    const third = await store.hit(key, 60_000);
    expect(third.count).toBe(3);
    expect(third.msLeft).toBeGreaterThan(50_000);
    expect(third.msLeft).toBeLessThanOrEqual(60_000);
    expect(await redis.get(`parley:rl:${key}`)).toBe('3');
    const ttl = await redis.pttl(`parley:rl:${key}`);
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('does not stretch the window on later hits (fixed window)', async () => {
    const key = `${prefix}-fixed`;
    await store.hit(key, 60_000);
    await redis.pexpire(`parley:rl:${key}`, 10_000); // as if 50 s had passed
    expect((await store.hit(key, 60_000)).msLeft).toBeLessThanOrEqual(10_000);
    expect(await redis.pttl(`parley:rl:${key}`)).toBeLessThanOrEqual(10_000);
  });

  it('starts again when the window ends', async () => {
    const key = `${prefix}-expire`;
    await store.hit(key, 150);
    await store.hit(key, 150);
    await sleep(250);
    expect((await store.hit(key, 150)).count).toBe(1);
  });

  it('repairs a counter left without an expiry', async () => {
    const key = `${prefix}-orphan`;
    await redis.set(`parley:rl:${key}`, '7');
    expect(await store.hit(key, 60_000)).toEqual({ count: 8, msLeft: 60_000 });
    expect(await redis.pttl(`parley:rl:${key}`)).toBeGreaterThan(0);
  });

  it('counts parallel hits exactly once each (one atomic script per hit)', async () => {
    const key = `${prefix}-parallel`;
    const counts = await Promise.all(Array.from({ length: 100 }, () => store.hit(key, 60_000)));
    expect(counts.map((c) => c.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 100 }, (_, i) => i + 1),
    );
  });

  it('peek reads the count and time left without counting; reset deletes the key', async () => {
    const key = `${prefix}-peek`;
    expect(await store.peek(key)).toEqual({ count: 0, msLeft: 0 });
    await store.hit(key, 60_000);
    await store.hit(key, 60_000);
    const seen = await store.peek(key);
    expect(seen.count).toBe(2);
    expect(seen.msLeft).toBeGreaterThan(50_000);
    expect((await store.peek(key)).count).toBe(2);
    await store.reset(key);
    expect(await redis.exists(`parley:rl:${key}`)).toBe(0);
    expect(await store.peek(key)).toEqual({ count: 0, msLeft: 0 });
  });

  it('backoff: free failures pass, then the wait counts from the last failure and refusals count nothing', async () => {
    const key = `${prefix}-backoff`;
    const fast: BackoffRule = { ...rule, firstDelayMs: 300, maxDelayMs: 600, idleMs: 10_000 };
    for (let i = 0; i < 3; i++) expect(await store.backoff(key, fast)).toBe(0);
    expect(await redis.pttl(`parley:rl:${key}`)).toBeGreaterThan(9_000); // restarted by every failure
    const wait = await store.backoff(key, fast);
    expect(wait).toBeGreaterThan(200);
    expect(wait).toBeLessThanOrEqual(300);
    expect((await store.peek(key)).count).toBe(3);
    await sleep(wait + 20);
    expect(await store.backoff(key, fast)).toBe(0);
    const second = await store.backoff(key, fast);
    expect(second).toBeGreaterThan(500); // doubled
    expect(second).toBeLessThanOrEqual(600);
    expect(await store.backoff(key, fast, false)).toBe(0); // not enforced: counted at once
    expect((await store.peek(key)).count).toBe(5);
    expect(await store.backoff(key, fast)).toBeLessThanOrEqual(600); // capped
  });

  it('backoff is atomic: of many attempts at the same opening, one passes', async () => {
    const key = `${prefix}-race`;
    for (let i = 0; i < 3; i++) await store.backoff(key, rule, false);
    await redis.pexpire(`parley:rl:${key}`, rule.idleMs - rule.firstDelayMs); // the 1 s wait is over
    const waits = await Promise.all(Array.from({ length: 50 }, () => store.backoff(key, rule)));
    expect(waits.filter((wait) => wait === 0)).toHaveLength(1);
    expect(waits.filter((wait) => wait > 1000 && wait <= 2000)).toHaveLength(49);
    expect((await store.peek(key)).count).toBe(4);
  });

  it('shares counts between two limiters (two API instances)', async () => {
    const other = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    try {
      const shared: RateRule = { name: `${prefix}-shared`, max: 2, windowMs: 60_000 };
      const a = new RateLimiter(store);
      const b = new RateLimiter(new RedisStore(other));
      expect(await a.consume([[shared, 'ip']])).toBe(0);
      expect(await b.consume([[shared, 'ip']])).toBe(0);
      expect(await a.consume([[shared, 'ip']])).toBeGreaterThan(50_000);
      expect(await b.consume([[shared, 'other-ip']])).toBe(0);
      const account: BackoffRule = { ...rule, name: `${prefix}-account` };
      expect(await b.backoff(account, 'a@x.org', false)).toBe(0);
      expect((await a.peek(account, 'a@x.org')).count).toBe(1);
      await a.reset(account, 'a@x.org');
      expect((await b.peek(account, 'a@x.org')).count).toBe(0);
    } finally {
      other.disconnect();
    }
  });
});
