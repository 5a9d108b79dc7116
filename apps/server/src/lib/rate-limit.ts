import { SERVER_TEXT } from '@parley/domain/messages';
import type { AppContext } from '../context';
import { isBotCheckConfigured } from './bot-check';
import { forbidden, HttpError, tooManyRequests } from './http-error';
import {
  backoffWait,
  LOGIN_BACKOFF,
  MAIL_BACKOFF,
  RATE_RULES,
  type RateRule,
  SECOND_FACTOR_BACKOFF,
} from './rate-limiter';
import { hashToken } from './tokens';

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

/** A login attempt; `device` is the id of a valid device cookie for its email (lib/device-cookie.ts). */
export type LoginAttempt = {
  ip: string;
  email: string;
  botCheckToken: string | undefined;
  device: string | null;
};

/** How an attempt was let in: `device` when on its trusted device cookie, null on the address's counters. */
export type LoginAdmission = { device: string | null };

/**
 * Everything a login attempt must pass before its password is checked (decisions 010 and 033). A valid
 * device cookie for the email meets only its own counter; any other attempt meets the address's and the
 * account's. Refusals (429 with Retry-After) come first and count nothing, so waiting out a refusal never
 * makes it longer. An admitted attempt is counted before the password is checked — atomically for the
 * account, so a burst of parallel attempts cannot all pass one opening — and loginSucceeded takes the
 * counts back.
 */
export async function admitLogin(ctx: AppContext, attempt: LoginAttempt): Promise<LoginAdmission> {
  if (attempt.device && (await admitTrustedDevice(ctx, attempt, attempt.device)))
    return { device: attempt.device };
  await admitFromAddress(ctx, attempt);
  return { device: null };
}

/**
 * OWASP's device cookie: others' failures at the address, or against the account, do not hold a browser
 * that has signed in to this login before. False once the cookie has failed too often: the attempt then
 * meets the ordinary limits, like one without a cookie.
 */
async function admitTrustedDevice(ctx: AppContext, attempt: LoginAttempt, device: string): Promise<boolean> {
  const { rateLimiter: limiter } = ctx;
  const rule = RATE_RULES.loginFailuresPerDevice;
  if ((await limiter.peek(rule, device)).count >= rule.max) return false;
  await passBotCheck(ctx, attempt, false);
  const counted = await limiter.hit(rule, device);
  if (counted.count > rule.max) throw limited(counted.msLeft); // parallel attempts took the last tries
  await limiter.backoff(LOGIN_BACKOFF, attempt.email, false); // counted, never a wait, like a known address
  return true;
}

async function admitFromAddress(ctx: AppContext, attempt: LoginAttempt): Promise<void> {
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
  // Past the address's ceiling the bot check, when there is one, answers first; the wall comes later.
  const botChecked = isBotCheckConfigured(ctx.botCheck);
  const ceiling = botChecked ? RATE_RULES.loginFailuresPerIpBotChecked : RATE_RULES.loginFailuresPerIp;
  if (ipFailures.count >= ceiling.max) throw limited(ipFailures.msLeft);
  const suspect = ipFailures.count >= RATE_RULES.loginFailuresPerIp.max;
  // An address the owner has logged in from is not held by the account's wait: an attacker who times
  // every guess to the end of it cannot keep the owner out (it still has its own pair limit).
  const knownAddress = known.count > 0;
  const accountWait = knownAddress ? 0 : backoffWait(LOGIN_BACKOFF, account);
  if (accountWait > 0) throw limited(accountWait);

  const attempts = await limiter.hit(RATE_RULES.loginPerIp, ip);
  if (attempts.count > RATE_RULES.loginPerIp.max) throw limited(attempts.msLeft);
  await passBotCheck(ctx, attempt, suspect);

  const wait = await limiter.backoff(LOGIN_BACKOFF, email, !knownAddress);
  if (wait > 0) throw limited(wait); // another attempt took the opening a moment ago
  const counted = await limiter.hit(RATE_RULES.loginFailuresPerPair, pair);
  if (counted.count > RATE_RULES.loginFailuresPerPair.max) throw limited(counted.msLeft);
}

/**
 * 403 unless the bot check passed (it passes when none is configured). An address past its failure ceiling
 * is told the check is what stands between it and a sign-in, naming the field the web fills.
 */
async function passBotCheck(ctx: AppContext, attempt: LoginAttempt, demanded: boolean): Promise<void> {
  if (await ctx.botCheck(attempt.botCheckToken, attempt.ip)) return;
  if (!demanded) throw forbidden(SERVER_TEXT.botCheckFailed);
  throw new HttpError(403, SERVER_TEXT.botCheckRequired, { botCheckToken: [SERVER_TEXT.botCheckRequired] });
}

/** A wrong password or code (or no such account): counts against the address, unless on a trusted device. */
export async function loginFailed(ctx: AppContext, ip: string, onTrustedDevice = false): Promise<void> {
  if (!onTrustedDevice) await ctx.rateLimiter.hit(RATE_RULES.loginFailuresPerIp, ip);
}

/**
 * The right password: the account, the pair and the device start again, and the address is remembered —
 * with two-factor sign-in on, only once the second factor is right too (`remember: false` until then).
 */
export async function loginSucceeded(
  ctx: AppContext,
  attempt: { ip: string; email: string; device: string | null },
  { remember = true } = {},
): Promise<void> {
  const pair = pairKey(attempt.ip, attempt.email);
  await Promise.all([
    ctx.rateLimiter.reset(RATE_RULES.loginFailuresPerPair, pair),
    ctx.rateLimiter.reset(LOGIN_BACKOFF, attempt.email),
    attempt.device && ctx.rateLimiter.reset(RATE_RULES.loginFailuresPerDevice, attempt.device),
    remember && ctx.rateLimiter.hit(RATE_RULES.loginKnownAddress, pair),
  ]);
}

/** A two-factor challenge earned on a trusted device: its second step is not held by the address either. */
export async function trustChallenge(ctx: AppContext, challenge: string): Promise<void> {
  await ctx.rateLimiter.hit(RATE_RULES.loginTrustedChallenge, hashToken(challenge));
}

/**
 * Before a second factor (or the password that stands in for one) is checked: 429 while the address is
 * over its failure ceiling or the account's wait runs; otherwise the attempt is counted, atomically, and
 * secondFactorSucceeded takes it back (decision 015). A sign-in's challenge earned on a trusted device
 * (trustChallenge) is not held by the address (decision 033).
 */
export async function admitSecondFactor(
  ctx: AppContext,
  ip: string,
  userId: number,
  challenge?: string,
): Promise<{ onTrustedDevice: boolean }> {
  const [ipFailures, trusted] = await Promise.all([
    ctx.rateLimiter.peek(RATE_RULES.loginFailuresPerIp, ip),
    challenge ? ctx.rateLimiter.peek(RATE_RULES.loginTrustedChallenge, hashToken(challenge)) : { count: 0 },
  ]);
  const onTrustedDevice = trusted.count > 0;
  if (!onTrustedDevice && ipFailures.count >= RATE_RULES.loginFailuresPerIp.max)
    throw limited(ipFailures.msLeft);
  const wait = await ctx.rateLimiter.backoff(SECOND_FACTOR_BACKOFF, String(userId));
  if (wait > 0) throw limited(wait);
  return { onTrustedDevice };
}

export async function secondFactorSucceeded(ctx: AppContext, userId: number): Promise<void> {
  await ctx.rateLimiter.reset(SECOND_FACTOR_BACKOFF, String(userId));
}

/** A password reset proves the mailbox: the account's wait ends (OWASP's way out of a lockout). */
export async function forgetLoginFailures(ctx: AppContext, email: string): Promise<void> {
  await ctx.rateLimiter.reset(LOGIN_BACKOFF, email);
}
