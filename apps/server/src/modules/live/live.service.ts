import type { LiveHello } from '@parley/domain/live-schemas';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { asSystem } from '../../db/scope';
import { bearerToken } from '../../plugins/auth';
import { BOOKING_LINK_HEADER } from '../booking/booker';
import { findEventLink } from '../booking/booking.repository';
import { findSession } from '../tokens/tokens.repository';
import type { Caller } from './calls.service';

// The live channel's door (GET /api/live, live.routes.ts): a socket is someone's once its first message
// names a live session, or the personal link of an invitation mail (a family booking without a password,
// who holds no other role there).

/** Whose socket this is, or null for a hello that names nobody. */
export async function identify(ctx: AppContext, hello: LiveHello): Promise<Caller | null> {
  return asSystem(async () => {
    if ('token' in hello) {
      const session = await findSession(ctx.db, hello.token);
      return session ? { userId: session.userId, schoolId: session.schoolId, roles: session.roles } : null;
    }
    const link = await findEventLink(ctx.db, hello.link);
    return link?.eventId ? { userId: link.userId, schoolId: link.schoolId, roles: [] } : null;
  });
}

/** Whose request this is: a session (Authorization) or a family's personal link (X-Booking-Link). */
export function requestCaller(ctx: AppContext, request: FastifyRequest): Promise<Caller | null> {
  const token = bearerToken(request);
  const link = request.headers[BOOKING_LINK_HEADER];
  if (token) return identify(ctx, { type: 'hello', token });
  if (typeof link === 'string' && link.length > 0 && link.length <= 200)
    return identify(ctx, { type: 'hello', link });
  return Promise.resolve(null);
}
