import { SERVER_TEXT } from '@parley/domain/messages';
import type { AppContext } from '../context';
import { tooManyRequests } from './http-error';
import type { RateRule } from './rate-limiter';

/** Counts the hit against each rule and answers 429 when any is over its limit. */
export async function enforceRateLimit(ctx: AppContext, checks: Array<[RateRule, string]>): Promise<void> {
  if (!(await ctx.rateLimiter.allow(checks)))
    throw tooManyRequests(SERVER_TEXT.rateLimited, Math.max(...checks.map(([rule]) => rule.windowMs)) / 1000);
}
