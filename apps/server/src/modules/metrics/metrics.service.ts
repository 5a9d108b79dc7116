import { timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../context';
import { poolUsage } from '../../db/database';
import { HttpError } from '../../lib/http-error';
import type { Gauge } from '../../lib/metrics';
import { outboxBacklog } from '../../mail/outbox.repository';

// GET /api/metrics for Prometheus (README "Operations", decision 023). Readable with METRICS_TOKEN as a
// bearer token, or without one from this machine only: a scraper beside the server, never a request a
// proxy relayed (lib/loopback.ts).

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** Throws 401 (a token is set and not given) or 403 (no token: another machine). */
export function allowMetrics(ctx: AppContext, authorization: string | undefined, local: boolean): void {
  const token = ctx.config.metricsToken;
  if (token) {
    const bearer = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
    if (bearer === undefined || !sameSecret(bearer, token))
      throw new HttpError(401, 'A metrics token is required.');
  } else if (!local) {
    throw new HttpError(403, 'Metrics are readable from this machine only.');
  }
}

/** The exposition text: the counters kept as requests went by, and the pool and outboxes read now. */
export async function exposition(ctx: AppContext): Promise<string> {
  const [mail, push] = await Promise.all([
    outboxBacklog(ctx.db, 'mail_outbox'),
    outboxBacklog(ctx.db, 'push_outbox'),
  ]);
  const backlog = (outbox: string, status: string, value: number): Gauge => ({
    name: 'parley_outbox_rows',
    help: 'Outbox rows waiting to be sent (pending) or given up on (failed).',
    value,
    labels: { outbox, status },
  });
  const age = (outbox: string, value: number): Gauge => ({
    name: 'parley_outbox_oldest_pending_age_seconds',
    help: 'How long the oldest row still waiting to be sent has waited (0 when none waits).',
    value,
    labels: { outbox },
  });
  const connections = (state: string, value: number): Gauge => ({
    name: 'parley_db_pool_connections',
    help: 'Database connections open (total) and idle, and requests waiting for one.',
    value,
    labels: { state },
  });
  const pool = poolUsage(ctx.db);
  return ctx.metrics.render([
    ...(pool
      ? [
          { name: 'parley_db_pool_max', help: 'The most connections the pool opens.', value: pool.max },
          connections('total', pool.total),
          connections('idle', pool.idle),
          connections('waiting', pool.waiting),
        ]
      : []),
    backlog('mail', 'pending', mail.pending),
    backlog('mail', 'failed', mail.failed),
    backlog('push', 'pending', push.pending),
    backlog('push', 'failed', push.failed),
    age('mail', mail.oldestPendingSeconds),
    age('push', push.oldestPendingSeconds),
  ]);
}
