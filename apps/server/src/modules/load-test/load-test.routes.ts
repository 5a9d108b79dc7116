import {
  loadTestEventsResponse,
  loadTestStatusResponse,
  startLoadTestRequest,
} from '@parley/domain/load-test';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { type Api, errorResponses } from '../../lib/api';
import { requireSession, sessionOf } from '../../plugins/auth';
import * as loadTest from './load-test.service';

// The load-test page (issue 15, decision 022): admins only, their own school's events only; another
// school's event answers 404 like a missing one, and a second rehearsal anywhere on the installation 409.
export function loadTestRoutes(api: Api, ctx: AppContext): void {
  const tags = ['load-test'];
  const security = [{ bearer: [] }];
  const admin = { onRequest: requireSession(ctx.db, ['admin']) };
  const ok = <T>(schema: T) => ({ 200: schema, ...errorResponses });
  // Shutdown stops a rehearsal at once; it still removes its sandbox before the app's close completes.
  api.addHook('preClose', async () => loadTest.stopRehearsals());

  api.get(
    '/load-test/events',
    {
      ...admin,
      schema: {
        tags,
        security,
        description: "The school's events an admin may rehearse, with the size of their grids.",
        response: ok(loadTestEventsResponse),
      },
    },
    (request) => loadTest.events(ctx, sessionOf(request).schoolId),
  );

  api.post(
    '/load-test/start',
    {
      ...admin,
      schema: {
        tags,
        security,
        description:
          'Starts a rehearsal of the event with N simulated parents on a sandbox copy; 409 while one runs anywhere on the installation.',
        body: startLoadTestRequest,
        response: ok(z.object({ run: loadTestStatusResponse.shape.run.unwrap() })),
      },
    },
    (request) => loadTest.start(ctx, sessionOf(request), request.body),
  );

  api.get(
    '/load-test/status',
    {
      ...admin,
      schema: {
        tags,
        security,
        description:
          "The school's latest rehearsal: its progress each second, then its summary and integrity check.",
        response: ok(loadTestStatusResponse),
      },
    },
    (request) => loadTest.status(ctx, sessionOf(request).schoolId),
  );
}
