import { idParam } from '@parley/domain/fields';
import { jobProgress, jobsOfEvent as jobsOfEventResponse } from '@parley/domain/jobs';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { type Api, errorResponses } from '../../lib/api';
import { requireSession, type Session, sessionOf } from '../../plugins/auth';
import { jobOf, jobsOfEvent } from './jobs.service';

// Work running after its request answered (decision 037): how far a message to a district has got. Admin
// only, within the admin's school: another school's job is 404 like a missing one.
export function jobRoutes(api: Api, ctx: AppContext): void {
  const tags = ['jobs'];
  const admin = { onRequest: requireSession(ctx.db, ['admin']) };
  const security = [{ bearer: [] }];
  const school = (request: { session: Session | null }) => sessionOf(request).schoolId;

  api.get(
    '/jobs/view',
    {
      ...admin,
      schema: {
        tags,
        security,
        querystring: z.strictObject({ id: idParam }),
        response: { 200: jobProgress, ...errorResponses },
      },
    },
    (request) => jobOf(ctx, school(request), request.query.id),
  );

  api.get(
    '/jobs/of-event',
    {
      ...admin,
      schema: {
        tags,
        security,
        querystring: z.strictObject({ eventId: idParam }),
        response: { 200: jobsOfEventResponse, ...errorResponses },
      },
    },
    (request) => jobsOfEvent(ctx, school(request), request.query.eventId),
  );
}
