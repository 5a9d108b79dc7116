import { currentUser, emailSearchResponse, searchQuery } from '@parley/domain/auth';
import type { AppContext } from '../../context';
import { type Api, errorResponses } from '../../lib/api';
import { requireSession, sessionOf } from '../../plugins/auth';
import { searchEmails, userData } from './users.service';

export function userRoutes(api: Api, ctx: AppContext): void {
  const tags = ['users'];

  api.get(
    '/users/data',
    {
      onRequest: requireSession(ctx.db),
      schema: { tags, security: [{ bearer: [] }], response: { 200: currentUser, ...errorResponses } },
    },
    (request) => userData(ctx, sessionOf(request).userId),
  );

  // Autocomplete of the school's own addresses (inviting, choosing scanners): admins only.
  api.get(
    '/user/search-email',
    {
      onRequest: requireSession(ctx.db, ['admin']),
      schema: {
        tags,
        security: [{ bearer: [] }],
        querystring: searchQuery,
        response: { 200: emailSearchResponse, ...errorResponses },
      },
    },
    async (request) => ({ items: await searchEmails(ctx, sessionOf(request).schoolId, request.query.q) }),
  );
}
