import { SERVER_TEXT } from '@parley/domain/messages';
import type { Role } from '@parley/domain/roles';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/database';
import { enterRequest, narrowToSchool } from '../db/scope';
import { forbidden, unauthorized } from '../lib/http-error';
import { findSession, sessionTouchesOf } from '../modules/tokens/tokens.repository';
import { PUBLIC_ROUTES } from './public-routes';

export type Session = { userId: number; schoolId: number; roles: Role[]; token: string };

declare module 'fastify' {
  interface FastifyRequest {
    session: Session | null;
  }
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1] ?? null;
}

type AuthHook = (request: FastifyRequest) => Promise<void>;
const AUTHENTICATES = Symbol('parley.authenticates');

/**
 * Makes a route's authentication of its onRequest hook: it runs before the body is parsed and validated,
 * so a stranger learns nothing of a route's fields, only 401. What it answers is the caller's school: the
 * rest of the request then sees that school's rows only (row-level security, db/scope.ts).
 */
export function authHook(authenticate: (request: FastifyRequest) => Promise<{ schoolId: number }>): AuthHook {
  const hook: AuthHook = async (request) => {
    narrowToSchool((await authenticate(request)).schoolId);
  };
  return Object.assign(hook, { [AUTHENTICATES]: true });
}

export function registerAuth(app: FastifyInstance, db: Db): void {
  app.decorateRequest('session', null);
  // Sessions marked active in the last second are written before the database goes.
  const touches = sessionTouchesOf(db);
  touches.reportTo(app.log);
  app.addHook('onClose', () => touches.flush());
  // Each request runs in its own database scope: every school until its authentication narrows it to the
  // caller's (db/scope.ts, decision 016).
  app.addHook('onRequest', (_request, _reply, done) => enterRequest(done));
  // Every API route authenticates or is listed as public: a route that forgot both fails the start.
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs')) return;
    const hooks = [route.onRequest ?? []].flat() as unknown[];
    const authenticates = hooks.some((hook) => typeof hook === 'function' && AUTHENTICATES in hook);
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      const isPublic = PUBLIC_ROUTES.has(`${method} ${route.url}`);
      if (authenticates === isPublic)
        throw new Error(
          `${method} ${route.url}: ${isPublic ? 'listed as public but authenticates' : 'neither authenticates (onRequest: requireSession) nor is listed in plugins/public-routes.ts'}`,
        );
    }
  });
}

/** onRequest: a live session or 401 { action: "logout" }; with roles, one of them or 403. */
export function requireSession(db: Db, roles?: Role[]): AuthHook {
  return authHook(async (request) => {
    const token = bearerToken(request);
    const found = token ? await findSession(db, token) : undefined;
    if (!token || !found) throw unauthorized(SERVER_TEXT.unauthenticated);
    request.session = { userId: found.userId, schoolId: found.schoolId, roles: found.roles, token };
    if (roles && !roles.some((role) => found.roles.includes(role))) throw forbidden(SERVER_TEXT.forbidden);
    return found;
  });
}

/** The session of a route behind requireSession; reaching it without one is a wiring bug, not a client error. */
export function sessionOf(request: { session: Session | null }): Session {
  if (!request.session) throw new Error('route is missing its requireSession hook');
  return request.session;
}
