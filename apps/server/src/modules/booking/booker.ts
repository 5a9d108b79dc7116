import { isOpen, type OpenStudents, openStudents } from '@parley/domain/event-access';
import { ACCESS_TEXT } from '@parley/domain/messages';
import type { Role } from '@parley/domain/roles';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/database';
import { forbidden } from '../../lib/http-error';
import { bearerToken } from '../../plugins/auth';
import { findSession } from '../tokens/tokens.repository';
import { findRoles } from '../users/users.repository';
import { findEventLink, type RecipientAccess, recipientAccess } from './booking.repository';

/**
 * Who is booking: a logged-in user (bearer token), or an invited parent or student identified by the
 * personal link in their invitation mail (X-Booking-Link), which opens that one event and nothing else.
 */
export type Booker = {
  userId: number;
  schoolId: number;
  roles: Role[];
  viaLink: boolean;
  /** The one event a personal link opens; null for a login. */
  linkEventId: number | null;
  /** The personal link itself, given back in the family's booking mail (it opens their booking). */
  linkToken?: string;
};

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is booking, set by the booking routes' authentication hook. */
    booker: Booker | null;
  }
}

export const BOOKING_LINK_HEADER = 'x-booking-link';

export async function resolveBooker(db: Db, request: FastifyRequest): Promise<Booker | null> {
  const token = bearerToken(request);
  if (token) {
    const session = await findSession(db, token);
    if (session) {
      const { userId, schoolId, roles } = session;
      return { userId, schoolId, roles, viaLink: false, linkEventId: null };
    }
  }
  const link = request.headers[BOOKING_LINK_HEADER];
  if (typeof link === 'string' && link.length > 0 && link.length < 200) {
    const found = await findEventLink(db, link);
    if (found?.eventId) {
      return {
        userId: found.userId,
        schoolId: found.schoolId,
        roles: await findRoles(db, found.userId),
        viaLink: true,
        linkEventId: found.eventId,
        linkToken: link,
      };
    }
  }
  return null;
}

/** Whether this booker may act on this event at all (same school; a link only for its own event). */
export function bookerFor(booker: Booker | null, event: { id: number; school_id: number }): Booker | null {
  if (!booker || booker.schoolId !== event.school_id) return null;
  if (booker.linkEventId !== null && booker.linkEventId !== event.id) return null;
  return booker;
}

/** A parent books for their children; a student for themselves; anyone else cannot book. */
export function bookingRole(booker: Booker): 'parent' | 'student' | null {
  if (booker.roles.includes('parent')) return 'parent';
  if (booker.roles.includes('student')) return 'student';
  return null;
}

type Family = { role: 'parent' | 'student'; userId: number };

/** The students this family may book for in the event: its recipients decide, when it has any (issue 11). */
export async function openTo(
  db: Db,
  event: { id: number; school_id: number },
  family: Family,
): Promise<OpenStudents> {
  return openFrom(await recipientAccess(db, event.school_id, event.id, family.userId), family);
}

/** The same, from what the recipient list says about the family member (read with the booking's lock). */
export function openFrom(access: RecipientAccess, family: Family): OpenStudents {
  return openStudents(
    access,
    family.role === 'parent'
      ? { role: 'parent', userId: family.userId, children: access.children }
      : { role: 'student', userId: family.userId, parents: access.parents },
  );
}

/** 403 for a family the event's recipients leave out; else the students they may book for. */
export async function requireOpen(db: Db, event: { id: number; school_id: number }, family: Family) {
  const open = await openTo(db, event, family);
  if (!isOpen(open)) throw forbidden(ACCESS_TEXT.notOpenToYou);
  return open;
}
