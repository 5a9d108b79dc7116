import { APP_VERSION, STORAGE_KEYS } from '@parley/domain/constants';
import { dehydrate } from '@tanstack/react-query';
import { createQueryClient, queryPersister } from '../lib/query-client';

/**
 * Leaves a cached query in local storage as an earlier visit would have (the persisted cache of
 * lib/query-client), fetched at `savedAt`: the next render of the app restores it.
 */
export function storeCachedQuery(queryKey: readonly unknown[], data: unknown, savedAt: number): void {
  queryPersister.removeClient(); // no write queued by an earlier test may replace this one
  const client = createQueryClient();
  client.getQueryCache().build(client, { queryKey, meta: { persist: true } });
  client.setQueryData(queryKey, data, { updatedAt: savedAt });
  const persisted = { buster: APP_VERSION, timestamp: Date.now(), clientState: dehydrate(client) };
  localStorage.setItem(STORAGE_KEYS.queryCache, JSON.stringify(persisted));
}
