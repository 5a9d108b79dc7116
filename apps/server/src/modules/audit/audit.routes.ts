import { auditEventQuery, auditExportQuery, auditListResponse, auditPersonQuery } from '@parley/domain/audit';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { type Api, errorResponses } from '../../lib/api';
import { requireSession, type Session, sessionOf } from '../../plugins/auth';
import * as audit from './audit.service';

// The audit trail's reads (decision 014): admins only, their own school's entries only; another school's
// person or event answers 404 exactly like a missing one.
export function auditRoutes(api: Api, ctx: AppContext): void {
  const tags = ['audit'];
  const security = [{ bearer: [] }];
  const admin = { onRequest: requireSession(ctx.db, ['admin']) };
  const school = (request: { session: Session | null }) => sessionOf(request).schoolId;
  const ok = <T>(schema: T) => ({ 200: schema, ...errorResponses });

  api.get(
    '/audit/person',
    {
      ...admin,
      schema: {
        tags,
        security,
        description: 'Changes made to a person, or touching them (their bookings, messages), newest first.',
        querystring: auditPersonQuery,
        response: ok(auditListResponse),
      },
    },
    (request) => audit.personEntries(ctx, school(request), request.query.id),
  );

  api.get(
    '/audit/event',
    {
      ...admin,
      schema: {
        tags,
        security,
        description: 'Changes made in an event (its status, bookings, messages, tickets), newest first.',
        querystring: auditEventQuery,
        response: ok(auditListResponse),
      },
    },
    (request) => audit.eventEntries(ctx, school(request), request.query.id),
  );

  api.get(
    '/audit/export',
    {
      ...admin,
      schema: {
        tags,
        security,
        description: "The school's audit trail as CSV: every entry, or those of a person and/or an event.",
        querystring: auditExportQuery,
        produces: ['text/csv'],
        response: ok(z.string().describe('text/csv; charset=utf-8, with a byte-order mark')),
      },
    },
    async (request, reply) => {
      const file = await audit.exportCsv(ctx, school(request), request.query);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .header('cache-control', 'no-store')
        .send(file.content);
    },
  );
}
