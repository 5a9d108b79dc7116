import { CACHE_MAX_AGE_MS, STORAGE_KEYS } from '@parley/domain/constants';
import type { UserListItem } from '@parley/domain/people';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client';
import { reloadSession } from '../../lib/session';
import { cachedPeopleList, fetchPeopleList, patchStatusInLists, peopleListQuery } from './api';
import {
  discardsBeforeLoad,
  isExpired,
  needsRefetch,
  sortByName,
  toCachedList,
  usableCache,
  withStatus,
} from './list-cache';

const NOW = 1_800_000_000_000;

function person(id: number, name: string, status: 0 | 1 = 1): UserListItem {
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
  };
}

describe('list cache rules (spec §4)', () => {
  const fresh = { savedAt: NOW - 1000, items: [person(1, 'Ada Lovelace')] };

  it('refetches when forced, even a fresh list', () => {
    expect(needsRefetch('teachers', fresh, { now: NOW, forced: true })).toBe(true);
    expect(needsRefetch('teachers', fresh, { now: NOW })).toBe(false);
  });

  it('refetches when nothing is cached', () => {
    for (const kind of ['admins', 'teachers', 'parents', 'students'] as const) {
      expect(needsRefetch(kind, null, { now: NOW })).toBe(true);
    }
  });

  it('refetches an empty list of teachers or parents, but keeps an empty list of admins or students', () => {
    const empty = { savedAt: NOW - 1000, items: [] };
    expect(needsRefetch('teachers', empty, { now: NOW })).toBe(true);
    expect(needsRefetch('parents', empty, { now: NOW })).toBe(true);
    expect(needsRefetch('students', empty, { now: NOW })).toBe(false);
    expect(needsRefetch('admins', empty, { now: NOW })).toBe(false);
  });

  it('refetches a list older than 4 hours (14,400,000 ms)', () => {
    expect(CACHE_MAX_AGE_MS).toBe(14_400_000);
    expect(isExpired(NOW - CACHE_MAX_AGE_MS, NOW)).toBe(false);
    expect(isExpired(NOW - CACHE_MAX_AGE_MS - 1, NOW)).toBe(true);
    expect(needsRefetch('students', { ...fresh, savedAt: NOW - CACHE_MAX_AGE_MS - 1 }, { now: NOW })).toBe(
      true,
    );
    expect(needsRefetch('students', { ...fresh, savedAt: NOW - CACHE_MAX_AGE_MS }, { now: NOW })).toBe(false);
  });

  it('treats a list saved "in the future" (clock changed) as expired', () => {
    expect(isExpired(NOW + 60_000, NOW)).toBe(true);
  });

  it('discards the cached parents list for a non-admin only', () => {
    expect(discardsBeforeLoad('parents', false)).toBe(true);
    expect(discardsBeforeLoad('parents', true)).toBe(false);
    expect(discardsBeforeLoad('teachers', false)).toBe(false);
    expect(usableCache('parents', fresh, { now: NOW, isAdmin: false })).toBeNull();
    expect(usableCache('parents', fresh, { now: NOW, isAdmin: true })).toBe(fresh);
  });

  it('keeps lists sorted by name, ignoring case and accents, equal names by id', () => {
    const sorted = sortByName([
      person(3, 'zoe Adams'),
      person(2, 'Émile Zola'),
      person(5, 'Ada Lovelace'),
      person(4, 'Ada Lovelace'),
      person(1, 'bob Brown'),
    ]);
    expect(sorted.map((item) => item.id)).toEqual([4, 5, 1, 2, 3]);
    expect(toCachedList([person(2, 'B b'), person(1, 'A a')], NOW)).toEqual({
      savedAt: NOW,
      items: [person(1, 'A a'), person(2, 'B b')],
    });
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

describe('list cache in local storage', () => {
  const admin = { isAdmin: true };

  function signIn(isAdmin: boolean) {
    localStorage.setItem(STORAGE_KEYS.accessToken, 'tok');
    localStorage.setItem(STORAGE_KEYS.currentUser, JSON.stringify(sessionUser(isAdmin)));
    reloadSession();
  }

  beforeEach(() => {
    localStorage.clear();
    queryClient.clear();
    signIn(admin.isAdmin);
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
    reloadSession();
  });

  it('fetches, sorts by name and stores the list with its time', async () => {
    const fetchMock = vi.fn(
      async () =>
        new Response(JSON.stringify({ items: [person(2, 'Zed Zulu'), person(1, 'Amy Apple')] }), {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
        }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const items = await fetchPeopleList('teachers');
    expect(items.map((item) => item.name)).toEqual(['Amy Apple', 'Zed Zulu']);
    expect(String(fetchMock.mock.calls[0]?.[0 as never])).toBe('/api/users/teachers');
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEYS.teachers) ?? 'null');
    expect(stored.items.map((item: UserListItem) => item.id)).toEqual([1, 2]);
    expect(Math.abs(stored.savedAt - Date.now())).toBeLessThan(5000);
    expect(cachedPeopleList('teachers')?.items).toHaveLength(2);
  });

  it('serves a fresh stored list, and not an old, empty or malformed one', () => {
    const save = (key: string, value: unknown) => localStorage.setItem(key, JSON.stringify(value));
    save(STORAGE_KEYS.students, { savedAt: NOW - 1000, items: [person(1, 'Ada Lovelace')] });
    expect(cachedPeopleList('students', NOW)?.items).toHaveLength(1);
    save(STORAGE_KEYS.students, { savedAt: NOW - CACHE_MAX_AGE_MS - 1, items: [person(1, 'Ada Lovelace')] });
    expect(cachedPeopleList('students', NOW)).toBeNull();
    save(STORAGE_KEYS.teachers, { savedAt: NOW - 1000, items: [] });
    expect(cachedPeopleList('teachers', NOW)).toBeNull();
    localStorage.setItem(STORAGE_KEYS.admins, '[{"not":"a list"}]');
    expect(cachedPeopleList('admins', NOW)).toBeNull();
  });

  it('removes the stored parents list when a non-admin loads it', () => {
    signIn(false);
    localStorage.setItem(
      STORAGE_KEYS.parents,
      JSON.stringify({ savedAt: NOW - 1000, items: [person(1, 'Ada Lovelace')] }),
    );
    expect(cachedPeopleList('parents', NOW)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.parents)).toBeNull();
  });

  it('patches a status change into the stored and the shown lists', () => {
    const stored = { savedAt: NOW - 1000, items: [person(1, 'Ada Lovelace'), person(2, 'Bob Brown')] };
    localStorage.setItem(STORAGE_KEYS.teachers, JSON.stringify(stored));
    localStorage.setItem(
      STORAGE_KEYS.parents,
      JSON.stringify({ ...stored, items: [person(2, 'Bob Brown')] }),
    );
    queryClient.setQueryData(peopleListQuery('teachers').queryKey, stored.items);

    patchStatusInLists(2, 0);

    const teachers = JSON.parse(localStorage.getItem(STORAGE_KEYS.teachers) ?? 'null');
    expect(teachers.savedAt).toBe(stored.savedAt);
    expect(teachers.items[1]).toMatchObject({
      id: 2,
      status: 0,
      statusLabel: 'Inactive',
      statusIcon: 'block',
    });
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.parents) ?? 'null').items[0].status).toBe(0);
    expect(queryClient.getQueryData(peopleListQuery('teachers').queryKey)?.[1]?.status).toBe(0);
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
