import type { AuditEntry } from '@parley/domain/audit';
import { STORAGE_KEYS } from '@parley/domain/constants';
import type { PersonDetail } from '@parley/domain/people';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client';
import { reloadSession } from '../../lib/session';
import { renderAt } from '../../test-support/render-app';
import {
  adminUser,
  type Handler,
  json,
  type RecordedRequest,
  siteConfig,
  stubFetch,
} from '../../test-support/screen-fixtures';
import { agentLabel, whereLabel } from './audit-logic';

// "Activity" on a person's admin page (issue 11): the real router, page and API client, only fetch faked.

const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

describe('from where an entry came', () => {
  it('names the browser and system of a User-Agent', () => {
    expect(agentLabel(CHROME_LINUX)).toBe('Chrome on Linux');
    expect(agentLabel(SAFARI_IPHONE)).toBe('Safari on iOS');
    expect(
      agentLabel(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36 Edg/131.0',
      ),
    ).toBe('Edge on Windows');
    expect(
      agentLabel('Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0'),
    ).toBe('Firefox on macOS');
    expect(agentLabel(CHROME_LINUX.replace('Chrome/', 'HeadlessChrome/'))).toBe('Headless Chrome on Linux');
    expect(agentLabel('curl/8.5.0')).toBe('curl/8.5.0');
    expect(agentLabel(null)).toBe('Unknown browser');
    expect(whereLabel({ ip: '203.0.113.7', userAgent: CHROME_LINUX })).toBe('203.0.113.7 · Chrome on Linux');
  });
});

function teacher(): PersonDetail & { subjectIds: number[] } {
  return {
    id: 8,
    name: 'Ann Lee',
    firstName: 'Ann',
    lastName: 'Lee',
    title: null,
    email: 'ann@hill.test',
    status: 1,
    statusLabel: 'Active',
    statusIcon: 'check_circle',
    userTypeId: 3,
    invitation: 'accepted',
    roles: ['teacher'],
    subjects: [],
    children: [],
    parents: [],
    studies: [],
    videoConferenceUrl: null,
    subjectIds: [],
  };
}

function entry(id: number, summary: string, at: string, userAgent: string | null): AuditEntry {
  return {
    id,
    at,
    atLabel: `Thu 12 Mar 2026, ${at.slice(11, 16)}`,
    actor: { id: 7, name: 'Ada Lovelace', email: 'ada@hill.test' },
    action: 'person.updated',
    subject: { type: 'person', id: 8, label: 'Ann Lee (ann@hill.test)' },
    eventId: null,
    people: [8],
    detail: {},
    summary,
    ip: '203.0.113.7',
    userAgent,
  };
}

let routes: Record<string, Handler>;
let requests: RecordedRequest[];
let entries: AuditEntry[];
const calls = (path: string) => requests.filter((request) => request.path.startsWith(path)).length;

beforeEach(() => {
  localStorage.clear();
  queryClient.clear();
  localStorage.setItem(STORAGE_KEYS.accessToken, 'tok-1');
  localStorage.setItem(STORAGE_KEYS.currentUser, JSON.stringify(adminUser));
  reloadSession();
  requests = [];
  entries = [
    entry(2, 'Edited Ann Lee (ann@hill.test): first name Anne → Ann', '2026-03-12T10:05:00Z', CHROME_LINUX),
    entry(1, 'Added Ann Lee (ann@hill.test) as teacher', '2026-03-12T09:00:00Z', SAFARI_IPHONE),
  ];
  routes = {
    '/api/site/config': () => json(200, siteConfig),
    '/api/subjects/index': () => json(200, { items: [] }),
    '/api/users/teachers': () => json(200, { items: [] }),
    '/api/users/view-teacher-for-admin': () => json(200, teacher()),
    '/api/audit/person': () => json(200, { items: entries, more: false }),
    '/api/users/update-teacher': () => json(200, { id: 8, message: 'Saved.' }),
    '/api/audit/export': () =>
      new Response('\uFEFFWhen,Who\r\n', {
        status: 200,
        headers: {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': 'attachment; filename="activity-person-8.csv"',
        },
      }),
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

// The first render loads the lazy screens: slow on a busy machine.
describe('the Activity card on a person’s page', { timeout: 15_000 }, () => {
  it('lists when, who, what and from where, newest first, for the person of the page', async () => {
    renderAt('/teachers/view/8');
    const table = await screen.findByRole('table', { name: 'Activity' });
    expect(requests.some((request) => request.path === '/api/audit/person?id=8')).toBe(true);
    const header = within(table)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(header).toEqual(['When', 'Who', 'What', 'From where']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]?.textContent).toContain('Thu 12 Mar 2026, 10:05');
    expect(rows[0]?.textContent).toContain('Ada Lovelace');
    expect(rows[0]?.textContent).toContain('ada@hill.test');
    expect(rows[0]?.textContent).toContain('first name Anne → Ann');
    expect(rows[0]?.textContent).toContain('203.0.113.7');
    expect(rows[0]?.textContent).toContain('Chrome on Linux');
    expect(rows[1]?.textContent).toContain('Added Ann Lee');
    expect(rows[1]?.textContent).toContain('Safari on iOS');
  });

  it('reads the activity again after the page saves a change', async () => {
    renderAt('/teachers/view/8');
    await screen.findByRole('table', { name: 'Activity' });
    const before = calls('/api/audit/person');
    entries = [
      entry(3, 'Edited Ann Lee (ann@hill.test): last name Lee → Leigh', '2026-03-12T11:00:00Z', null),
      ...entries,
    ];
    const last = screen.getByLabelText(/Last name/);
    fireEvent.input(last, { target: { value: 'Leigh' } });
    fireEvent.blur(last);
    const save = screen.getByRole('button', { name: 'Save' });
    await waitFor(() => expect((save as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(save);
    await waitFor(() => expect(calls('/api/users/update-teacher')).toBe(1));
    await waitFor(() => expect(calls('/api/audit/person')).toBeGreaterThan(before));
    const table = screen.getByRole('table', { name: 'Activity' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
    expect(within(table).getAllByRole('row')[1]?.textContent).toContain('last name Lee → Leigh');
  });

  it('"Download CSV" asks for this person’s entries as a file', async () => {
    const createObjectURL = vi.fn(() => 'blob:activity');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    renderAt('/teachers/view/8');
    await screen.findByRole('table', { name: 'Activity' });
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(createObjectURL).toHaveBeenCalled());
    const download = requests.find((request) => request.path.startsWith('/api/audit/export'));
    expect(download?.path).toBe('/api/audit/export?personId=8');
    expect(new Headers(download?.init.headers).get('Authorization')).toBe('Bearer tok-1');
  });

  it('an empty trail says so', async () => {
    entries = [];
    renderAt('/teachers/view/8');
    expect(await screen.findByText('No changes recorded yet.')).toBeTruthy();
  });
});
