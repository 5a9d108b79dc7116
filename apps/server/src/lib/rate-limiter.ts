import type { Redis } from 'ioredis';

// Fixed-window counters. In memory for one process; Redis when several API instances share the load.
export interface RateLimitStore {
  /** Counts one hit on key and returns the count within the current window. */
  hit(key: string, windowMs: number): Promise<number>;
  close(): Promise<void>;
}

export class MemoryStore implements RateLimitStore {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  async hit(key: string, windowMs: number): Promise<number> {
    const now = Date.now();
    if (this.windows.size > 50_000) this.sweep(now);
    const current = this.windows.get(key);
    if (!current || current.resetAt <= now) {
      this.windows.set(key, { count: 1, resetAt: now + windowMs });
      return 1;
    }
    current.count += 1;
    return current.count;
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }

  async close(): Promise<void> {
    this.windows.clear();
  }
}

export class RedisStore implements RateLimitStore {
  constructor(private readonly redis: Redis) {}

  async hit(key: string, windowMs: number): Promise<number> {
    const redisKey = `parley:rl:${key}`;
    const [[, count] = [], [, ttl] = []] = (await this.redis
      .multi()
      .incr(redisKey)
      .pttl(redisKey)
      .exec()) as [[Error | null, number], [Error | null, number]];
    if (ttl === -1) await this.redis.pexpire(redisKey, windowMs);
    return Number(count);
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }
}

export type RateRule = { name: string; max: number; windowMs: number };

/** Login, signup, reset, resend and email search: per IP and per email (issue 2). */
export const RATE_RULES = {
  loginPerIp: { name: 'login-ip', max: 30, windowMs: 15 * 60_000 },
  loginPerEmail: { name: 'login-email', max: 10, windowMs: 15 * 60_000 },
  signupPerIp: { name: 'signup-ip', max: 10, windowMs: 60 * 60_000 },
  mailPerIp: { name: 'mail-ip', max: 20, windowMs: 60 * 60_000 },
  mailPerEmail: { name: 'mail-email', max: 5, windowMs: 60 * 60_000 },
  emailSearchPerIp: { name: 'email-search-ip', max: 60, windowMs: 60_000 },
} as const satisfies Record<string, RateRule>;

export class RateLimiter {
  constructor(private readonly store: RateLimitStore) {}

  /** True when every rule still has room for this hit. Every rule counts the hit. */
  async allow(checks: Array<[RateRule, string]>): Promise<boolean> {
    const counts = await Promise.all(
      checks.map(([rule, key]) => this.store.hit(`${rule.name}:${key}`, rule.windowMs)),
    );
    return checks.every(([rule], index) => (counts[index] ?? 0) <= rule.max);
  }

  close(): Promise<void> {
    return this.store.close();
  }
}
