import {
  APP_VERSION,
  CACHE_MAX_AGE_MS,
  RETRY_DELAY_MS,
  RETRY_LIMIT,
  STORAGE_KEYS,
} from '@parley/domain/constants';
import { QueryClient } from '@tanstack/react-query';
import {
  type PersistedClient,
  type Persister,
  type PersistQueryClientOptions,
  removeOldestQuery,
} from '@tanstack/react-query-persist-client';
import { removeKeys } from './storage';

// One data cache for the app. Spec §4/§9 cache rule: lists, home data and events are kept on the
// device and refetched when forced (refresh button, pull-to-refresh: the callers fetch with the
// forced flag), when empty (teachers, parents) or when older than CACHE_MAX_AGE_MS (4 hours); a change
// the app makes invalidates what it changed. Those queries opt in with `cachedQuery()`; they are
// persisted to local storage (STORAGE_KEYS.queryCache) so an offline start and a reload paint them at
// once, while a reload asks the server again (readPersistedCache). Nothing else is persisted: not
// tokens, not secrets, not booking grids that must be live.

type WithMeta = { meta?: Record<string, unknown> };

/** Whether a query is one of the cached ones of spec §4 (marked by `cachedQuery()`). */
export function isCachedQuery(query: WithMeta): boolean {
  return query.meta?.persist === true;
}

// TanStack counts data as stale once its age reaches staleTime; the spec refetches only when older.
const FRESH_FOR_MS = CACHE_MAX_AGE_MS + 1;

/** A list with nothing in it: a whole list, or a page of one (decision 035) with no match. */
function isEmptyList(data: unknown): boolean {
  const items = data && typeof data === 'object' && 'items' in data ? data.items : data;
  return Array.isArray(items) && items.length === 0;
}

/** Spec §4: fresh for 4 hours; an empty list is never fresh where the spec refetches empty lists. */
export function cachedStaleTime(refetchWhenEmpty: boolean) {
  return (query: { state: { data: unknown } }): number =>
    refetchWhenEmpty && isEmptyList(query.state.data) ? 0 : FRESH_FOR_MS;
}

/** Options that make a query one of the cached (persisted, 4-hour) ones. */
export function cachedQuery(options: { refetchWhenEmpty?: boolean } = {}) {
  return {
    meta: { persist: true },
    staleTime: cachedStaleTime(options.refetchWhenEmpty ?? false),
    // Kept in memory as long as it may be shown, so an unvisited list is not dropped from storage.
    gcTime: CACHE_MAX_AGE_MS,
  };
}

/** Spec §4: older than 4 hours, or saved "in the future" (clock set back): not shown, fetched again. */
export function cacheExpired(savedAt: number, now: number): boolean {
  return now - savedAt > CACHE_MAX_AGE_MS || savedAt > now;
}

// Without a timestamp the restore discards the stored cache (a damaged or foreign value).
const DISCARDED: PersistedClient = { timestamp: 0, buster: '', clientState: { queries: [], mutations: [] } };

/**
 * Reads the stored cache, keeping only the queries the rule still allows showing (each query has its
 * own age: a list fetched an hour ago is kept beside home data fetched five hours ago, which is not).
 * What it keeps is a first paint, never the answer: each comes back invalidated, so a screen that shows
 * it asks the server at once and shows the answer (issue 36: a reload showed hours-old home data).
 */
export function readPersistedCache(text: string, now: number): PersistedClient {
  let client: PersistedClient;
  try {
    client = JSON.parse(text) as PersistedClient;
  } catch {
    return DISCARDED;
  }
  if (!Array.isArray(client?.clientState?.queries)) return DISCARDED;
  const queries = client.clientState.queries.filter(
    (query) =>
      typeof query?.state?.dataUpdatedAt === 'number' && !cacheExpired(query.state.dataUpdatedAt, now),
  );
  // Marked in place: the parsed text is this function's own.
  for (const query of queries) query.state.isInvalidated = true;
  return { ...client, clientState: { ...client.clientState, queries } };
}

type HttpFailure = { status?: unknown; body?: unknown };

/**
 * Spec §9 retry limit 2: a query is tried again when no response came (offline, dropped connection)
 * or a gateway failed on the way (502, 503, 504). A 503 with the retry flag was already retried by
 * the API client (spec §8); a 4xx or a 500 answer will not change by asking again at once.
 */
export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  if (failureCount >= RETRY_LIMIT || typeof error !== 'object' || error === null) return false;
  const { status, body } = error as HttpFailure;
  if (typeof status !== 'number') return false;
  const retriedByClient =
    status === 503 &&
    typeof body === 'object' &&
    body !== null &&
    (body as { retry?: unknown }).retry === true;
  return (status === 0 || status === 502 || status === 503 || status === 504) && !retriedByClient;
}

/** Spec §9: 1000 ms times the attempt number (failureCount counts from 0). */
export const retryDelay = (failureCount: number): number => RETRY_DELAY_MS * (failureCount + 1);

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetryQuery, retryDelay, refetchOnWindowFocus: false },
      // Writes are not repeated blindly; the API client retries a 503 with the retry flag (spec §8).
      mutations: { retry: false },
    },
  });
}

function localStore(): Storage | undefined {
  try {
    return globalThis.localStorage ?? undefined;
  } catch {
    return undefined;
  }
}

type SyncStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/**
 * Keeps the cached queries in local storage, written at most once a second, and at once when the page is
 * hidden (a reload, a closed tab, a phone switching apps), so data that arrived in the last second is not
 * lost for an offline start. (TanStack's own sync-storage persister, deprecated, cannot cancel a pending
 * write: a write queued before a logout could bring a school's data back after it.)
 */
export function createQueryPersister(
  storage: SyncStore | undefined = localStore(),
  throttleMs = 1000,
  page: Pick<EventTarget, 'addEventListener'> | undefined = globalThis.window,
): Persister {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let latest: PersistedClient | undefined;
  const write = () => {
    timer = undefined;
    let client = latest;
    latest = undefined;
    for (let errorCount = 1; client && storage; errorCount++) {
      try {
        storage.setItem(STORAGE_KEYS.queryCache, JSON.stringify(client));
        return;
      } catch (error) {
        // Storage full: drop the oldest query and try again rather than lose the whole cache.
        client = removeOldestQuery({ persistedClient: client, error: error as Error, errorCount });
      }
    }
  };
  page?.addEventListener('pagehide', () => {
    if (timer === undefined) return;
    clearTimeout(timer);
    write();
  });
  return {
    persistClient: (client) => {
      latest = client;
      timer ??= setTimeout(write, throttleMs);
    },
    restoreClient: () => {
      const text = storage?.getItem(STORAGE_KEYS.queryCache);
      return text ? readPersistedCache(text, Date.now()) : undefined;
    },
    removeClient: () => {
      clearTimeout(timer);
      timer = undefined;
      latest = undefined;
      storage?.removeItem(STORAGE_KEYS.queryCache);
    },
  };
}

/** Persist options: a new app version (buster) or a cache older than the rule starts empty. */
export function cachePersistOptions(persister: Persister): Omit<PersistQueryClientOptions, 'queryClient'> {
  return {
    persister,
    buster: APP_VERSION,
    maxAge: CACHE_MAX_AGE_MS,
    dehydrateOptions: {
      // Only data that arrived (TanStack's default), and only the cached queries of spec §4.
      shouldDehydrateQuery: (query) => isCachedQuery(query) && query.state.status === 'success',
      shouldDehydrateMutation: () => false,
    },
  };
}

export const queryClient = createQueryClient();
export const queryPersister = createQueryPersister();

// Before the persisted cache, lists, home data and events had a local storage key each (spec §3
// names): they are now inside STORAGE_KEYS.queryCache, so an older copy is only removed.
const LEGACY_CACHE_KEYS = [
  STORAGE_KEYS.users,
  STORAGE_KEYS.admins,
  STORAGE_KEYS.teachers,
  STORAGE_KEYS.parents,
  STORAGE_KEYS.students,
  STORAGE_KEYS.homeData,
  STORAGE_KEYS.lastHomeDataRefresh,
  STORAGE_KEYS.events,
  STORAGE_KEYS.lastEventsRefresh,
  STORAGE_KEYS.eventTypes,
];
removeKeys(...LEGACY_CACHE_KEYS);

/**
 * Login and logout: the cached lists, home data and events of the previous session go, from memory
 * and from storage at once, with any write still queued (a tab closed in between must not keep them).
 */
export function forgetCachedData(client: QueryClient = queryClient): void {
  client.removeQueries({ predicate: isCachedQuery });
  queryPersister.removeClient();
}
