import { z } from 'zod';
import type { AppContext } from '../../context';
import { type Api, errorResponses } from '../../lib/api';
import { fromThisMachine } from '../../lib/loopback';
import { allowMetrics, exposition } from './metrics.service';

// Prometheus scrapes this (decision 023); its own bearer token, or this machine only: no session.
export function metricsRoutes(api: Api, ctx: AppContext): void {
  api.get(
    '/metrics',
    {
      onRequest: async (request) =>
        allowMetrics(ctx, request.headers.authorization, fromThisMachine(request)),
      schema: {
        tags: ['service'],
        description:
          'Prometheus text (format 0.0.4): latency and rate by route, booking conflicts, the database pool, the outboxes, the process. METRICS_TOKEN as a bearer token, or from the server itself when none is set.',
        produces: ['text/plain'],
        response: {
          200: z.string().describe('text/plain; version=0.0.4'),
          401: errorResponses[401],
          403: errorResponses[403],
          503: errorResponses[503],
        },
      },
    },
    async (_request, reply) =>
      reply
        .header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(await exposition(ctx)),
  );
}
