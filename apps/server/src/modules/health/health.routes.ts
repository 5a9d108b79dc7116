import { errorResponse } from '@parley/domain/auth';
import { z } from 'zod';
import type { AppContext } from '../../context';
import type { Api } from '../../lib/api';
import { readiness } from './health.service';

// For load balancers and orchestrators: liveness never touches the database; readiness does.
export function healthRoutes(api: Api, ctx: AppContext): void {
  const tags = ['service'];
  api.get(
    '/health',
    { schema: { tags, response: { 200: z.object({ status: z.literal('ok') }) } } },
    async () => ({ status: 'ok' as const }),
  );
  api.get(
    '/ready',
    { schema: { tags, response: { 200: z.object({ status: z.literal('ready') }), 503: errorResponse } } },
    () => readiness(ctx),
  );
}
