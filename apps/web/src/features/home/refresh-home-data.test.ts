import type { HomeData } from '@parley/domain/home';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client';
import { json, type RecordedRequest, stubFetch } from '../../test-support/screen-fixtures';
import { refreshHomeData, siteIndexQuery } from './api';

// "Refresh My Events": the forced read is what home shows, even when a read begun before the tap (the
// page's own, slow on a busy server) answers after it with what it read before.

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

describe('refreshing home', () => {
  it('keeps the forced answer over an older read that lands after it', async () => {
    let answerOld: (response: Response) => void = () => {};
    const old = new Promise<Response>((resolve) => {
      answerOld = resolve;
    });
    const requests: RecordedRequest[] = [];
    stubFetch(
      (path) =>
        path === '/api/site/index'
          ? (url) => (url.searchParams.get('forceRefresh') ? json(200, { eventsCount: 2 }) : old)
          : undefined,
      () => requests,
    );
    const pageRead = queryClient
      .fetchQuery({ ...siteIndexQuery, initialData: undefined, staleTime: 0 })
      .catch(() => null);
    await vi.waitFor(() => expect(requests).toHaveLength(1));
    const fresh = await refreshHomeData(0);
    expect(fresh).toEqual({ eventsCount: 2 });
    answerOld(await json(200, { eventsCount: 1 }));
    await pageRead;
    expect(queryClient.getQueryData<Partial<HomeData>>(siteIndexQuery.queryKey)).toEqual({ eventsCount: 2 });
  });
});
