import { timingSafeEqual } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database';
import { isLoopback } from '../lib/loopback';
import type { Metrics } from '../lib/metrics';
import { outboxBacklog } from '../mail/outbox.repository';

// GET /metrics for Prometheus (README "Operations"): every answer is timed by its route pattern; the
// outboxes' backlog and the process are read at scrape time. Readable with METRICS_TOKEN as a bearer
// token, or without one from this machine only (a scraper beside the server, or through a local proxy
// that forwards the client's address, which then decides).

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

export function registerMetrics(
  app: FastifyInstance,
  options: { db: Db; metrics: Metrics; token: string | undefined },
): void {
  const { db, metrics, token } = options;
  const loopDelay = monitorEventLoopDelay({ resolution: 20 });
  loopDelay.enable();
  app.addHook('onClose', async () => loopDelay.disable());

  app.addHook('onResponse', async (request, reply) => {
    metrics.observeRequest(
      request.method,
      request.routeOptions.url ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
  });

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const allowed = token ? bearer !== undefined && sameSecret(bearer, token) : isLoopback(request.ip);
    if (!allowed) {
      return reply.code(token ? 401 : 403).send({
        message: token ? 'A metrics token is required.' : 'Metrics are readable from this machine only.',
      });
    }
    const [mail, push] = await Promise.all([
      outboxBacklog(db, 'mail_outbox'),
      outboxBacklog(db, 'push_outbox'),
    ]);
    const memory = process.memoryUsage();
    const backlog = (outbox: string, status: string, value: number) => ({
      name: 'parley_outbox_rows',
      help: 'Outbox rows waiting to be sent (pending) or given up on (failed).',
      value,
      labels: { outbox, status },
    });
    const text = metrics.render([
      backlog('mail', 'pending', mail.pending),
      backlog('mail', 'failed', mail.failed),
      backlog('push', 'pending', push.pending),
      backlog('push', 'failed', push.failed),
      { name: 'parley_process_resident_memory_bytes', help: 'Resident set size.', value: memory.rss },
      { name: 'parley_process_heap_used_bytes', help: 'V8 heap in use.', value: memory.heapUsed },
      {
        name: 'parley_process_uptime_seconds',
        help: 'Seconds since the process started.',
        value: process.uptime(),
      },
      {
        name: 'parley_event_loop_delay_p99_seconds',
        help: 'The 99th percentile of event loop delay since start.',
        value: loopDelay.percentile(99) / 1e9,
      },
    ]);
    return reply.header('content-type', 'text/plain; version=0.0.4; charset=utf-8').send(text);
  });
}
