import type { FastifyRequest } from 'fastify';
import { clientIp } from './loopback';

/** Where a session signs in from: shown in the list of one's sessions (decision 015). */
export type SessionClient = { ip: string; userAgent: string | undefined };

export const sessionClient = (request: FastifyRequest): SessionClient => ({
  ip: clientIp(request),
  userAgent: request.headers['user-agent'],
});
