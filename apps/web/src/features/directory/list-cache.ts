import { CACHE_MAX_AGE_MS } from '@parley/domain/constants';
import { STATUS_ICONS, STATUS_LABELS } from '@parley/domain/people';

// Spec §4 caching of the people lists in local storage, as pure rules (people-store.ts does the I/O):
// - a list is refetched when forced (refresh button, pull-to-refresh), when there is none, when it is
//   empty (teachers and parents only) or when it is older than 4 hours (CACHE_MAX_AGE_MS);
// - for a non-admin the cached parents list is discarded before loading;
// - lists are kept sorted by name;
// - a status change updates status, label and icon in the cached lists.

export const PEOPLE_KINDS = ['admins', 'teachers', 'parents', 'students'] as const;
export type PeopleKind = (typeof PEOPLE_KINDS)[number];

/** What is kept under each key: the list and when it was fetched (ms since the epoch). */
export type CachedList<T> = { savedAt: number; items: T[] };

/** Spec §4: teachers and parents are refetched when their cached list is empty. */
export const REFETCH_WHEN_EMPTY: ReadonlySet<PeopleKind> = new Set<PeopleKind>(['teachers', 'parents']);

export function isExpired(savedAt: number, now: number, maxAgeMs = CACHE_MAX_AGE_MS): boolean {
  // A clock set back (savedAt in the future) counts as expired too: better one fetch than stale data.
  return now - savedAt > maxAgeMs || savedAt > now;
}

export function needsRefetch<T>(
  kind: PeopleKind,
  cached: CachedList<T> | null,
  options: { now: number; forced?: boolean },
): boolean {
  if (options.forced) return true;
  if (!cached) return true;
  if (cached.items.length === 0 && REFETCH_WHEN_EMPTY.has(kind)) return true;
  return isExpired(cached.savedAt, options.now);
}

/** Spec §4: for a non-admin user the cached parents list is discarded before loading. */
export function discardsBeforeLoad(kind: PeopleKind, isAdmin: boolean): boolean {
  return kind === 'parents' && !isAdmin;
}

/** The cached list to show, or null when it must be (re)fetched. */
export function usableCache<T>(
  kind: PeopleKind,
  cached: CachedList<T> | null,
  options: { now: number; isAdmin: boolean; forced?: boolean },
): CachedList<T> | null {
  if (discardsBeforeLoad(kind, options.isAdmin)) return null;
  return needsRefetch(kind, cached, options) ? null : cached;
}

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** Sorted by name (case and accents ignored), then by id so equal names keep a fixed order. */
export function sortByName<T extends { name: string; id: number }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => collator.compare(a.name, b.name) || a.id - b.id);
}

export function toCachedList<T extends { name: string; id: number }>(
  items: readonly T[],
  now: number,
): CachedList<T> {
  return { savedAt: now, items: sortByName(items) };
}

type StatusFields = { id: number; status: number; statusLabel: string; statusIcon: string };

/** Spec §4: a status update changes status, label and icon of that user in a list. */
export function withStatus<T extends StatusFields>(items: readonly T[], userId: number, status: 0 | 1): T[] {
  return items.map((item) =>
    item.id === userId
      ? { ...item, status, statusLabel: STATUS_LABELS[status], statusIcon: STATUS_ICONS[status] }
      : item,
  );
}
