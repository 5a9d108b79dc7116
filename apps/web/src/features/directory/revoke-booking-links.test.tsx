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
import { REVOKE_LINKS_TEXT } from './components/revoke-booking-links';

// "Revoke personal links" on a parent's or student's page (issue 11), through the real router, page and
// API client; only fetch is faked.

let routes: Record<string, Handler>;
let requests: RecordedRequest[];

function person(id: number, userTypeId: number): PersonDetail {
  return {
    id,
    name: 'Pat Parent',
    firstName: 'Pat',
    lastName: 'Parent',
    title: null,
    email: 'pat@hill.test',
    status: 1,
    statusLabel: 'Active',
    statusIcon: 'check_circle',
    userTypeId,
    invitation: 'accepted',
    roles: [userTypeId === 3 ? 'teacher' : userTypeId === 4 ? 'parent' : 'student'],
    subjects: [],
    children: [],
    parents: [],
    studies: [],
    videoConferenceUrl: null,
  };
}

const revokeCalls = () => requests.filter((request) => request.path === '/api/users/revoke-booking-links');

beforeEach(() => {
  localStorage.clear();
  queryClient.clear();
  localStorage.setItem(STORAGE_KEYS.accessToken, 'tok-1');
  localStorage.setItem(STORAGE_KEYS.currentUser, JSON.stringify(adminUser));
  reloadSession();
  requests = [];
  routes = {
    '/api/site/config': () => json(200, siteConfig),
    '/api/subjects/index': () => json(200, { items: [] }),
    '/api/users/students': () => json(200, { items: [] }),
    '/api/users/parents': () => json(200, { items: [] }),
    '/api/users/view-parent-for-admin': () => json(200, person(5, 4)),
    '/api/users/view-student-for-admin': () => json(200, person(6, 5)),
    '/api/users/view-teacher-for-admin': () => json(200, { ...person(8, 3), subjectIds: [] }),
    '/api/users/revoke-booking-links': (_url, init) =>
      json(200, {
        id: JSON.parse(String(init.body)).id,
        revoked: 2,
        message: '2 personal booking links revoked.',
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

describe('Revoke personal links', () => {
  it("asks first, then revokes the parent's links and shows the server's message", async () => {
    renderAt('/parents/view/5');
    fireEvent.click(await screen.findByRole('button', { name: REVOKE_LINKS_TEXT.button }));
    const dialog = await screen.findByRole('dialog', { name: REVOKE_LINKS_TEXT.confirmTitle('Pat Parent') });
    expect(revokeCalls()).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: REVOKE_LINKS_TEXT.confirm }));
    expect(await screen.findByText('2 personal booking links revoked.')).toBeTruthy();
    expect(revokeCalls()).toHaveLength(1);
    expect(JSON.parse(String(revokeCalls()[0]?.init.body))).toEqual({ id: 5 });
    expect(revokeCalls()[0]?.init.method).toBe('POST');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('does nothing when the admin cancels', async () => {
    renderAt('/students/view/6');
    fireEvent.click(await screen.findByRole('button', { name: REVOKE_LINKS_TEXT.button }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(revokeCalls()).toHaveLength(0);
  });

  it("shows the server's refusal", async () => {
    routes['/api/users/revoke-booking-links'] = () => json(404, { message: 'Person not found.' });
    renderAt('/parents/view/5');
    fireEvent.click(await screen.findByRole('button', { name: REVOKE_LINKS_TEXT.button }));
    fireEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: REVOKE_LINKS_TEXT.confirm }),
    );
    expect(await screen.findByText('Person not found.')).toBeTruthy();
  });

  it('is not offered on a teacher’s page: teachers get no personal links', async () => {
    renderAt('/teachers/view/8');
    await screen.findAllByText('Pat Parent');
    expect(screen.queryByRole('button', { name: REVOKE_LINKS_TEXT.button })).toBeNull();
    expect(screen.queryByText(REVOKE_LINKS_TEXT.title)).toBeNull();
  });
});
