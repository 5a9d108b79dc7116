import { SERVER_TEXT } from '@parley/domain/messages';
import type { AppContext } from '../context';
import { forbidden, tooManyRequests } from './http-error';
import {
  backoffWait,
  LOGIN_BACKOFF,
  MAIL_BACKOFF,
  RATE_RULES,
  type RateRule,
  SECOND_FACTOR_BACKOFF,
} from './rate-limiter';

const limited = (waitMs: number) => tooManyRequests(SERVER_TEXT.rateLimited, waitMs / 1000);

/** Counts the hit against each rule and answers 429, with Retry-After, when any is over its limit. */
export async function enforceRateLimit(ctx: AppContext, checks: Array<[RateRule, string]>): Promise<void> {
  const wait = await ctx.rateLimiter.consume(checks);
  if (wait > 0) throw limited(wait);
}

/**
 * Reset and resend: 429 past the per-address ceiling; while the email's mails are held (MAIL_BACKOFF),
 * false — the caller gives the same answer and sends nothing, so nobody can flood an inbox, nor stop its
 * owner asking (decision 010).
 */
export async function mayMail(ctx: AppContext, ip: string, email: string): Promise<boolean> {
  await enforceRateLimit(ctx, [[RATE_RULES.mailPerIp, ip]]);
  return (await ctx.rateLimiter.backoff(MAIL_BACKOFF, email)) === 0;
}

const pairKey = (ip: string, email: string) => `${ip}|${email}`;

/**
 * Everything a login attempt must pass before its password is checked (decision 010). Refusals (429 with
 * Retry-After) come first and count nothing, so waiting out a refusal never makes it longer. An admitted
 * attempt is counted against its account and its address pair before the password is checked — atomically
 * for the account, so a burst of parallel attempts cannot all pass one opening — and loginSucceeded takes
 * the counts back.
 */
export async function admitLogin(
  ctx: AppContext,
  attempt: { ip: string; email: string; botCheckToken: string | undefined },
): Promise<void> {
  const { rateLimiter: limiter } = ctx;
  const { ip, email } = attempt;
  const pair = pairKey(ip, email);
  const [pairCount, ipFailures, account, known] = await Promise.all([
    limiter.peek(RATE_RULES.loginFailuresPerPair, pair),
    limiter.peek(RATE_RULES.loginFailuresPerIp, ip),
    limiter.peek(LOGIN_BACKOFF, email),
    limiter.peek(RATE_RULES.loginKnownAddress, pair),
  ]);
  if (pairCount.count >= RATE_RULES.loginFailuresPerPair.max) throw limited(pairCount.msLeft);
  if (ipFailures.count >= RATE_RULES.loginFailuresPerIp.max) throw limited(ipFailures.msLeft);
  // An address the owner has logged in from is not held by the account's wait: an attacker who times
  // every guess to the end of it cannot keep the owner out (it still has its own pair limit).
  const knownAddress = known.count > 0;
  const accountWait = knownAddress ? 0 : backoffWait(LOGIN_BACKOFF, account);
  if (accountWait > 0) throw limited(accountWait);

  const attempts = await limiter.hit(RATE_RULES.loginPerIp, ip);
  if (attempts.count > RATE_RULES.loginPerIp.max) throw limited(attempts.msLeft);
  if (!(await ctx.botCheck(attempt.botCheckToken, ip))) throw forbidden(SERVER_TEXT.botCheckFailed);

  const wait = await limiter.backoff(LOGIN_BACKOFF, email, !knownAddress);
  if (wait > 0) throw limited(wait); // another attempt took the opening a moment ago
  const counted = await limiter.hit(RATE_RULES.loginFailuresPerPair, pair);
  if (counted.count > RATE_RULES.loginFailuresPerPair.max) throw limited(counted.msLeft);
}

/** A wrong password (or no such account): counts against the address's ceiling. */
export async function loginFailed(ctx: AppContext, ip: string): Promise<void> {
  await ctx.rateLimiter.hit(RATE_RULES.loginFailuresPerIp, ip);
}

/**
 * The right password: the account and the pair start again, and the address is remembered — with
 * two-factor sign-in on, only once the second factor is right too (`remember: false` until then).
 */
export async function loginSucceeded(
  ctx: AppContext,
  ip: string,
  email: string,
  { remember = true } = {},
): Promise<void> {
  const pair = pairKey(ip, email);
  await Promise.all([
    ctx.rateLimiter.reset(RATE_RULES.loginFailuresPerPair, pair),
    ctx.rateLimiter.reset(LOGIN_BACKOFF, email),
    remember && ctx.rateLimiter.hit(RATE_RULES.loginKnownAddress, pair),
  ]);
}

/**
 * Before a second factor (or the password that stands in for one) is checked: 429 while the address is
 * over its failure ceiling or the account's wait runs; otherwise the attempt is counted, atomically, and
 * secondFactorSucceeded takes it back (decision 015).
 */
export async function admitSecondFactor(ctx: AppContext, ip: string, userId: number): Promise<void> {
  const ipFailures = await ctx.rateLimiter.peek(RATE_RULES.loginFailuresPerIp, ip);
  if (ipFailures.count >= RATE_RULES.loginFailuresPerIp.max) throw limited(ipFailures.msLeft);
  const wait = await ctx.rateLimiter.backoff(SECOND_FACTOR_BACKOFF, String(userId));
  if (wait > 0) throw limited(wait);
}

export async function secondFactorSucceeded(ctx: AppContext, userId: number): Promise<void> {
  await ctx.rateLimiter.reset(SECOND_FACTOR_BACKOFF, String(userId));
}

/** A password reset proves the mailbox: the account's wait ends (OWASP's way out of a lockout). */
export async function forgetLoginFailures(ctx: AppContext, email: string): Promise<void> {
  await ctx.rateLimiter.reset(LOGIN_BACKOFF, email);
}
