import { bulkQuery, bulkRequest } from '@parley/domain/bulk-add';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { actorOf } from '../../lib/actor';
import { type Api, errorResponses } from '../../lib/api';
import { requireSession, type Session, sessionOf } from '../../plugins/auth';
import { bulkAddFamilies, bulkAddTeachers } from './bulk-add.service';

const summary = z.object({
  created: z.number(),
  rolesAdded: z.number(),
  skipped: z.number(),
  invalid: z.number(),
  invited: z.number(),
});
const status = z.enum(['new', 'add-role', 'exists', 'error']);
const person = z.object({ firstName: z.string(), lastName: z.string(), email: z.string() });

const teacherResult = z.object({
  confirmed: z.boolean(),
  summary,
  rows: z.array(
    person.extend({
      line: z.number(),
      title: z.string().nullable(),
      subjects: z.array(z.string()),
      status,
      errors: z.array(z.string()),
    }),
  ),
});
const familyResult = z.object({
  confirmed: z.boolean(),
  summary,
  rows: z.array(
    z.object({
      line: z.number(),
      student: person,
      parents: z.array(person),
      status,
      errors: z.array(z.string()),
    }),
  ),
});

const bulkOptions = (
  request: FastifyRequest & {
    session: Session | null;
    body: { csv: string };
    query: { confirm?: string | undefined; send_invite?: string | undefined };
  },
) => ({
  schoolId: sessionOf(request).schoolId,
  csv: request.body.csv,
  confirm: request.query.confirm === 'true',
  sendInvite: request.query.send_invite === 'true',
  actor: actorOf(request, sessionOf(request)),
});

// Spec §7: bulk-add-teachers (preview), then ?confirm=true&send_invite={bool}; the same for families.
export function bulkAddRoutes(api: Api, ctx: AppContext): void {
  const options = {
    onRequest: requireSession(ctx.db, ['admin']),
    bodyLimit: 5 * 1_048_576, // a school's whole roll as CSV
  };
  const schema = { tags: ['people'], security: [{ bearer: [] }], querystring: bulkQuery, body: bulkRequest };
  api.post(
    '/users/bulk-add-teachers',
    { ...options, schema: { ...schema, response: { 200: teacherResult, ...errorResponses } } },
    (request) => bulkAddTeachers(ctx, bulkOptions(request)),
  );
  api.post(
    '/users/bulk-add-students',
    { ...options, schema: { ...schema, response: { 200: familyResult, ...errorResponses } } },
    (request) => bulkAddFamilies(ctx, bulkOptions(request)),
  );
}
