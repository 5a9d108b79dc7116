import { STORAGE_KEYS } from '@parley/domain/constants';
import type { DoorState } from '@parley/domain/tickets';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
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
import { eventDetail, graduation } from '../events/event-fixtures';
import { doorTicket } from './test-fixtures';
import { resetOfflineDoors } from './use-offline-door';

// The door page /events/door/{id} (issue 10) and its way in from the event page, through the real router,
// guard, providers and API client; only fetch is faked.

let routes: Record<string, Handler>;
let requests: RecordedRequest[];

const admitted = doorTicket({
  id: 502,
  userName: 'Tom Reed',
  scanned: true,
  scannedDate: '2026-07-03T18:05:00.000Z',
  scannedByName: 'Ada Lovelace',
});
const waiting = doorTicket({ id: 501, userName: 'Jane Smith' });

function door(over: Partial<DoorState> = {}): DoorState {
  return {
    eventId: 9,
    eventName: 'Summer concert',
    timeZone: 'Europe/London',
    expected: 120,
    admitted: 45,
    toCome: 75,
    guestsExpected: 30,
    guestsAdmitted: 12,
    recent: [admitted],
    matches: [],
    duplicates: [],
    ...over,
  };
}

const posted = (path: string) =>
  requests
    .filter((request) => request.path === path && request.init.method === 'POST')
    .map((request) => JSON.parse(String(request.init.body)) as Record<string, unknown>);
const doorCalls = () => requests.filter((request) => request.path.startsWith('/api/tickets/door?'));

function signIn(user = adminUser) {
  localStorage.setItem(STORAGE_KEYS.accessToken, 'tok-1');
  localStorage.setItem(STORAGE_KEYS.currentUser, JSON.stringify(user));
  reloadSession();
}

const figure = (label: string) => screen.getByLabelText(new RegExp(`^${label}: `)).textContent;

beforeEach(() => {
  localStorage.clear();
  queryClient.clear();
  requests = [];
  routes = {
    '/api/site/config': () => json(200, siteConfig),
    '/api/tickets/door': (url) =>
      json(200, url.searchParams.get('q') ? door({ matches: [waiting, admitted] }) : door()),
  };
  stubFetch(
    (path) => routes[path],
    () => requests,
  );
  signIn();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  Reflect.deleteProperty(navigator, 'onLine');
  resetOfflineDoors();
  localStorage.clear();
  reloadSession();
});

describe('door page: the count', () => {
  it('shows expected, admitted and still to come (guests included) and the latest admissions', async () => {
    renderAt('/events/door/9');
    expect(await screen.findByRole('heading', { name: 'Door: Summer concert' })).toBeTruthy();
    expect(figure('Expected')).toBe('120');
    expect(figure('Admitted')).toBe('45');
    expect(figure('Still to come')).toBe('75');
    expect(screen.getByText('Guests: 12 of 30 admitted')).toBeTruthy();
    const recent = screen.getByRole('list', { name: 'Latest admissions' });
    expect(within(recent).getByText('Tom Reed')).toBeTruthy();
    expect(within(recent).getByText(`Fri 3 Jul 2026, 19:05 · Ada Lovelace`)).toBeTruthy();
    expect(doorCalls()[0]?.path).toBe('/api/tickets/door?eventId=9');
    expect(screen.getByRole('link', { name: 'Back to the event' }).getAttribute('href')).toBe(
      '/events/view/9',
    );
  });

  it('shows this phone’s offline scans: offline and how many wait, then what their sync came to', async () => {
    let online = true;
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
    const scan = (code: string, nonce: string, userName: string) => ({
      ticketId: code,
      clientNonce: nonce,
      scannedAt: '2026-07-03T18:20:00.000Z',
      hash: `hash-${code}`,
      userName,
    });
    const release: { sync?: () => void } = {};
    routes['/api/tickets/sync-scans'] = (_url, init) =>
      new Promise((resolve) => {
        const body = JSON.parse(String(init.body)) as {
          scans: Array<{ ticketId: string; clientNonce: string }>;
        };
        release.sync = () =>
          resolve(
            json(200, {
              data: {
                results: body.scans.map((item, index) => ({
                  ...item,
                  outcome: index === 0 ? 'admitted' : 'duplicate',
                  message:
                    index === 0 ? 'Ticket Scanned Successfully!' : 'Already scanned 18:05 by Ada Lovelace.',
                })),
              },
            }),
          );
      });
    online = false;
    localStorage.setItem(
      'parley.door.7.9',
      JSON.stringify({
        list: null,
        queue: [scan('CodeA', 'nonce-000a', 'Jane Smith'), scan('CodeB', 'nonce-000b', 'Tom Reed')],
      }),
    );
    renderAt('/events/door/9');
    expect(await screen.findByText('Offline — 2 scans waiting')).toBeTruthy();
    online = true;
    window.dispatchEvent(new Event('online'));
    expect(await screen.findByText('Sending 2 offline scans…')).toBeTruthy();
    await waitFor(() => expect(release.sync).toBeDefined());
    release.sync?.();
    expect(await screen.findByText('2 offline scans sent: 1 admitted.')).toBeTruthy();
    expect(
      screen.getByText(
        'Tom Reed: another door admitted this ticket first. Already scanned 18:05 by Ada Lovelace.',
      ),
    ).toBeTruthy();
    expect(posted('/api/tickets/sync-scans')[0]).toMatchObject({
      eventId: 9,
      scans: [
        { ticketId: 'CodeA', clientNonce: 'nonce-000a', scannedAt: '2026-07-03T18:20:00.000Z' },
        { ticketId: 'CodeB', clientNonce: 'nonce-000b', scannedAt: '2026-07-03T18:20:00.000Z' },
      ],
    });
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByText(/offline scans sent/)).toBeNull());
  });

  it('polls every 3 s', async () => {
    renderAt('/events/door/9');
    await screen.findByRole('heading', { name: 'Door: Summer concert' });
    routes['/api/tickets/door'] = () => json(200, door({ admitted: 46, toCome: 74 }));
    await waitFor(() => expect(figure('Admitted')).toBe('46'), { timeout: 4500 });
    expect(figure('Still to come')).toBe('74');
  });

  it('lists the tickets an offline door admitted a second time', async () => {
    routes['/api/tickets/door'] = () =>
      json(
        200,
        door({
          duplicates: [
            {
              ticket: admitted,
              deviceId: 'phone-2',
              byName: 'Ben Fox',
              scannedAt: '2026-07-03T18:20:00.000Z',
              receivedAt: '2026-07-03T18:40:00.000Z',
            },
          ],
        }),
      );
    renderAt('/events/door/9');
    const list = await screen.findByRole('list', { name: 'Admitted twice' });
    expect(within(list).getByText('Tom Reed')).toBeTruthy();
    const again = 'Fri 3 Jul 2026, 19:20';
    const first = 'Fri 3 Jul 2026, 19:05';
    expect(within(list).getByText(`Again ${again} by Ben Fox · first ${first}`)).toBeTruthy();
  });

  it('a refusal shows the server’s message', async () => {
    routes['/api/tickets/door'] = () =>
      json(403, { message: 'You are not allowed to scan tickets for this event.' });
    renderAt('/events/door/9');
    expect(await screen.findByText('You are not allowed to scan tickets for this event.')).toBeTruthy();
  });

  it('stops polling after a refusal (403, 404) and keeps polling an answer (issue 36)', async () => {
    // Only the intervals are faked: the 3 s poll moves by the test's clock, requests and renders as usual.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const callsIn20s = async (status: number) => {
        cleanup();
        queryClient.clear();
        requests.length = 0;
        routes['/api/tickets/door'] = () =>
          status === 200 ? json(200, door()) : json(status, { message: 'Refused here.' });
        renderAt('/events/door/9');
        await screen.findByText(status === 200 ? 'Door: Summer concert' : 'Refused here.');
        for (let second = 0; second < 20; second++)
          await act(async () => {
            await vi.advanceTimersByTimeAsync(1000);
          });
        return doorCalls().length;
      };
      expect(await callsIn20s(200)).toBeGreaterThanOrEqual(6);
      expect(await callsIn20s(403)).toBe(1);
      expect(await callsIn20s(404)).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('"Scan Tickets" on a desktop opens "Mobile Device Required"', async () => {
    renderAt('/events/door/9');
    fireEvent.click(await screen.findByRole('button', { name: 'Scan Tickets' }));
    const dialog = await screen.findByRole('dialog', { name: 'Mobile Device Required' });
    expect(within(dialog).getByText(/needs a phone or tablet with a camera/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Mobile Device Required' })).toBeNull());
  });
});

describe('door page: manual check-in', () => {
  async function search(text: string) {
    renderAt('/events/door/9');
    await screen.findByRole('heading', { name: 'Door: Summer concert' });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Name' }), { target: { value: text } });
    return screen.findByRole('list', { name: 'Matching tickets' });
  }

  it('searches by name from 2 characters', async () => {
    renderAt('/events/door/9');
    await screen.findByRole('heading', { name: 'Door: Summer concert' });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Name' }), { target: { value: 'j' } });
    expect(await screen.findByText('Type at least 2 characters.')).toBeTruthy();
    routes['/api/tickets/door'] = (url) =>
      json(200, url.searchParams.get('q') ? door({ matches: [] }) : door());
    fireEvent.change(screen.getByRole('searchbox', { name: 'Name' }), { target: { value: ' ja ' } });
    expect(await screen.findByText('No ticket matches.')).toBeTruthy();
    expect(doorCalls().some((request) => request.path === '/api/tickets/door?eventId=9&q=ja')).toBe(true);
  });

  it('"Admit" checks the ticket in by its id (tickets/check-in) and shows the scan result texts', async () => {
    routes['/api/tickets/check-in'] = () =>
      json(200, {
        data: {
          success: true,
          message: 'Admitted.',
          alreadyScanned: false,
          ticket: { ...waiting, scanned: true },
        },
      });
    const list = await search('Jane');
    const row = within(list).getByRole('listitem', { name: 'Jane Smith' });
    expect(
      within(within(list).getByRole('listitem', { name: 'Tom Reed' })).queryByRole('button', {
        name: 'Admit',
      }),
    ).toBeNull();
    fireEvent.click(within(row).getByRole('button', { name: 'Admit' }));
    expect(await screen.findByText('Ticket Scanned Successfully!')).toBeTruthy();
    expect(await screen.findByText('Ticket scanned successfully for Jane Smith')).toBeTruthy();
    const [body] = posted('/api/tickets/check-in');
    expect(body).toMatchObject({ id: 501, eventId: 9 });
    expect(body).not.toHaveProperty('ticketId');
    expect(String(body?.clientNonce)).toMatch(/^[0-9a-f]{32}$/);
    expect(posted('/api/tickets/scan-ticket')).toEqual([]);
  });

  it('"Admit" for a ticket someone else just scanned → "Already Scanned"', async () => {
    routes['/api/tickets/check-in'] = () =>
      json(200, { data: { success: false, message: 'Already scanned by Ben.', alreadyScanned: true } });
    const list = await search('Jane');
    fireEvent.click(
      within(within(list).getByRole('listitem', { name: 'Jane Smith' })).getByRole('button', {
        name: 'Admit',
      }),
    );
    expect(await screen.findByText('Already Scanned')).toBeTruthy();
    expect(screen.getByText(/This ticket has already been scanned\./)).toBeTruthy();
  });

  it('an admin can undo an admission after confirming', async () => {
    routes['/api/tickets/undo-scan'] = () =>
      json(200, {
        data: {
          success: true,
          message: 'The scan was undone: the ticket can be scanned again.',
          alreadyScanned: false,
          ticket: { ...admitted, scanned: false, scannedDate: null },
        },
      });
    const list = await search('Tom');
    fireEvent.click(
      within(within(list).getByRole('listitem', { name: 'Tom Reed' })).getByRole('button', { name: 'Undo' }),
    );
    const confirm = await screen.findByRole('dialog', { name: 'Undo the scan of Tom Reed?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText('The scan was undone: the ticket can be scanned again.')).toBeTruthy();
    expect(posted('/api/tickets/undo-scan')).toEqual([{ id: 502 }]);
  });

  it('a scanner who is not an admin gets no Undo', async () => {
    signIn({ ...adminUser, id: 21, role: 'teacher', roles: ['teacher'], isAdmin: false, iAmAdmin: false });
    const list = await search('Tom');
    expect(within(list).queryByRole('button', { name: 'Undo' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Back to the event' })).toBeNull();
  });
});

describe('event page: the way to the door', () => {
  beforeEach(() => {
    routes['/api/users/parents'] = () => json(200, { items: [], total: 0, page: 1, pageSize: 25 });
    routes['/api/users/students'] = () => json(200, { items: [], total: 0, page: 1, pageSize: 25 });
  });

  it('a ticketed event links to its door page; a parent-teacher evening does not', async () => {
    routes['/api/events/view'] = () => json(200, { event: graduation(), eventTypes: [] });
    renderAt('/events/view/6');
    // The first visit loads the whole event page (its lazy chunk): allow for a busy machine.
    const link = await screen.findByRole('link', { name: 'Open the door page' }, { timeout: 15_000 });
    expect(link.getAttribute('href')).toBe('/events/door/6');
    cleanup();
    queryClient.clear();
    routes['/api/events/view'] = () => json(200, { event: eventDetail(), eventTypes: [] });
    renderAt('/events/view/5');
    await screen.findByRole('heading', { name: eventDetail().name });
    expect(screen.queryByRole('link', { name: 'Open the door page' })).toBeNull();
  });
});

describe('door page: outside the window', () => {
  it('a manual check-in refused for the window shows when scanning opens', async () => {
    const opens = 'Scanning for this event opens Thu 2 Jul 2026, 18:00.';
    routes['/api/tickets/door'] = (url) =>
      json(200, url.searchParams.get('q') ? door({ matches: [waiting] }) : door());
    routes['/api/tickets/check-in'] = () =>
      json(200, { data: { success: false, message: opens, alreadyScanned: false } });
    renderAt('/events/door/9');
    await screen.findByRole('heading', { name: 'Door: Summer concert' });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Name' }), { target: { value: 'Jane' } });
    const list = await screen.findByRole('list', { name: 'Matching tickets' });
    fireEvent.click(
      within(within(list).getByRole('listitem', { name: 'Jane Smith' })).getByRole('button', {
        name: 'Admit',
      }),
    );
    expect(await screen.findByText('Scan Failed')).toBeTruthy();
    expect(screen.getByText(new RegExp(opens.replace(/[.,]/g, '.')))).toBeTruthy();
  });
});
