import type { Role } from '@parley/domain/roles';
import type { FastifyRequest } from 'fastify';
import { clientIp } from './loopback';

/**
 * Who makes a change, and from where: what the audit trail records (decision 014). Built by a route from
 * its session (or booker) and the request, and handed to the services that record.
 */
export type Actor = {
  userId: number;
  schoolId: number;
  roles: readonly Role[];
  /** The client's address as the server sees it (behind a trusted proxy, the address the proxy saw). */
  ip: string | null;
  userAgent: string | null;
};

const USER_AGENT_MAX = 500;

/**
 * The actor of a request: its caller (the session, or a booking route's booker) and where it came from. A
 * personal link acts as its family, never as staff, whatever roles its owner holds.
 */
export function actorOf(
  request: FastifyRequest,
  caller: { userId: number; schoolId: number; roles: readonly Role[]; viaLink?: boolean },
): Actor {
  const agent = request.headers['user-agent'];
  return {
    userId: caller.userId,
    schoolId: caller.schoolId,
    roles: caller.viaLink ? [] : caller.roles,
    ip: clientIp(request) || null,
    userAgent: typeof agent === 'string' && agent.length > 0 ? agent.slice(0, USER_AGENT_MAX) : null,
  };
}
