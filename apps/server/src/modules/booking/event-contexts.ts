import { perDatabase } from '../../db/per-database';
import { keepRecent } from '../../lib/keep-recent';
import type { BookingEventRow, RecipientAccess } from './booking.repository';

// What a booking reads about its event besides the slots (the event's row with its type, its school's name
// and zone, when its last section ends, its recipient list) changes only when the school edits the event,
// yet every attempt read it again with its joins. Each process keeps it per event (decision 009). It stays
// exact without announcements: the event's version (migration 021) moves on with every change to any of
// it, and each booking's own read (the locking read, under the event's lock; or the peek) brings the
// version, so a context kept at another version is read again.

/** At most this many events' contexts per process (the least recently used go first). */
const MAX_EVENTS = 50;

export type EventContext = { event: BookingEventRow; recipientIds: ReadonlySet<number> };

/** Reads an event's context (undefined: no such event in the school). */
export type ReadContext = () => Promise<{ event: BookingEventRow; recipientIds: number[] } | undefined>;

export class EventContexts {
  readonly #kept = new Map<number, EventContext>();

  /** The event's context at `version` (which the caller's statement read): the kept one, or read again. */
  async at(eventId: number, version: number, read: ReadContext): Promise<EventContext | undefined> {
    const kept = this.#kept.get(eventId);
    if (kept && kept.event.version === version) {
      keepRecent(this.#kept, eventId, kept, MAX_EVENTS); // used: now the most recent
      return kept;
    }
    const row = await read();
    if (!row) return undefined;
    const fresh = { event: Object.freeze(row.event), recipientIds: new Set(row.recipientIds) };
    // Two reads may cross: the newer version stays.
    const latest = this.#kept.get(eventId);
    if (!latest || latest.event.version <= fresh.event.version)
      keepRecent(this.#kept, eventId, fresh, MAX_EVENTS);
    return fresh;
  }

  /** Whether an event's context is kept, and at which version (for tests). */
  keptVersion(eventId: number): number | undefined {
    return this.#kept.get(eventId)?.event.version;
  }
}

/** The database's event contexts, one set per process. */
export const eventContextsOf = perDatabase(() => new EventContexts());

/**
 * What the event's recipient list says about a family member (booker.ts openFrom): whether it names
 * anyone, and which of the member, their children and their parents it names.
 */
export function recipientAccessOf(
  context: EventContext,
  userId: number,
  family: { children: number[]; parents: number[] },
): RecipientAccess {
  const among = new Set(
    [userId, ...family.children, ...family.parents].filter((id) => context.recipientIds.has(id)),
  );
  return { any: context.recipientIds.size > 0, among, children: family.children, parents: family.parents };
}
