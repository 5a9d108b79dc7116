import type { CurrentUser } from '@parley/domain/auth';
import { CACHE_MAX_AGE_MS, STORAGE_KEYS } from '@parley/domain/constants';
import { type HomeData, homeDataResponse } from '@parley/domain/home';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { downloadFile } from '../../lib/download';
import { queryClient } from '../../lib/query-client';
import { readJson, readString, writeJson, writeString } from '../../lib/storage';
import { HOME_REFRESH_WAIT_MS, homeCacheUsable } from './home-logic';
import { type CalendarEntry, parseCalendarEntries, withCalendarEntry } from './my-events-logic';

// Home data (spec §7 Home: GET site/index), cached in local storage under homeData with its fetch time
// under lastHomeDataRefresh (spec §3/§4: 4 hours; forced by refresh and pull-to-refresh).

export type StoredHome = { data: HomeData; savedAt: number };

export function readHomeCache(): StoredHome | null {
  const parsed = homeDataResponse.safeParse(readJson(STORAGE_KEYS.homeData));
  const savedAt = Number(readString(STORAGE_KEYS.lastHomeDataRefresh));
  if (!parsed.success || !Number.isFinite(savedAt) || savedAt <= 0) return null;
  return { data: parsed.data, savedAt };
}

export async function fetchHomeData(forced = false): Promise<HomeData> {
  const data = await api.get<HomeData>('site/index', { query: forced ? { forceRefresh: '1' } : {} });
  writeJson(STORAGE_KEYS.homeData, data);
  writeString(STORAGE_KEYS.lastHomeDataRefresh, String(Date.now()));
  return data;
}

export const siteIndexQuery = queryOptions({
  queryKey: ['home', 'site-index'],
  queryFn: () => fetchHomeData(false),
  initialData: () => {
    const stored = readHomeCache();
    return stored && homeCacheUsable(stored.savedAt, Date.now()) ? stored.data : undefined;
  },
  initialDataUpdatedAt: () => readHomeCache()?.savedAt,
  staleTime: CACHE_MAX_AGE_MS,
});

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Refresh button and pull-to-refresh: a forced reload that takes at least 2 seconds (spec §9). */
export async function refreshHomeData(waitMs = HOME_REFRESH_WAIT_MS): Promise<HomeData> {
  const [data] = await Promise.all([fetchHomeData(true), wait(waitMs)]);
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

/** In a browser the calendar is a file: the server's .ics for the event (text/calendar). */
export const downloadCalendarFile = (eventId: number) =>
  downloadFile('events/calendar-file', { eventId }, `event-${eventId}.ics`);
