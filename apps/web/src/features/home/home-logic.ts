import { SAMPLE_EVENT_BANNER_LOGIN_COUNT } from '@parley/domain/constants';

// Rules of the admin home (spec §2 Home, §9 constants), pure so they are tested directly. The §4
// cache of the home data is lib/query-client.

/** Spec §9: pull-to-refresh threshold on the home view. */
export const HOME_PULL_THRESHOLD = 192;
/** Spec §9: the home refresh waits 2 seconds. */
export const HOME_REFRESH_WAIT_MS = 2000;

/** Spec §2/§9: the sample-events banner shows while loginCount is below 5. */
export function showsSampleBanner(loginCount: number | null | undefined): boolean {
  return typeof loginCount === 'number' && loginCount < SAMPLE_EVENT_BANNER_LOGIN_COUNT;
}

export type HomeCounts = {
  eventsCount: number;
  teachersCount: number;
  parentsCount: number;
  studentsCount: number;
};

export type TileKey = 'events' | 'teachers' | 'parents' | 'students';

/** The four count tiles, in the spec's order, each linking to its list. */
export function homeTiles(data: HomeCounts | undefined): Array<{ key: TileKey; count: number | null }> {
  return [
    { key: 'events', count: data?.eventsCount ?? null },
    { key: 'teachers', count: data?.teachersCount ?? null },
    { key: 'parents', count: data?.parentsCount ?? null },
    { key: 'students', count: data?.studentsCount ?? null },
  ];
}
