import type { FastifyRequest } from 'fastify';

/** Where a session signs in from: shown in the list of one's sessions (decision 015). */
export type SessionClient = { ip: string; userAgent: string | undefined };

export const sessionClient = (request: FastifyRequest): SessionClient => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'],
});
