import { APP_VERSION, CACHE_MAX_AGE_MS, STORAGE_KEYS } from '@parley/domain/constants';
import type { HomeData } from '@parley/domain/home';
import { type QueryClient, QueryObserver, useQuery } from '@tanstack/react-query';
import {
  type PersistQueryClientOptions,
  PersistQueryClientProvider,
  persistQueryClientRestore,
  persistQueryClientSave,
} from '@tanstack/react-query-persist-client';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { eventsQuery, refreshEvents } from '../features/events/api';
import { refreshHomeData, siteIndexQuery } from '../features/home/api';
import { emptyHomeData } from '../test-support/screen-fixtures';
import { FIRST_ANSWER_FRESH_MS } from './first-answers';
import {
  cachePersistOptions,
  createQueryClient,
  createQueryPersister,
  queryClient,
  readPersistedCache,
  retryDelay,
  shouldRetryQuery,
} from './query-client';
import { endSession, reloadSession, startSession } from './session';

// Spec §4/§9 data cache: the 4-hour rule for home data and events, the persisted copy that survives a
// reload and an offline start, login and logout clearing it, and the query retry of §9.

const NOW = 1_800_000_000_000;

const home: HomeData = {
  ...emptyHomeData,
  eventsCount: 4,
  teachersCount: 12,
  parentsCount: 30,
  studentsCount: 25,
};

const events = { events: [], eventTypes: [{ id: 1, name: 'Parent teacher' }], message: '' };

let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;

function answer(body: unknown): Response {
  return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  localStorage.clear();
  queryClient.clear();
  fetchMock = vi.fn<typeof fetch>(async (input) =>
    answer(String(input).includes('site/index') ? { ...home, eventsCount: 5 } : events),
  );
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  queryClient.clear();
  localStorage.clear();
  reloadSession();
});

// The persister packages bring their own copy of query-core: the same client, another type.
const asPersistClient = (client: QueryClient) =>
  client as unknown as PersistQueryClientOptions['queryClient'];

/** Puts data into a query with its options (as a screen leaves it), fetched `age` ms ago. */
function cacheAs(options: typeof siteIndexQuery | typeof eventsQuery, data: unknown, age: number) {
  queryClient.getQueryCache().build(queryClient, options as never);
  queryClient.setQueryData(options.queryKey, data as never, { updatedAt: NOW - age });
}

/** Mounts a query the way a screen does; resolves with the number of server fetches so far. */
async function open(options: typeof siteIndexQuery | typeof eventsQuery): Promise<number> {
  const observer = new QueryObserver(queryClient, options as typeof siteIndexQuery);
  const unsubscribe = observer.subscribe(() => {});
  await vi.waitFor(() => expect(observer.getCurrentResult().fetchStatus).toBe('idle'));
  unsubscribe();
  return fetchMock.mock.calls.length;
}

describe.each([
  { name: 'home data', query: siteIndexQuery, data: home as unknown, freshMs: FIRST_ANSWER_FRESH_MS },
  {
    name: 'events',
    query: eventsQuery,
    data: { events: [], eventTypes: [] } as unknown,
    freshMs: CACHE_MAX_AGE_MS,
  },
])('cache rule for $name (spec §4, §9)', ({ query, data, freshMs }) => {
  const cache = (age: number) =>
    queryClient.setQueryData(query.queryKey, data as never, { updatedAt: NOW - age });

  // Home is asked again each time it opens (issue 36), but for the answer its page came with.
  it('is not refetched while fresh (events 4 hours, home data 30 s)', async () => {
    cache(freshMs - 1);
    expect(await open(query)).toBe(0);
  });

  it('is refetched once no longer fresh', async () => {
    cache(freshMs + 1);
    expect(await open(query)).toBe(1);
  });

  it('is fetched when nothing is cached', async () => {
    expect(await open(query)).toBe(1);
  });

  it('is one of the persisted queries', () => {
    expect(query.meta).toEqual({ persist: true });
  });
});

describe('forced refresh (refresh button, pull-to-refresh)', () => {
  it('always fetches home data with the forced flag, even when fresh', async () => {
    queryClient.setQueryData(siteIndexQuery.queryKey, home, { updatedAt: NOW - 1000 });
    await refreshHomeData(0);
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/site/index?forceRefresh=1');
    expect(queryClient.getQueryData(siteIndexQuery.queryKey)?.eventsCount).toBe(5);
  });

  it('always fetches events with the forced flag, even when fresh', async () => {
    queryClient.setQueryData(eventsQuery.queryKey, { events: [], eventTypes: [] }, { updatedAt: NOW - 1000 });
    await refreshEvents();
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/events/index?forceRefresh=1');
    expect(queryClient.getQueryData(eventsQuery.queryKey)?.eventTypes).toHaveLength(1);
  });
});

/** A storage of its own, as a second page load of the same browser would see it. */
function memoryStorage() {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
    removeItem: (key: string) => void map.delete(key),
  };
}

async function persist(storage: ReturnType<typeof memoryStorage>) {
  const options = cachePersistOptions(createQueryPersister(storage));
  vi.useFakeTimers({ now: Date.now() });
  await persistQueryClientSave({ ...options, queryClient: asPersistClient(queryClient) });
  vi.advanceTimersByTime(1000); // the persister writes at most once a second
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
}

async function reload(storage: ReturnType<typeof memoryStorage>, now = NOW) {
  vi.setSystemTime(now);
  const client = createQueryClient();
  await persistQueryClientRestore({
    ...cachePersistOptions(createQueryPersister(storage)),
    queryClient: asPersistClient(client),
  });
  return client;
}

describe('persisted cache (survives a reload)', () => {
  async function fillCache() {
    const observer = new QueryObserver(queryClient, siteIndexQuery);
    const unsubscribe = observer.subscribe(() => {});
    await vi.waitFor(() => expect(observer.getCurrentResult().isSuccess).toBe(true));
    unsubscribe();
    // Not one of the cached queries: a live booking grid, and something secret.
    queryClient.setQueryData(['booking', 'grid', 3], { slots: ['10:00'] });
    queryClient.setQueryData(['account', 'totp'], { secret: 'JBSWY3DPEHPK3PXP' });
  }

  it('restores home data and events into a new client, with their age, under the queryCache key', async () => {
    await fillCache();
    cacheAs(eventsQuery, { events: [], eventTypes: [] }, 5000);
    const storage = memoryStorage();
    await persist(storage);
    expect([...storage.map.keys()]).toEqual([STORAGE_KEYS.queryCache]);

    const client = await reload(storage, NOW + 60_000);
    expect(client.getQueryData(siteIndexQuery.queryKey)).toMatchObject({ eventsCount: 5 });
    expect(client.getQueryState(eventsQuery.queryKey)?.dataUpdatedAt).toBe(NOW - 5000);
    // Issue 36: however young, a restored copy is a first paint: shown at once, then the server's answer.
    fetchMock.mockImplementation(async (input) =>
      answer(String(input).includes('site/index') ? { ...home, eventsCount: 6 } : events),
    );
    for (const query of [siteIndexQuery, eventsQuery] as const) {
      const observer = new QueryObserver(client, query as typeof siteIndexQuery);
      const unsubscribe = observer.subscribe(() => {});
      expect(observer.getCurrentResult().isStale).toBe(true);
      expect(observer.getCurrentResult().isFetching).toBe(true);
      unsubscribe();
    }
    const observer = new QueryObserver(client, siteIndexQuery);
    const unsubscribe = observer.subscribe(() => {});
    await vi.waitFor(() => expect(observer.getCurrentResult().data?.eventsCount).toBe(6));
    unsubscribe();
  });

  it('keeps only the cached queries: no booking grid, no secret', async () => {
    await fillCache();
    const storage = memoryStorage();
    await persist(storage);
    const stored = storage.map.get(STORAGE_KEYS.queryCache) ?? '';
    expect(stored).toContain('site-index');
    expect(stored).not.toContain('grid');
    expect(stored).not.toContain('JBSWY3DPEHPK3PXP');
    const client = await reload(storage);
    expect(client.getQueryData(['booking', 'grid', 3])).toBeUndefined();
  });

  it('drops a restored query older than 4 hours, and the whole cache for another app version', async () => {
    await fillCache();
    cacheAs(eventsQuery, { events: [], eventTypes: [] }, 3_600_000);
    const storage = memoryStorage();
    await persist(storage);
    expect((await reload(storage)).getQueryData(eventsQuery.queryKey)).toBeDefined();

    const later = await reload(storage, NOW + CACHE_MAX_AGE_MS - 3_600_000 + 1);
    expect(later.getQueryData(eventsQuery.queryKey)).toBeUndefined(); // 4 h + 1 ms old
    expect(later.getQueryData(siteIndexQuery.queryKey)).toBeDefined(); // 3 h old

    const text = storage.map.get(STORAGE_KEYS.queryCache) ?? '';
    storage.setItem(STORAGE_KEYS.queryCache, text.replace(`"buster":"${APP_VERSION}"`, '"buster":"0.0.1"'));
    expect((await reload(storage)).getQueryData(siteIndexQuery.queryKey)).toBeUndefined();
  });

  it('writes at most once a second, and a write queued before a logout never lands', () => {
    vi.useFakeTimers({ now: NOW });
    const storage = memoryStorage();
    const persister = createQueryPersister(storage);
    const client = { buster: APP_VERSION, timestamp: NOW, clientState: { queries: [], mutations: [] } };
    void persister.persistClient(client);
    vi.advanceTimersByTime(999);
    expect(storage.map.size).toBe(0);
    vi.advanceTimersByTime(1);
    expect(storage.map.has(STORAGE_KEYS.queryCache)).toBe(true);

    void persister.persistClient(client);
    void persister.removeClient();
    vi.advanceTimersByTime(5000);
    expect(storage.map.size).toBe(0);
  });

  it('writes a pending copy at once when the page is hidden (a reload within the second keeps it)', () => {
    vi.useFakeTimers({ now: NOW });
    const storage = memoryStorage();
    const page = new EventTarget();
    const persister = createQueryPersister(storage, 1000, page);
    const client = { buster: APP_VERSION, timestamp: NOW, clientState: { queries: [], mutations: [] } };
    page.dispatchEvent(new Event('pagehide'));
    expect(storage.map.size).toBe(0);
    void persister.persistClient(client);
    vi.advanceTimersByTime(10);
    page.dispatchEvent(new Event('pagehide'));
    expect(storage.map.has(STORAGE_KEYS.queryCache)).toBe(true);
    // Written once: the throttled write does not come again.
    storage.map.clear();
    vi.advanceTimersByTime(2000);
    expect(storage.map.size).toBe(0);
  });

  it('treats a cache saved "in the future" (clock set back) or damaged as nothing', () => {
    const client = readPersistedCache(
      JSON.stringify({
        buster: APP_VERSION,
        timestamp: NOW,
        clientState: {
          mutations: [],
          queries: [{ queryKey: ['x'], queryHash: '["x"]', state: { dataUpdatedAt: NOW + 1 } }],
        },
      }),
      NOW,
    );
    expect(client.clientState.queries).toEqual([]);
    expect(readPersistedCache('not json', NOW).timestamp).toBe(0);
    expect(readPersistedCache('{"people":"old"}', NOW).timestamp).toBe(0);
  });
});

function HomeCounts() {
  const { data, isPending } = useQuery(siteIndexQuery);
  return <p>{isPending ? 'loading' : `Events ${data?.eventsCount}`}</p>;
}

describe('offline start', () => {
  it('shows the cached home from local storage, and keeps it when the network does not answer', async () => {
    // A first visit fills the cache in local storage...
    cacheAs(siteIndexQuery, { ...home, eventsCount: 9 }, 1000);
    const saved = cachePersistOptions(createQueryPersister());
    vi.useFakeTimers({ now: NOW });
    await persistQueryClientSave({ ...saved, queryClient: asPersistClient(queryClient) });
    vi.advanceTimersByTime(1000);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    expect(localStorage.getItem(STORAGE_KEYS.queryCache)).toContain('site-index');

    // ...then the app starts again with no network.
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const client = createQueryClient();
    render(
      <PersistQueryClientProvider
        client={client}
        persistOptions={cachePersistOptions(createQueryPersister())}
      >
        <HomeCounts />
      </PersistQueryClientProvider>,
    );
    expect(await screen.findByText('Events 9')).toBeTruthy();
    // It asked (issue 36: the stored copy is not the answer), got nothing, and still shows it.
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(screen.getByText('Events 9')).toBeTruthy();
  });
});

describe('login and logout clear the cache (spec §4)', () => {
  const user = {
    id: 7,
    firstName: 'Ada',
    subscriberName: 'Hill School',
  } as unknown as Parameters<typeof startSession>[1];

  async function cacheEverything() {
    cacheAs(siteIndexQuery, home, 0);
    await open(eventsQuery);
    localStorage.setItem(STORAGE_KEYS.queryCache, '{"stored":"cache"}');
    localStorage.setItem(STORAGE_KEYS.lastViewAsRole, 'parent');
  }

  it('login clears the cached lists and the last View as choice, and stores the token', async () => {
    await cacheEverything();
    // The list as a screen leaves it: one of the cached queries.
    const list = new QueryObserver(queryClient, {
      queryKey: ['people', 'teachers'],
      queryFn: async () => [{ id: 1 }],
      meta: { persist: true },
    });
    const unsubscribe = list.subscribe(() => {});
    await vi.waitFor(() => expect(list.getCurrentResult().isSuccess).toBe(true));
    unsubscribe();

    startSession('tok-9', user);
    expect(queryClient.getQueryData(['people', 'teachers'])).toBeUndefined();
    expect(queryClient.getQueryData(eventsQuery.queryKey)).toBeUndefined();
    expect(localStorage.getItem(STORAGE_KEYS.queryCache)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.lastViewAsRole)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('tok-9');
  });

  it('logout removes the home data (and the rest of the cache)', async () => {
    await cacheEverything();
    endSession();
    expect(queryClient.getQueryData(siteIndexQuery.queryKey)).toBeUndefined();
    expect(localStorage.getItem(STORAGE_KEYS.queryCache)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
  });
});

describe('query retry (spec §9: limit 2, 1000 ms times the attempt)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  async function failingFetch(error: unknown) {
    const client = createQueryClient();
    const queryFn = vi.fn(async () => {
      throw error;
    });
    const result = client.fetchQuery({ queryKey: ['retry'], queryFn }).catch((reason: unknown) => reason);
    return { queryFn, result };
  }

  it('retries a request that got no response twice, after 1000 ms then 2000 ms', async () => {
    const error = { status: 0 };
    const { queryFn, result } = await failingFetch(error);
    await vi.advanceTimersByTimeAsync(0);
    expect(queryFn).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(queryFn).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(queryFn).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1999);
    expect(queryFn).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(queryFn).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(queryFn).toHaveBeenCalledTimes(3);
    expect(await result).toBe(error);
  });

  it('does not retry a 4xx or a 500, nor a 503 the API client already retried', async () => {
    for (const error of [
      { status: 404 },
      { status: 422 },
      { status: 500 },
      { status: 503, body: { retry: true } },
    ]) {
      const { queryFn, result } = await failingFetch(error);
      await vi.advanceTimersByTimeAsync(10_000);
      expect(queryFn).toHaveBeenCalledTimes(1);
      expect(await result).toBe(error);
    }
  });

  it('states the rule', () => {
    expect([0, 1, 2].map(retryDelay)).toEqual([1000, 2000, 3000]);
    expect(shouldRetryQuery(0, { status: 502 })).toBe(true);
    expect(shouldRetryQuery(0, { status: 503, body: {} })).toBe(true);
    expect(shouldRetryQuery(0, { status: 500 })).toBe(false);
    expect(shouldRetryQuery(1, { status: 0 })).toBe(true);
    expect(shouldRetryQuery(2, { status: 0 })).toBe(false);
    expect(shouldRetryQuery(0, new Error('a bug'))).toBe(false);
  });

  it('never retries a mutation by itself', async () => {
    const client = createQueryClient();
    const mutationFn = vi.fn(async () => {
      throw { status: 0 };
    });
    const done = client
      .getMutationCache()
      .build(client, { mutationFn })
      .execute(undefined)
      .catch(() => 'failed');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await done).toBe('failed');
    expect(mutationFn).toHaveBeenCalledTimes(1);
  });
});
