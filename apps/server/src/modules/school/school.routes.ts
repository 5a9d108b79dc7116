import { schoolProfile, schoolUpdate } from '@parley/domain/school';
import type { AppContext } from '../../context';
import { type Api, errorResponses } from '../../lib/api';
import { requireSession, sessionOf } from '../../plugins/auth';
import { schoolProfileOf, updateSchoolProfile } from './school.service';

export function schoolRoutes(api: Api, ctx: AppContext): void {
  const tags = ['school'];
  const security = [{ bearer: [] }];

  // Every member may read the school's profile (name, zone, contact); only admins change it.
  api.get(
    '/site/school',
    {
      onRequest: requireSession(ctx.db),
      schema: { tags, security, response: { 200: schoolProfile, ...errorResponses } },
    },
    async (request) => schoolProfileOf(ctx.db, sessionOf(request).schoolId),
  );

  api.post(
    '/site/update-school',
    {
      onRequest: requireSession(ctx.db, ['admin']),
      schema: { tags, security, body: schoolUpdate, response: { 200: schoolProfile, ...errorResponses } },
    },
    async (request) => updateSchoolProfile(ctx.db, sessionOf(request).schoolId, request.body),
  );
}
