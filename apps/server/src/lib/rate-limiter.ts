import { TOKEN_TTL_MS } from '@parley/domain/constants';
import type { Redis } from 'ioredis';

/** A counter and the milliseconds until it expires (both 0 when there is none). */
export type Count = { count: number; msLeft: number };

/**
 * A growing wait for a counter of failures (decision 010): the first `free` failures cost nothing; from
 * then on the next attempt must come `firstDelayMs`, doubling with each failure up to `maxDelayMs`, after
 * the last one. The counter is forgotten once `idleMs` pass without a failure.
 */
export type BackoffRule = {
  name: string;
  free: number;
  firstDelayMs: number;
  maxDelayMs: number;
  idleMs: number;
};

/** Milliseconds still to wait before the next attempt on a backoff counter (0: go ahead). */
export function backoffWait(rule: BackoffRule, { count, msLeft }: Count): number {
  if (count < rule.free || msLeft <= 0) return 0;
  const delay = Math.min(rule.maxDelayMs, rule.firstDelayMs * 2 ** (count - rule.free));
  const sinceLast = rule.idleMs - msLeft; // every counted failure restarts the expiry at idleMs
  return Math.max(0, Math.ceil(delay - sinceLast));
}

// Counters in memory for one process; in Redis when several API instances share the load.
export interface RateLimitStore {
  /** Counts one hit in key's fixed window, opened by its first hit and lasting windowMs. */
  hit(key: string, windowMs: number): Promise<Count>;
  /** The counter as it stands, without counting. */
  peek(key: string): Promise<Count>;
  /**
   * In one atomic step: when the rule's wait is over (or `enforce` is false), counts one more and restarts
   * the expiry at rule.idleMs, answering 0; otherwise counts nothing and answers the milliseconds to wait.
   * Atomic so that many attempts at once cannot all pass through the same opening.
   */
  backoff(key: string, rule: BackoffRule, enforce?: boolean): Promise<number>;
  /** Forgets the counter. */
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

type Entry = { count: number; expiresAt: number };

export class MemoryStore implements RateLimitStore {
  private readonly entries = new Map<string, Entry>();
  private nextSweep = 0;

  /** `now` is there for tests that move the clock. */
  constructor(private readonly now: () => number = Date.now) {}

  async hit(key: string, windowMs: number): Promise<Count> {
    const now = this.now();
    this.maybeSweep(now);
    let entry = this.live(key, now);
    if (!entry) {
      entry = { count: 0, expiresAt: now + windowMs };
      this.entries.set(key, entry);
    }
    entry.count += 1;
    return { count: entry.count, msLeft: entry.expiresAt - now };
  }

  async peek(key: string): Promise<Count> {
    const now = this.now();
    const entry = this.live(key, now);
    return entry ? { count: entry.count, msLeft: entry.expiresAt - now } : { count: 0, msLeft: 0 };
  }

  async backoff(key: string, rule: BackoffRule, enforce = true): Promise<number> {
    const now = this.now();
    this.maybeSweep(now);
    const entry = this.live(key, now);
    const current = entry ? { count: entry.count, msLeft: entry.expiresAt - now } : { count: 0, msLeft: 0 };
    const wait = enforce ? backoffWait(rule, current) : 0;
    if (wait > 0) return wait;
    this.entries.set(key, { count: current.count + 1, expiresAt: now + rule.idleMs });
    return 0;
  }

  async reset(key: string): Promise<void> {
    this.entries.delete(key);
  }

  private live(key: string, now: number): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt > now) return entry;
    if (entry) this.entries.delete(key);
    return undefined;
  }

  // At most every 10 s: when most keys are live (remembered addresses live 30 days) a sweep frees little,
  // and sweeping on every hit would make each hit walk the whole map.
  private maybeSweep(now: number): void {
    if (this.entries.size <= 50_000 || now < this.nextSweep) return;
    this.nextSweep = now + 10_000;
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }

  async close(): Promise<void> {
    this.entries.clear();
  }
}

// Each script runs atomically in Redis: no other instance's command lands between its reads and writes.
// A counter left without an expiry (an instance died mid-way under the old INCR-then-PEXPIRE) gets one.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  left = tonumber(ARGV[1])
end
return {count, left}`;

const BACKOFF_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
local free, firstDelay, maxDelay, idle = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
if ARGV[5] == '1' and count >= free then
  local left = redis.call('PTTL', KEYS[1])
  if left > 0 then
    local wait = math.ceil(math.min(maxDelay, firstDelay * 2 ^ (count - free)) - (idle - left))
    if wait > 0 then return wait end
  end
end
redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], idle)
return 0`;

export class RedisStore implements RateLimitStore {
  constructor(private readonly redis: Redis) {}

  private key(key: string): string {
    return `parley:rl:${key}`;
  }

  async hit(key: string, windowMs: number): Promise<Count> {
    const [count, msLeft] = (await this.redis.eval(HIT_SCRIPT, 1, this.key(key), windowMs)) as [
      number,
      number,
    ];
    return { count: Number(count), msLeft: Number(msLeft) };
  }

  async peek(key: string): Promise<Count> {
    const [[, count] = [], [, msLeft] = []] = (await this.redis
      .multi()
      .get(this.key(key))
      .pttl(this.key(key))
      .exec()) as [[Error | null, string | null], [Error | null, number]];
    if (count === null || count === undefined) return { count: 0, msLeft: 0 };
    return { count: Number(count), msLeft: Math.max(0, Number(msLeft)) };
  }

  async backoff(key: string, rule: BackoffRule, enforce = true): Promise<number> {
    const wait = await this.redis.eval(
      BACKOFF_SCRIPT,
      1,
      this.key(key),
      rule.free,
      rule.firstDelayMs,
      rule.maxDelayMs,
      rule.idleMs,
      enforce ? '1' : '0',
    );
    return Number(wait);
  }

  async reset(key: string): Promise<void> {
    await this.redis.del(this.key(key));
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }
}

export type RateRule = { name: string; max: number; windowMs: number };

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Every limit, with the reasons for its number in decisions 005 and 010. */
export const RATE_RULES = {
  /** Login attempts that reach the bot check and password hash, from one address: bounds the CPU. */
  loginPerIp: { name: 'login-ip', max: 1000, windowMs: 15 * MINUTE },
  /** Wrong passwords from one address, whichever accounts: stops one address spraying many accounts. */
  loginFailuresPerIp: { name: 'login-fail-ip', max: 200, windowMs: 15 * MINUTE },
  /** Attempts since the last success for one account from one address: a brute force from one place. */
  loginFailuresPerPair: { name: 'login-fail-pair', max: 5, windowMs: 15 * MINUTE },
  /**
   * With a bot check configured, an address past loginFailuresPerIp meets the check instead of a wall, up
   * to this many wrong passwords (the same counter, a higher ceiling): then 429 as without one.
   */
  loginFailuresPerIpBotChecked: { name: 'login-fail-ip', max: 1000, windowMs: 15 * MINUTE },
  /**
   * Attempts since the last success with one device cookie (decision 033). Past it the cookie is not
   * trusted until the window ends: a stolen cookie is worth 10 guesses a day, then the ordinary limits.
   */
  loginFailuresPerDevice: { name: 'login-fail-device', max: 10, windowMs: 24 * HOUR },
  /** A two-factor challenge earned with a trusted device cookie: its second step is not held by the address. */
  loginTrustedChallenge: { name: 'login-trusted-challenge', max: 1, windowMs: TOKEN_TTL_MS.challenge },
  /** An address that has logged in to an account: not held by that account's backoff. */
  loginKnownAddress: { name: 'login-known', max: 1, windowMs: 30 * 24 * HOUR },
  signupPerIp: { name: 'signup-ip', max: 10, windowMs: HOUR },
  /** Reset and resend requests from one address (any email): 429 beyond. */
  mailPerIp: { name: 'mail-ip', max: 100, windowMs: HOUR },
  emailSearchPerIp: { name: 'email-search-ip', max: 60, windowMs: MINUTE },
} as const satisfies Record<string, RateRule>;

/** Attempts since the last success for one account, from any address: a growing wait, never a wall. */
export const LOGIN_BACKOFF = {
  name: 'login-fail-account',
  free: 10,
  firstDelayMs: 1000,
  maxDelayMs: 5 * MINUTE,
  idleMs: 15 * MINUTE,
} as const satisfies BackoffRule;

/**
 * Wrong second factors (a TOTP or recovery code at login; a code or the password to turn two-factor sign-in
 * off or renew its codes) for one account, from anywhere: whoever tries already has the password, so the
 * wait grows to 15 minutes and is kept a day — about 100 guesses a day at a one-in-300,000 chance each
 * (decision 015). The owner is held at most 15 minutes.
 */
export const SECOND_FACTOR_BACKOFF = {
  name: 'second-factor-account',
  free: 5,
  firstDelayMs: 1000,
  maxDelayMs: 15 * MINUTE,
  idleMs: 24 * HOUR,
} as const satisfies BackoffRule;

/**
 * Reset and resend mails to one address, whichever endpoint: 3 at once, then 1, 2, 4 … minutes apart, at
 * most an hour apart. A held request gets the same answer but no mail. An hour is the shortest link's life
 * (reset), so the person always holds a live link or can have a new one: a flood cannot lock them out, and
 * it reaches their inbox about 30 times a day at most.
 */
export const MAIL_BACKOFF = {
  name: 'mail-email',
  free: 3,
  firstDelayMs: MINUTE,
  maxDelayMs: HOUR,
  idleMs: 24 * HOUR,
} as const satisfies BackoffRule;

export class RateLimiter {
  constructor(private readonly store: RateLimitStore) {}

  /**
   * Counts the hit against every rule. Answers 0 when every rule still had room, otherwise the
   * milliseconds until the last of the full rules has room again.
   */
  async consume(checks: Array<[RateRule, string]>): Promise<number> {
    const counts = await Promise.all(checks.map(([rule, key]) => this.hit(rule, key)));
    return checks.reduce((wait, [rule], index) => {
      const { count = 0, msLeft = 0 } = counts[index] ?? {};
      return count > rule.max ? Math.max(wait, msLeft, 1) : wait;
    }, 0);
  }

  hit(rule: RateRule, key: string): Promise<Count> {
    return this.store.hit(`${rule.name}:${key}`, rule.windowMs);
  }

  peek(rule: RateRule | BackoffRule, key: string): Promise<Count> {
    return this.store.peek(`${rule.name}:${key}`);
  }

  backoff(rule: BackoffRule, key: string, enforce = true): Promise<number> {
    return this.store.backoff(`${rule.name}:${key}`, rule, enforce);
  }

  reset(rule: RateRule | BackoffRule, key: string): Promise<void> {
    return this.store.reset(`${rule.name}:${key}`);
  }

  close(): Promise<void> {
    return this.store.close();
  }
}
