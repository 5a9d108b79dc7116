import type { Role } from '@parley/domain/roles';
import { watchSessions } from '../../db/database';
import { perDatabase } from '../../db/per-database';
import { keepRecent } from '../../lib/keep-recent';

// Every API request starts by finding its caller's session. Each process keeps the sessions it has found
// (decision 029), and forgets a user's as soon as the database announces a change to them (migration 018:
// a token revoked, a user disabled, a role taken). Kept only while the announcements of every process are
// heard: without them (PGlite, or the listening connection lost) every request reads the database.

export type FoundSession = { userId: number; schoolId: number; roles: Role[]; expiresAt: Date };

/** At most this many sessions per process (the oldest go first); each kept at most KEEP_MS. */
const MAX_KEPT = 10_000;
const KEEP_MS = 10 * 60_000;

type Kept = { session: FoundSession; until: number };

export class SessionCache {
  readonly #kept = new Map<string, Kept>();
  readonly #hashesOf = new Map<number, Set<string>>();
  #hearing = false;
  /** Moves on with every announcement: a read that began before one is not kept. */
  #generation = 0;

  get hearing(): boolean {
    return this.#hearing;
  }

  /** The session behind a token's hash, kept or read by `read` (and then kept, if nothing changed meanwhile). */
  async find(
    tokenHash: string,
    read: () => Promise<FoundSession | undefined>,
    now = Date.now,
  ): Promise<FoundSession | undefined> {
    const kept = this.#kept.get(tokenHash);
    if (kept && this.#hearing && kept.until > now()) return kept.session;
    if (kept) this.#forget(tokenHash);
    const generation = this.#generation;
    const found = await read();
    if (found && this.#hearing && generation === this.#generation) {
      const until = Math.min(found.expiresAt.getTime(), now() + KEEP_MS);
      keepRecent(this.#kept, tokenHash, { session: found, until }, MAX_KEPT, (oldest) =>
        this.#forget(oldest),
      );
      const hashes = this.#hashesOf.get(found.userId) ?? new Set<string>();
      this.#hashesOf.set(found.userId, hashes.add(tokenHash));
    }
    return found;
  }

  /** A user's sessions changed: forget them (and whatever is being read now). */
  changed(userId: number): void {
    this.#generation += 1;
    for (const hash of this.#hashesOf.get(userId) ?? []) this.#kept.delete(hash);
    this.#hashesOf.delete(userId);
  }

  #forget(tokenHash: string): void {
    const kept = this.#kept.get(tokenHash);
    if (!kept) return;
    this.#kept.delete(tokenHash);
    const hashes = this.#hashesOf.get(kept.session.userId);
    hashes?.delete(tokenHash);
    if (hashes?.size === 0) this.#hashesOf.delete(kept.session.userId);
  }

  /** Whether every process's announcements are heard; when not, nothing is kept. */
  setHearing(hearing: boolean): void {
    this.#generation += 1;
    this.#kept.clear();
    this.#hashesOf.clear();
    this.#hearing = hearing;
  }
}

/** The database's session cache, listening from its first use. */
export const sessionCacheOf = perDatabase((db) => {
  const cache = new SessionCache();
  watchSessions(db, {
    changed: (userId) => cache.changed(userId),
    hearing: (all) => cache.setHearing(all),
  });
  return cache;
});
