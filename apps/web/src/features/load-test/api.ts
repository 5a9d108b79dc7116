import type { LoadTestEventsResponse, LoadTestRun, LoadTestStatusResponse } from '@parley/domain/load-test';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api-client';

// The load-test page's calls (issue 15, decision 022): admins only; the server enforces it.

export const loadTestEventsQuery = queryOptions({
  queryKey: ['load-test', 'events'],
  queryFn: ({ signal }) => api.get<LoadTestEventsResponse>('load-test/events', { signal }),
  staleTime: 0,
});

/** The school's latest rehearsal: polled every second while it runs, then left alone. */
export const loadTestStatusQuery = queryOptions({
  queryKey: ['load-test', 'status'],
  queryFn: ({ signal }) => api.get<LoadTestStatusResponse>('load-test/status', { signal }),
  staleTime: 0,
  refetchInterval: (query) => (query.state.data?.run?.status === 'running' ? 1000 : false),
});

export const startLoadTest = (eventId: number, parents: number) =>
  api.post<{ run: LoadTestRun }>('load-test/start', { eventId, parents });
