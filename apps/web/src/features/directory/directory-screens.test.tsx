import { STORAGE_KEYS } from '@parley/domain/constants';
import type { DirectoryItem } from '@parley/domain/people';
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
import { FIRST_PEOPLE_PAGE } from './api';

// The directory screens through the real router, guard, providers and API client; only fetch is faked.

const admin = adminUser;

function teacher(id: number, firstName: string, lastName: string): DirectoryItem {
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
    related: ['Maths'],
  };
}

/** users/{kind} as the server answers: searched, sorted (by last name, or email), a page (decision 035). */
function directory(people: DirectoryItem[]): Handler {
  return (url) => {
    const param = (name: string, fallback: string) => url.searchParams.get(name) ?? fallback;
    const q = param('q', '').toLowerCase();
    const page = Number(param('page', '1'));
    const pageSize = Number(param('pageSize', '10'));
    const key = (person: DirectoryItem) =>
      param('sort', 'name') === 'email' ? person.email : `${person.lastName} ${person.firstName}`;
    const found = people
      .filter((person) => `${person.name} ${person.email}`.toLowerCase().includes(q))
      .sort((a, b) => key(a).localeCompare(key(b)) * (param('dir', 'asc') === 'desc' ? -1 : 1));
    return json(200, {
      items: found.slice((page - 1) * pageSize, page * pageSize),
      total: found.length,
      page,
      pageSize,
    });
  };
}

/** The first page of a list as the device keeps it: its items, and how many there are in all. */
const FIRST_PAGE_KEY = ['people', 'teachers', FIRST_PEOPLE_PAGE];
const storedPage = (items: DirectoryItem[], total: number) => ({ items, total, page: 1, pageSize: 10 });

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

const calls = (path: string) => requests.filter((request) => request.path.split('?')[0] === path).length;
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
    '/api/users/teachers': directory(TEACHERS),
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
  it('shows the stored page at once, 10 by last name, and asks the server for its own', async () => {
    signIn();
    storeCachedQuery(FIRST_PAGE_KEY, storedPage(TEACHERS.slice(0, 10), 12), Date.now() - 60_000);
    routes['/api/users/teachers'] = directory([...TEACHERS, teacher(13, 'Al', 'Aaron')]);
    renderAt('/teachers');
    const table = await screen.findByRole('table', { name: 'Teachers' });
    expect(within(table).getAllByRole('row').slice(1)).toHaveLength(10);
    expect(screen.getByText('1–10 of 12')).toBeTruthy();
    // Issue 36: the stored copy is a first paint; the server's answer replaces it.
    expect(await screen.findByText('1–10 of 13')).toBeTruthy();
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]?.textContent).toContain('Al Aaron');
    expect(rows[1]?.textContent).toContain('Zoe Adams');
    expect(within(rows[1] as HTMLElement).getByText('Maths')).toBeTruthy();
    expect(calls('/api/users/teachers')).toBe(1);

    // The search is the server's, asked once typing pauses.
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'zoe' } });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
    expect(within(table).getAllByRole('row')[1]?.textContent).toContain('Zoe Adams');
    expect(requests.at(-1)?.path).toBe('/api/users/teachers?q=zoe&page=1&pageSize=10&sort=name&dir=asc');
  });

  it('asks the server for the next page, another size and another sort; no "All" for a list it pages', async () => {
    signIn();
    renderAt('/teachers');
    const table = await screen.findByRole('table', { name: 'Teachers' });
    await screen.findByText('1–10 of 12');
    fireEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
    await screen.findByText('11–12 of 12');
    await waitFor(() => expect(within(table).getAllByRole('row')[1]?.textContent).toContain('Kim Kent'));
    expect(requests.at(-1)?.path).toContain('page=2');

    fireEvent.click(within(table).getByRole('button', { name: 'Email' }));
    await waitFor(() => expect(within(table).getAllByRole('row')[1]?.textContent).toContain('Amy Zhu'));
    expect(requests.at(-1)?.path).toBe('/api/users/teachers?q=&page=1&pageSize=10&sort=email&dir=asc');
    fireEvent.click(within(table).getByRole('button', { name: 'Name' }));
    fireEvent.click(within(table).getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(requests.at(-1)?.path).toContain('sort=name&dir=desc'));
    await waitFor(() => expect(within(table).getAllByRole('row')[2]?.textContent).toContain('Kim Kent'));
    expect(within(table).getAllByRole('row')[1]?.textContent).toContain('Amy Zhu');

    fireEvent.mouseDown(screen.getByRole('combobox', { name: /Rows per page/ }));
    const sizes = within(await screen.findByRole('listbox')).getAllByRole('option');
    expect(sizes.map((option) => option.textContent)).toEqual(['10', '25', '50', '100']);
  });

  it('keeps the page shown while the next loads, with a bar that says so', async () => {
    signIn();
    renderAt('/teachers');
    const table = await screen.findByRole('table', { name: 'Teachers' });
    await screen.findByText('1–10 of 12');
    // The server answers the next page only when the test lets it.
    let release = () => {};
    const answer = directory(TEACHERS);
    routes['/api/users/teachers'] = (url, init) =>
      new Promise<void>((resolve) => {
        release = resolve;
      }).then(() => answer(url, init));
    fireEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
    expect(await screen.findByRole('progressbar', { name: 'Refreshing' })).toBeTruthy();
    expect(within(table).getAllByRole('row')[1]?.textContent).toContain('Zoe Adams');
    release();
    await waitFor(() => expect(within(table).getAllByRole('row')[1]?.textContent).toContain('Kim Kent'));
    await waitFor(() => expect(screen.queryByRole('progressbar', { name: 'Refreshing' })).toBeNull());
  });

  it('refetches when forced by the refresh button, and stores the fresh page', async () => {
    signIn();
    storeCachedQuery(FIRST_PAGE_KEY, storedPage(TEACHERS.slice(0, 2), 2), Date.now());
    renderAt('/teachers');
    await screen.findByText('1–2 of 2');
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await screen.findByText('1–10 of 12');
    expect(calls('/api/users/teachers')).toBe(1);
    expect(queryClient.getQueryData<{ items: unknown[] }>(FIRST_PAGE_KEY)?.items).toHaveLength(10);
    // ...and keeps it on the device (the persister writes at most once a second).
    await waitFor(() => expect(localStorage.getItem(STORAGE_KEYS.queryCache)).toContain('Jon Judd'), {
      timeout: 3000,
    });
  });

  it('fetches an old cached page (over 4 hours)', async () => {
    signIn();
    storeCachedQuery(FIRST_PAGE_KEY, storedPage(TEACHERS.slice(0, 2), 2), Date.now() - 14_400_001);
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

describe('add parent dialog: children found by the server (decision 035)', () => {
  it('asks for the students whose name holds what is typed, and sends the ones chosen', async () => {
    signIn();
    routes['/api/users/parents'] = directory([]);
    routes['/api/users/students'] = directory([
      teacher(40, 'Kit', 'Moss'),
      teacher(41, 'Ada', 'Moss'),
      teacher(42, 'Sam', 'Field'),
    ]);
    routes['/api/users/create-parent'] = () => json(200, { id: 99, message: 'Parent created.' });
    renderAt('/parents');
    fireEvent.click(await screen.findByRole('button', { name: 'Add parent' }));
    const dialog = await screen.findByRole('dialog', { name: 'New parent' });
    const children = within(dialog).getByRole('combobox', { name: 'Children' });
    children.focus(); // as a person typing: the picker keeps the text of a focused field
    fireEvent.change(children, { target: { value: 'moss' } });
    await waitFor(() =>
      expect(requests.map((request) => request.path)).toContain('/api/users/students?q=moss&pageSize=25'),
    );
    expect(await screen.findByRole('option', { name: /Kit Moss/ })).toBeTruthy();
    expect(screen.queryByRole('option', { name: /Sam Field/ })).toBeNull();
    fireEvent.click(screen.getByRole('option', { name: /Ada Moss/ }));
    // The chosen child keeps their name whatever is searched next.
    fireEvent.change(children, { target: { value: 'field' } });
    await screen.findByRole('option', { name: /Sam Field/ });
    expect(within(dialog).getByRole('button', { name: 'Ada Moss' })).toBeTruthy();

    type(dialog, 'First name', 'Mia');
    type(dialog, 'Last name', 'Moss');
    type(dialog, 'Email', 'mia@hill.test');
    const create = within(dialog).getByRole('button', { name: 'Create' });
    await waitFor(() => expect(isDisabled(create)).toBe(false));
    fireEvent.click(create);
    await waitFor(() => expect(calls('/api/users/create-parent')).toBe(1));
    const sent = requests.find((request) => request.path === '/api/users/create-parent');
    expect(JSON.parse(String(sent?.init.body))).toMatchObject({ studentIds: [41] });
  });
});

describe('welcome checklist (/welcome)', () => {
  it('ticks the first event from the events the school has: all four steps done (issue 36)', async () => {
    signIn();
    routes['/api/users/students'] = directory([teacher(40, 'Sam', 'Student')]);
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
