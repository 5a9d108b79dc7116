import { STATUS_ICONS, STATUS_LABELS } from '@parley/domain/people';

// Spec §4 rules of the cached people lists (the cache itself, with its 4 hours, is lib/query-client):
// - teachers and parents are refetched when their cached list is empty;
// - for a non-admin the cached parents list is discarded before loading;
// - lists are sorted by name (on the server, decision 035);
// - a status change updates status, label and icon in the cached lists.

export const PEOPLE_KINDS = ['admins', 'teachers', 'parents', 'students'] as const;
export type PeopleKind = (typeof PEOPLE_KINDS)[number];

/** Spec §4: teachers and parents are refetched when their cached list is empty. */
export const REFETCH_WHEN_EMPTY: ReadonlySet<PeopleKind> = new Set<PeopleKind>(['teachers', 'parents']);

/** Spec §4: for a non-admin user the cached parents list is discarded before loading. */
export function discardsBeforeLoad(kind: PeopleKind, isAdmin: boolean): boolean {
  return kind === 'parents' && !isAdmin;
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
