import { STORAGE_KEYS } from '@parley/domain/constants';
import type { UserListItem } from '@parley/domain/people';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client';
import { reloadSession } from '../../lib/session';
import { storeCachedQuery } from '../../test-support/cached-data';
import { renderAt } from '../../test-support/render-app';
import {
  adminUser,
  type Handler,
  json,
  type RecordedRequest,
  stubFetch,
} from '../../test-support/screen-fixtures';

// The directory screens through the real router, guard, providers and API client; only fetch is faked.

const admin = adminUser;

function teacher(id: number, firstName: string, lastName: string): UserListItem {
  return {
    id,
    name: `${firstName} ${lastName}`,
    firstName,
    lastName,
    title: null,
    email: `${firstName.toLowerCase()}@hill.test`,
    status: 1,
    statusLabel: 'Active',
    statusIcon: 'check_circle',
    userTypeId: 3,
    invitation: 'pending',
    subjectIds: [1],
  };
}

const NAMES = [
  'Zoe Adams',
  'Bob Brown',
  'Cat Cole',
  'Dan Dunn',
  'Eve East',
  'Fay Fox',
  'Gus Gray',
  'Hal Hart',
  'Ivy Irwin',
  'Jon Judd',
  'Kim Kent',
  'Amy Zhu',
];
const TEACHERS = NAMES.map((name, index) => {
  const [first = '', last = ''] = name.split(' ');
  return teacher(index + 1, first, last);
});

let routes: Record<string, Handler>;
let requests: RecordedRequest[];

function signIn(user: Record<string, unknown> = admin) {
  localStorage.setItem(STORAGE_KEYS.accessToken, 'tok-1');
  localStorage.setItem(STORAGE_KEYS.currentUser, JSON.stringify(user));
  reloadSession();
}

const calls = (path: string) => requests.filter((request) => request.path === path).length;
const isDisabled = (element: HTMLElement) => (element as HTMLButtonElement).disabled;

function type(scope: HTMLElement, label: string, value: string) {
  const input = within(scope).getByLabelText(label) as HTMLInputElement;
  fireEvent.input(input, { target: { value } });
  fireEvent.blur(input);
  return input;
}

beforeEach(() => {
  localStorage.clear();
  queryClient.clear();
  requests = [];
  routes = {
    '/api/site/config': () =>
      json(200, { appName: 'Parley', version: '1.0.5', turnstileSiteKey: null, devMailbox: true }),
    '/api/subjects/index': () =>
      json(200, {
        items: [
          {
            id: 1,
            name: 'Maths',
            teacherCount: 12,
            studentCount: 0,
            createdAt: '2026-01-01T00:00:00Z',
            createdAtLabel: 'Thu 1 Jan 2026',
          },
        ],
      }),
    '/api/users/teachers': () => json(200, { items: TEACHERS }),
  };
  stubFetch(
    (path) => routes[path],
    () => requests,
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
  reloadSession();
});

describe('teachers list', () => {
  it('shows the stored list at once, sorted by name, 10 to a page, and asks the server for its own', async () => {
    signIn();
    storeCachedQuery(['people', 'teachers'], TEACHERS, Date.now() - 60_000);
    routes['/api/users/teachers'] = () => json(200, { items: [...TEACHERS, teacher(13, 'Al', 'Aaron')] });
    renderAt('/teachers');
    const table = await screen.findByRole('table', { name: 'Teachers' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(10);
    expect(rows[0]?.textContent).toContain('Amy Zhu');
    expect(rows[1]?.textContent).toContain('Bob Brown');
    expect(screen.getByText('1–10 of 12')).toBeTruthy();
    // Issue 36: the stored copy is a first paint; the server's answer replaces it.
    expect(await screen.findByText('1–10 of 13')).toBeTruthy();
    expect(calls('/api/users/teachers')).toBe(1);

    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'zoe' } });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
    expect(within(table).getAllByRole('row')[1]?.textContent).toContain('Zoe Adams');
  });

  it('sorts by another column and back by name when the headers are clicked', async () => {
    signIn();
    storeCachedQuery(['people', 'teachers'], TEACHERS, Date.now());
    renderAt('/teachers');
    const table = await screen.findByRole('table', { name: 'Teachers' });
    fireEvent.click(within(table).getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(within(table).getAllByRole('row')[1]?.textContent).toContain('Zoe Adams'));
  });

  it('refetches when forced by the refresh button, and stores the fresh list', async () => {
    signIn();
    storeCachedQuery(['people', 'teachers'], TEACHERS.slice(0, 2), Date.now());
    renderAt('/teachers');
    await screen.findByText('1–2 of 2');
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await screen.findByText('1–10 of 12');
    expect(calls('/api/users/teachers')).toBe(1);
    expect(queryClient.getQueryData(['people', 'teachers'])).toHaveLength(12);
    // ...and keeps it on the device (the persister writes at most once a second).
    await waitFor(() => expect(localStorage.getItem(STORAGE_KEYS.queryCache)).toContain('Kim Kent'), {
      timeout: 3000,
    });
  });

  it('fetches an old cached list (over 4 hours)', async () => {
    signIn();
    storeCachedQuery(['people', 'teachers'], TEACHERS.slice(0, 2), Date.now() - 14_400_001);
    renderAt('/teachers');
    await screen.findByText('1–10 of 12');
    expect(calls('/api/users/teachers')).toBe(1);
  });

  it('sends a teacher (not an admin) home', async () => {
    signIn({
      ...admin,
      role: 'teacher',
      roles: ['teacher'],
      isAdmin: false,
      iAmAdmin: false,
      isTeacher: true,
    });
    routes['/api/site/index'] = () => json(200, { subscriberName: 'Hill School', viewAsSelectorItems: [] });
    const router = renderAt('/teachers');
    await screen.findByText('Welcome, Ada');
    expect(router.state.location.pathname).toBe('/home');
  });
});

describe('add teacher dialog', () => {
  it('keeps Create disabled until valid, shows the field rules, and keeps what was typed on a conflict', async () => {
    signIn();
    routes['/api/users/create-teacher'] = () =>
      json(409, {
        message: 'bob@hill.test is already a teacher of this school.',
        errors: { email: ['bob@hill.test is already a teacher of this school.'] },
      });
    renderAt('/teachers');
    // The stored copy is replaced by the server's at once (issue 36); the create asks once more.
    await screen.findByText('1–10 of 12');
    expect(calls('/api/users/teachers')).toBe(1);
    queryClient.setQueryData(['home', 'site-index'], { teachersCount: 12 });
    fireEvent.click(await screen.findByRole('button', { name: 'Add teacher' }));
    const dialog = await screen.findByRole('dialog', { name: 'New teacher' });
    const create = within(dialog).getByRole('button', { name: 'Create' });
    expect(isDisabled(create)).toBe(true);
    expect((within(dialog).getByLabelText('Send invitation') as HTMLInputElement).checked).toBe(true);

    type(dialog, 'First name', 'B');
    type(dialog, 'Email', 'bob@');
    expect(await within(dialog).findByText('Min 2 characters')).toBeTruthy();
    expect(await within(dialog).findByText('Invalid email format')).toBeTruthy();
    expect(isDisabled(create)).toBe(true);

    type(dialog, 'First name', 'Bob');
    type(dialog, 'Last name', 'Brown');
    const email = type(dialog, 'Email', 'BOB@hill.test');
    await waitFor(() => expect(isDisabled(create)).toBe(false));
    fireEvent.click(create);

    expect(
      await within(dialog).findByText('bob@hill.test is already a teacher of this school.'),
    ).toBeTruthy();
    expect(within(dialog).queryByRole('alert')).toBeNull(); // shown on the field, not twice
    expect(email.value).toBe('BOB@hill.test');
    expect((within(dialog).getByLabelText('First name') as HTMLInputElement).value).toBe('Bob');
    const sent = requests.find((request) => request.path === '/api/users/create-teacher');
    expect(JSON.parse(String(sent?.init.body))).toEqual({
      title: null,
      firstName: 'Bob',
      lastName: 'Brown',
      email: 'bob@hill.test',
      subjectIds: [],
      sendInvite: true,
    });
  });

  it('closes, says so and reloads the list after a create', async () => {
    signIn();
    storeCachedQuery(['people', 'teachers'], TEACHERS.slice(0, 1), Date.now());
    routes['/api/users/create-teacher'] = () =>
      json(200, { id: 99, message: 'Invitation sent to new@hill.test.' });
    renderAt('/teachers');
    // The stored copy is replaced by the server's at once (issue 36); the create asks once more.
    await screen.findByText('1–10 of 12');
    expect(calls('/api/users/teachers')).toBe(1);
    queryClient.setQueryData(['home', 'site-index'], { teachersCount: 12 });
    fireEvent.click(await screen.findByRole('button', { name: 'Add teacher' }));
    const dialog = await screen.findByRole('dialog', { name: 'New teacher' });
    type(dialog, 'First name', 'New');
    type(dialog, 'Last name', 'Person');
    type(dialog, 'Email', 'new@hill.test');
    const create = within(dialog).getByRole('button', { name: 'Create' });
    await waitFor(() => expect(isDisabled(create)).toBe(false));
    fireEvent.click(create);
    expect(await screen.findByText('Invitation sent to new@hill.test.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New teacher' })).toBeNull());
    await waitFor(() => expect(calls('/api/users/teachers')).toBe(2));
    // Home's Teachers tile counts them too: it asks again when next shown (issue 36).
    expect(queryClient.getQueryState(['home', 'site-index'])?.isInvalidated).toBe(true);
  });
});

describe('welcome checklist (/welcome)', () => {
  it('ticks the first event from the events the school has: all four steps done (issue 36)', async () => {
    signIn();
    routes['/api/users/students'] = () => json(200, { items: [teacher(40, 'Sam', 'Student')] });
    routes['/api/events/index'] = () =>
      json(200, {
        events: Array.from({ length: 7 }, (_, index) => ({ id: index + 1, name: `Event ${index + 1}` })),
        eventTypes: [],
        message: '',
      });
    renderAt('/welcome');
    expect(await screen.findByText('7 events')).toBeTruthy();
    expect(screen.queryByText('Events are not available yet.')).toBeNull();
    expect(screen.getByText('Your school is set up.')).toBeTruthy();
    const steps = screen.getAllByRole('listitem');
    expect(within(steps[3] as HTMLElement).getByLabelText('Done')).toBeTruthy();
  });
});
