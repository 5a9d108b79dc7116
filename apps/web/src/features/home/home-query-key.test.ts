import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { siteIndexQuery } from './api';
import { HOME_QUERY_KEY } from './home-query-key';

// main.tsx refreshes home by this key (a native push): invalidating it must refetch the home query.

describe('HOME_QUERY_KEY', () => {
  it('is the key of the home query, so invalidating it refetches home', async () => {
    const client = new QueryClient();
    client.setQueryData(siteIndexQuery.queryKey, { counts: 1 } as never);
    await client.invalidateQueries({ queryKey: HOME_QUERY_KEY });
    expect(client.getQueryState(siteIndexQuery.queryKey)?.isInvalidated).toBe(true);
  });
});
