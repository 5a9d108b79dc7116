import { SERVER_TEXT } from '@parley/domain/messages';
import type { Role } from '@parley/domain/roles';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/database';
import { forbidden, unauthorized } from '../lib/http-error';
import { findSession } from '../modules/tokens/tokens.repository';

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

export function registerAuth(app: FastifyInstance): void {
  app.decorateRequest('session', null);
}

/** preHandler: a live session or 401 { action: "logout" }; with roles, one of them or 403. */
export function requireSession(db: Db, roles?: Role[]) {
  return async (request: FastifyRequest) => {
    const token = bearerToken(request);
    const found = token ? await findSession(db, token) : undefined;
    if (!token || !found) throw unauthorized(SERVER_TEXT.unauthenticated);
    request.session = { ...found, token };
    if (roles && !roles.some((role) => found.roles.includes(role))) throw forbidden(SERVER_TEXT.forbidden);
  };
}

/** The session of a route behind requireSession; reaching it without one is a wiring bug, not a client error. */
export function sessionOf(request: { session: Session | null }): Session {
  if (!request.session) throw new Error('route is missing its requireSession preHandler');
  return request.session;
}
