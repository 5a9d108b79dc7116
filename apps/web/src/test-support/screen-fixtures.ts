import type { CurrentUser } from '@parley/domain/auth';
import type { HomeData } from '@parley/domain/home';
import { vi } from 'vitest';

// Shared by the screen tests that run the real router, guard and API client with only fetch faked.

export type Handler = (url: URL, init: RequestInit) => Response | Promise<Response>;

export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

export const siteConfig = { appName: 'Parley', version: '1.0.5', turnstileSiteKey: null, devMailbox: true };

/** Home data (GET site/index) of a school with nothing in it: tests spread their own lists over it. */
export const emptyHomeData: HomeData = {
  subscriberName: 'Hill School',
  viewAsSelectorItems: [],
  eventsCount: 0,
  teachersCount: 0,
  parentsCount: 0,
  studentsCount: 0,
  activeEvents: [],
  teacherEventsCount: 0,
  parentEventsCount: 0,
  studentEventsCount: 0,
  teacherOpenEventsSummary: [],
  parentOpenEventsSummary: [],
  studentOpenEventsSummary: [],
};

export const adminUser: CurrentUser = {
  id: 7,
  status: 1,
  accessToken: null,
  deviceToken: null,
  title: null,
  firstName: 'Ada',
  lastName: 'Lovelace',
  fullName: 'Ada Lovelace',
  email: 'ada@hill.test',
  userTypeId: 2,
  userTypeName: 'Admin',
  userTypes: [{ id: 2, name: 'Admin' }],
  videoConferenceUrl: null,
  role: 'admin',
  roles: ['admin'],
  subjectsLabels: '',
  clickRole: 'admin',
  iAmAdmin: true,
  isAdmin: true,
  isTeacher: false,
  isParent: false,
  isStudent: false,
  loginCount: 1,
  groupedSettings: {},
  subscriberName: 'Hill School',
  schoolId: 3,
};

export type RecordedRequest = { path: string; init: RequestInit };

/** Replaces fetch: each request is recorded and answered by the handler for its path, else 404. */
export function stubFetch(
  handlerFor: (path: string) => Handler | undefined,
  requests: () => RecordedRequest[],
) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      requests().push({ path: url.pathname + url.search, init });
      const handler = handlerFor(url.pathname);
      return handler ? handler(url, init) : json(404, { message: 'Not found.' });
    }),
  );
}
