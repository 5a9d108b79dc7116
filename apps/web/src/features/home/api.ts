import type { CurrentUser, SiteIndex } from '@parley/domain/auth';
import { CACHE_MAX_AGE_MS } from '@parley/domain/constants';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api-client';

// Home data (spec §7 Home): the school's name and the view-as choices; tiles and lists come later.

export const siteIndexQuery = queryOptions({
  queryKey: ['home', 'site-index'],
  queryFn: ({ signal }) => api.get<SiteIndex>('site/index', { signal }),
  staleTime: CACHE_MAX_AGE_MS,
});

export const fetchCurrentUser = () => api.get<CurrentUser>('users/data');
