import type { CurrentUser } from '@parley/domain/auth';
import { STORAGE_KEYS } from '@parley/domain/constants';
import type { HomeData } from '@parley/domain/home';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { FIRST_ANSWER_FRESH_MS, type FirstAnswer, firstHomeData } from '../../lib/first-answers';
import { cachedQuery, queryClient } from '../../lib/query-client';
import { readJson, readString, writeJson, writeString } from '../../lib/storage';
import { HOME_REFRESH_WAIT_MS } from './home-logic';
import { HOME_QUERY_KEY } from './home-query-key';
import { type CalendarEntry, parseCalendarEntries, withCalendarEntry } from './my-events-logic';

// Home data (spec §7 Home: GET site/index), one of the cached queries of spec §3/§4 (forced by refresh
// and pull-to-refresh), persisted with the others by lib/query-client. Unlike the lists it is asked for
// each time home opens (issue 36): the counts and "My Events" change with what others do.

export async function fetchHomeData(forced = false): Promise<HomeData> {
  return api.get<HomeData>('site/index', { query: forced ? { forceRefresh: '1' } : {} });
}

let pageAnswer: FirstAnswer<HomeData> | undefined;

export const siteIndexQuery = queryOptions({
  queryKey: HOME_QUERY_KEY,
  queryFn: () => fetchHomeData(false),
  ...cachedQuery(),
  // Shown while home asks again; an answer younger than this (the one the page came with) is not asked
  // again at once.
  staleTime: FIRST_ANSWER_FRESH_MS,
  // A signed-in visitor's home page brings it (lib/first-answers.ts), made when the page was.
  initialData: () => {
    pageAnswer = firstHomeData<HomeData>();
    return pageAnswer?.data;
  },
  initialDataUpdatedAt: () => pageAnswer?.at,
});

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Refresh button and pull-to-refresh: a forced reload that takes at least 2 seconds (spec §9). */
export async function refreshHomeData(waitMs = HOME_REFRESH_WAIT_MS): Promise<HomeData> {
  const [data] = await Promise.all([fetchHomeData(true), wait(waitMs)]);
  // A read of home still in flight (the page's own, begun before the tap) would land after this one and
  // put back what it read before: it is called off first.
  await queryClient.cancelQueries({ queryKey: siteIndexQuery.queryKey });
  queryClient.setQueryData(siteIndexQuery.queryKey, data);
  return data;
}

export const fetchCurrentUser = () => api.get<CurrentUser>('users/data');

// ---- My Events (spec §2 Home, §3 calendarEvents and last view-as role) ----

export const readLastViewAs = (): string | null => readString(STORAGE_KEYS.lastViewAsRole);
export const writeLastViewAs = (role: string): void => writeString(STORAGE_KEYS.lastViewAsRole, role);

export const readCalendarEntries = (): CalendarEntry[] =>
  parseCalendarEntries(readJson(STORAGE_KEYS.calendarEvents));

/** Remembers on this device that the event is in the user's calendar (spec §4: not added → added). */
export function rememberCalendarEntry(entry: CalendarEntry): CalendarEntry[] {
  const next = withCalendarEntry(readCalendarEntries(), entry);
  writeJson(STORAGE_KEYS.calendarEvents, next);
  return next;
}
