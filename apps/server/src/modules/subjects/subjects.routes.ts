import { idQuery, savedResponse } from '@parley/domain/people';
import { subjectDetail, subjectItem, subjectRequest } from '@parley/domain/school';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { type Api, errorResponses } from '../../lib/api';
import { requireSession, type Session, sessionOf } from '../../plugins/auth';
import * as subjects from './subjects.service';

export function subjectRoutes(api: Api, ctx: AppContext): void {
  const tags = ['subjects'];
  const admin = { onRequest: requireSession(ctx.db, ['admin']) };
  const security = [{ bearer: [] }];
  const school = (request: { session: Session | null }) => sessionOf(request).schoolId;
  const saved = { 200: savedResponse, ...errorResponses };

  api.get(
    '/subjects/index',
    {
      ...admin,
      schema: {
        tags,
        security,
        response: { 200: z.object({ items: z.array(subjectItem) }), ...errorResponses },
      },
    },
    async (request) => ({ items: await subjects.listSubjects(ctx.db, school(request)) }),
  );

  api.get(
    '/subjects/view',
    {
      ...admin,
      schema: { tags, security, querystring: idQuery, response: { 200: subjectDetail, ...errorResponses } },
    },
    (request) => subjects.viewSubject(ctx.db, school(request), request.query.id),
  );

  api.post(
    '/subjects/create',
    { ...admin, schema: { tags, security, body: subjectRequest, response: saved } },
    (request) => subjects.createSubject(ctx.db, school(request), request.body.name),
  );

  api.post(
    '/subjects/update',
    { ...admin, schema: { tags, security, querystring: idQuery, body: subjectRequest, response: saved } },
    (request) => subjects.renameSubject(ctx.db, school(request), request.query.id, request.body.name),
  );

  api.post(
    '/subjects/delete',
    {
      ...admin,
      schema: { tags, security, querystring: idQuery, body: z.unknown().optional(), response: saved },
    },
    (request) => subjects.deleteSubject(ctx.db, school(request), request.query.id),
  );
}
