import { idQuery, savedResponse } from '@parley/domain/people';
import { subjectDetail, subjectItem, subjectRequest } from '@parley/domain/school';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { type Api, errorResponses } from '../../lib/api';
import { conflict, notFound } from '../../lib/http-error';
import { requireSession, type Session, sessionOf } from '../../plugins/auth';
import { teachersForSubject } from '../people/people.repository';
import * as repo from './subjects.repository';

const SUBJECT_NOT_FOUND = 'Subject not found.';
const duplicate = (name: string) => {
  const text = `A subject named "${name}" already exists.`;
  return conflict(text, { name: [text] });
};
const isUniqueViolation = (error: unknown) => (error as { code?: string })?.code === '23505';

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
    async (request) => ({ items: await repo.listSubjects(ctx.db, school(request)) }),
  );

  api.get(
    '/subjects/view',
    {
      ...admin,
      schema: { tags, security, querystring: idQuery, response: { 200: subjectDetail, ...errorResponses } },
    },
    async (request) => {
      const subject = await repo.findSubject(ctx.db, school(request), request.query.id);
      if (!subject) throw notFound(SUBJECT_NOT_FOUND);
      return { ...subject, teachers: await teachersForSubject(ctx.db, school(request), subject.id) };
    },
  );

  api.post(
    '/subjects/create',
    { ...admin, schema: { tags, security, body: subjectRequest, response: saved } },
    async (request) => {
      try {
        const { id } = await repo.createSubject(ctx.db, school(request), request.body.name);
        return { id, message: `Subject "${request.body.name}" added.` };
      } catch (error) {
        if (isUniqueViolation(error)) throw duplicate(request.body.name);
        throw error;
      }
    },
  );

  api.post(
    '/subjects/update',
    { ...admin, schema: { tags, security, querystring: idQuery, body: subjectRequest, response: saved } },
    async (request) => {
      try {
        if (!(await repo.renameSubject(ctx.db, school(request), request.query.id, request.body.name))) {
          throw notFound(SUBJECT_NOT_FOUND);
        }
      } catch (error) {
        if (isUniqueViolation(error)) throw duplicate(request.body.name);
        throw error;
      }
      return { id: request.query.id, message: 'Saved.' };
    },
  );

  api.post(
    '/subjects/delete',
    {
      ...admin,
      schema: { tags, security, querystring: idQuery, body: z.unknown().optional(), response: saved },
    },
    async (request) => {
      if (!(await repo.deleteSubject(ctx.db, school(request), request.query.id)))
        throw notFound(SUBJECT_NOT_FOUND);
      return { id: request.query.id, message: 'Subject deleted.' };
    },
  );
}
