import { CACHE_MAX_AGE_MS, STORAGE_KEYS } from '@parley/domain/constants';
import type { DirectoryItem, DirectoryPage } from '@parley/domain/people';
import { QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client';
import { reloadSession } from '../../lib/session';
import { FIRST_PEOPLE_PAGE, patchStatusInLists, peoplePageQuery } from './api';
import { discardsBeforeLoad, type PeopleKind, withStatus } from './list-cache';

// Spec §4 list cache, exercised the way a screen uses it: a list page mounting the real list query.

const NOW = 1_800_000_000_000;

function person(id: number, name: string, status: 0 | 1 = 1): DirectoryItem {
  const [firstName = '', lastName = ''] = name.split(' ');
  return {
    id,
    name,
    firstName,
    lastName,
    title: null,
    email: `${firstName.toLowerCase()}@hill.test`,
    status,
    statusLabel: status ? 'Active' : 'Inactive',
    statusIcon: status ? 'check_circle' : 'block',
    userTypeId: 3,
    invitation: 'pending',
    related: [],
  };
}

/** A page of the directory as the server answers (decision 035). */
const pageOf = (items: DirectoryItem[]): DirectoryPage => ({
  items,
  total: items.length,
  page: 1,
  pageSize: 10,
});

function signIn(isAdmin: boolean) {
  localStorage.setItem(STORAGE_KEYS.accessToken, 'tok');
  localStorage.setItem(STORAGE_KEYS.currentUser, JSON.stringify(sessionUser(isAdmin)));
  reloadSession();
}

let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  localStorage.clear();
  queryClient.clear();
  signIn(true);
  fetchMock = vi.fn<typeof fetch>(
    async () =>
      new Response(JSON.stringify(pageOf([person(1, 'Amy Apple'), person(2, 'Zed Zulu')])), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      }),
  );
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  queryClient.clear();
  localStorage.clear();
  reloadSession();
});

/** A list's first page cached `age` ms ago, as a reload restores it. */
function cached(kind: PeopleKind, items: DirectoryItem[], age: number) {
  queryClient.setQueryData(peoplePageQuery(kind).queryKey, pageOf(items), { updatedAt: NOW - age });
}

/** Opens the list screen: mounts the list query; resolves with the number of server fetches. */
async function openList(kind: PeopleKind): Promise<number> {
  const observer = new QueryObserver(queryClient, peoplePageQuery(kind));
  const unsubscribe = observer.subscribe(() => {});
  await vi.waitFor(() => expect(observer.getCurrentResult().fetchStatus).toBe('idle'));
  unsubscribe();
  return fetchMock.mock.calls.length;
}

describe('list cache rules (spec §4)', () => {
  it('does not refetch a list younger than 4 hours', async () => {
    cached('students', [person(1, 'Ada Lovelace')], CACHE_MAX_AGE_MS - 1);
    expect(await openList('students')).toBe(0);
    expect(queryClient.getQueryData(peoplePageQuery('students').queryKey)?.items).toHaveLength(1);
  });

  it('refetches a list older than 4 hours (14,400,000 ms)', async () => {
    expect(CACHE_MAX_AGE_MS).toBe(14_400_000);
    cached('students', [person(1, 'Ada Lovelace')], CACHE_MAX_AGE_MS + 1);
    expect(await openList('students')).toBe(1);
    expect(queryClient.getQueryData(peoplePageQuery('students').queryKey)?.items).toHaveLength(2);
  });

  it('fetches when nothing is cached', async () => {
    expect(await openList('admins')).toBe(1);
  });

  it('refetches an empty list of teachers or parents, but keeps an empty list of admins or students', async () => {
    cached('students', [], 1000);
    cached('admins', [], 1000);
    expect(await openList('students')).toBe(0);
    expect(await openList('admins')).toBe(0);
    cached('teachers', [], 1000);
    expect(await openList('teachers')).toBe(1);
    cached('parents', [], 1000);
    expect(await openList('parents')).toBe(2);
  });

  it('refetches when forced (refresh button, pull-to-refresh), even a fresh list', async () => {
    cached('teachers', [person(1, 'Ada Lovelace')], 1000);
    expect(await openList('teachers')).toBe(0);
    await queryClient.refetchQueries({ queryKey: peoplePageQuery('teachers').queryKey });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('never keeps the parents list of a non-admin: fetched on every visit, not persisted', async () => {
    expect(discardsBeforeLoad('parents', false)).toBe(true);
    expect(discardsBeforeLoad('parents', true)).toBe(false);
    expect(discardsBeforeLoad('teachers', false)).toBe(false);
    signIn(false);
    cached('parents', [person(1, 'Ada Lovelace')], 1000);
    expect(await openList('parents')).toBe(1);
    expect(peoplePageQuery('parents').meta).toBeUndefined();
    signIn(true);
    expect(peoplePageQuery('parents').meta).toEqual({ persist: true });
  });

  it('changes status, label and icon of one user on a status update', () => {
    const items = [person(1, 'Ada Lovelace'), person(2, 'Bob Brown')];
    const off = withStatus(items, 2, 0);
    expect(off[1]).toMatchObject({ id: 2, status: 0, statusLabel: 'Inactive', statusIcon: 'block' });
    expect(off[0]).toBe(items[0]);
    expect(withStatus(off, 2, 1)[1]).toMatchObject({
      status: 1,
      statusLabel: 'Active',
      statusIcon: 'check_circle',
    });
  });
});

describe('people list calls', () => {
  it('asks users/{kind} for the page, its search and its sort', async () => {
    await queryClient.fetchQuery(peoplePageQuery('teachers'));
    await queryClient.fetchQuery(
      peoplePageQuery('parents', {
        ...FIRST_PEOPLE_PAGE,
        q: 'moss',
        page: 3,
        pageSize: 25,
        sort: 'email',
        dir: 'desc',
      }),
    );
    expect(fetchMock.mock.calls.map((call) => String(call[0]))).toEqual([
      '/api/users/teachers?q=&page=1&pageSize=10&sort=name&dir=asc',
      '/api/users/parents?q=moss&page=3&pageSize=25&sort=email&dir=desc',
    ]);
  });

  it('patches a status change into the cached lists, keeping their age', () => {
    cached('teachers', [person(1, 'Ada Lovelace'), person(2, 'Bob Brown')], 5000);
    cached('parents', [person(2, 'Bob Brown')], 1000);
    patchStatusInLists(2, 0);
    const key = peoplePageQuery('teachers').queryKey;
    expect(queryClient.getQueryData(key)?.items[1]).toMatchObject({
      id: 2,
      status: 0,
      statusLabel: 'Inactive',
      statusIcon: 'block',
    });
    expect(queryClient.getQueryState(key)?.dataUpdatedAt).toBe(NOW - 5000);
    expect(queryClient.getQueryData(peoplePageQuery('parents').queryKey)?.items[0]?.status).toBe(0);
  });
});

function sessionUser(isAdmin: boolean) {
  return {
    id: 7,
    status: 1,
    accessToken: null,
    deviceToken: null,
    title: null,
    firstName: 'Ada',
    lastName: 'Lovelace',
    fullName: 'Ada Lovelace',
    email: 'ada@hill.test',
    userTypeId: isAdmin ? 2 : 3,
    userTypeName: isAdmin ? 'Admin' : 'Teacher',
    userTypes: [],
    videoConferenceUrl: null,
    role: isAdmin ? 'admin' : 'teacher',
    roles: [isAdmin ? 'admin' : 'teacher'],
    subjectsLabels: '',
    clickRole: null,
    iAmAdmin: isAdmin,
    isAdmin,
    isTeacher: !isAdmin,
    isParent: false,
    isStudent: false,
    loginCount: 1,
    groupedSettings: {},
    subscriberName: 'Hill School',
    schoolId: 3,
  };
}
