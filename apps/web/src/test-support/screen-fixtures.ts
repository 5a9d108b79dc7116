import type { CurrentUser } from '@parley/domain/auth';

// Shared by the screen tests that run the real router, guard and API client with only fetch faked.

export type Handler = (url: URL, init: RequestInit) => Response | Promise<Response>;

export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

export const siteConfig = { appName: 'Parley', version: '1.0.5', turnstileSiteKey: null, devMailbox: true };

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
