import { createConnection } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MemoryStore, RateLimiter, type RateRule, RedisStore } from './rate-limiter';

const REDIS_URL = 'redis://127.0.0.1:6379';

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

const redisUp = await reachable('127.0.0.1', 6379);

describe('MemoryStore', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts hits within a fixed window and starts again when the window ends', async () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T10:00:00Z') });
    const store = new MemoryStore();
    expect(await store.hit('k', 60_000)).toBe(1);
    expect(await store.hit('k', 60_000)).toBe(2);
    vi.advanceTimersByTime(59_999);
    expect(await store.hit('k', 60_000)).toBe(3);
    vi.advanceTimersByTime(1); // the window opened at 10:00:00 ends at 10:01:00
    expect(await store.hit('k', 60_000)).toBe(1);
    expect(await store.hit('k', 60_000)).toBe(2);
  });

  it('keeps keys apart', async () => {
    const store = new MemoryStore();
    await store.hit('login-ip:10.0.0.1', 1000);
    await store.hit('login-ip:10.0.0.1', 1000);
    expect(await store.hit('login-ip:10.0.0.2', 1000)).toBe(1);
    expect(await store.hit('login-email:10.0.0.1', 1000)).toBe(1);
    expect(await store.hit('login-ip:10.0.0.1', 1000)).toBe(3);
  });

  it('sweeps ended windows once it holds many keys, without losing live ones', async () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T10:00:00Z') });
    const store = new MemoryStore();
    for (let i = 0; i < 50_001; i++) await store.hit(`old-${i}`, 1000);
    await store.hit('live', 60_000);
    vi.advanceTimersByTime(2000);
    expect(await store.hit('trigger', 1000)).toBe(1); // triggers the sweep
    const size = (store as unknown as { windows: Map<string, unknown> }).windows.size;
    expect(size).toBe(2);
    expect(await store.hit('live', 60_000)).toBe(2);
  });

  it('close() forgets every count', async () => {
    const store = new MemoryStore();
    await store.hit('k', 60_000);
    await store.close();
    expect(await store.hit('k', 60_000)).toBe(1);
  });
});

describe('RateLimiter', () => {
  const perIp: RateRule = { name: 'test-ip', max: 3, windowMs: 60_000 };
  const perEmail: RateRule = { name: 'test-email', max: 2, windowMs: 60_000 };

  it('allows up to max hits per key, then refuses', async () => {
    const limiter = new RateLimiter(new MemoryStore());
    const results: boolean[] = [];
    for (let i = 0; i < 4; i++) results.push(await limiter.allow([[perIp, '10.0.0.1']]));
    expect(results).toEqual([true, true, true, false]);
    expect(await limiter.allow([[perIp, '10.0.0.2']])).toBe(true);
  });

  it('refuses when any rule is over, and counts the hit on every rule', async () => {
    const limiter = new RateLimiter(new MemoryStore());
    expect(
      await limiter.allow([
        [perIp, 'ip'],
        [perEmail, 'a@x.org'],
      ]),
    ).toBe(true);
    expect(
      await limiter.allow([
        [perIp, 'ip'],
        [perEmail, 'a@x.org'],
      ]),
    ).toBe(true);
    expect(
      await limiter.allow([
        [perIp, 'ip'],
        [perEmail, 'a@x.org'],
      ]),
    ).toBe(false); // email over (3 > 2)
    // The refused hit still counted on the IP rule: one more and the IP is over too.
    expect(
      await limiter.allow([
        [perIp, 'ip'],
        [perEmail, 'b@x.org'],
      ]),
    ).toBe(false);
  });

  it('keeps rules with the same key apart', async () => {
    const limiter = new RateLimiter(new MemoryStore());
    for (let i = 0; i < 3; i++) await limiter.allow([[perIp, 'same']]);
    expect(await limiter.allow([[perEmail, 'same']])).toBe(true);
  });
});

describe.skipIf(!redisUp)(`RedisStore on ${REDIS_URL}`, () => {
  let redis: Redis;
  let store: RedisStore;
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

  it('counts hits under parley:rl:<key> with the window as its expiry', async () => {
    const key = `${prefix}-count`;
    expect(await store.hit(key, 60_000)).toBe(1);
    expect(await store.hit(key, 60_000)).toBe(2);
    expect(await store.hit(key, 60_000)).toBe(3);
    expect(await redis.get(`parley:rl:${key}`)).toBe('3');
    const ttl = await redis.pttl(`parley:rl:${key}`);
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('does not stretch the window on later hits (fixed window)', async () => {
    const key = `${prefix}-fixed`;
    await store.hit(key, 60_000);
    await redis.pexpire(`parley:rl:${key}`, 10_000); // as if 50 s had passed
    await store.hit(key, 60_000);
    expect(await redis.pttl(`parley:rl:${key}`)).toBeLessThanOrEqual(10_000);
  });

  it('starts again when the window ends', async () => {
    const key = `${prefix}-expire`;
    await store.hit(key, 150);
    await store.hit(key, 150);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await store.hit(key, 150)).toBe(1);
  });

  it('repairs a counter left without an expiry', async () => {
    const key = `${prefix}-orphan`;
    await redis.set(`parley:rl:${key}`, '7');
    expect(await store.hit(key, 60_000)).toBe(8);
    expect(await redis.pttl(`parley:rl:${key}`)).toBeGreaterThan(0);
  });

  it('shares counts between two limiters (two API instances)', async () => {
    const other = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    try {
      const rule: RateRule = { name: `${prefix}-shared`, max: 2, windowMs: 60_000 };
      const a = new RateLimiter(store);
      const b = new RateLimiter(new RedisStore(other));
      expect(await a.allow([[rule, 'ip']])).toBe(true);
      expect(await b.allow([[rule, 'ip']])).toBe(true);
      expect(await a.allow([[rule, 'ip']])).toBe(false);
      expect(await b.allow([[rule, 'other-ip']])).toBe(true);
    } finally {
      other.disconnect();
    }
  });
});
