import { STORAGE_KEYS } from '@parley/domain/constants';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-client';
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
import { ticket } from './test-fixtures';
import { linkView } from './ticket-link-logic';

// /t/{code}, the address in a ticket's QR (issue 10), through the real router, guard and API client.

const CODE = 'AbCdEfGhIjKlMnOpQrStUv';
let routes: Record<string, Handler>;
let requests: RecordedRequest[];

const scannedTicket = ticket({
  scanned: true,
  scannedDate: '2026-07-03T18:05:00.000Z',
  scannedBy: 7,
  scannedByName: 'Ada Lovelace',
});
const withCode = () => requests.filter((request) => request.path.includes(CODE));

function signIn() {
  localStorage.setItem(STORAGE_KEYS.accessToken, 'tok-1');
  localStorage.setItem(STORAGE_KEYS.currentUser, JSON.stringify(adminUser));
  reloadSession();
}

beforeEach(() => {
  localStorage.clear();
  reloadSession();
  queryClient.clear();
  requests = [];
  routes = {
    '/api/site/config': () => json(200, siteConfig),
    '/api/users/data': () => json(200, { data: adminUser }),
    '/api/tickets/validate-ticket': () =>
      json(200, { data: { valid: true, message: 'Valid ticket.', ticket: ticket() } }),
    '/api/tickets/scan-ticket': () =>
      json(200, {
        data: {
          success: true,
          message: 'Ticket Scanned Successfully!',
          alreadyScanned: false,
          ticket: scannedTicket,
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
  vi.restoreAllMocks();
  localStorage.clear();
  reloadSession();
});

describe('/t/{code} for anyone', () => {
  it('opens without a login: a ticket to show at the door, its QR again, and a way in for the staff', async () => {
    const router = renderAt(`/t/${CODE}`);
    expect(await screen.findByRole('heading', { name: 'Parley ticket' })).toBeTruthy();
    expect(router.state.location.pathname).toBe(`/t/${CODE}`); // not sent to login
    expect(screen.getByText(/Show it at the door: the staff scan its QR code\./)).toBeTruthy();
    const qr = screen.getByRole('img', { name: 'QR code of this ticket' });
    expect(qr.getAttribute('data-qr-text')).toBe(`${window.location.origin}/t/${CODE}`);
    const login = screen.getByRole('link', { name: 'Log in to check' });
    expect(login.getAttribute('href')).toBe(`/auth/login?returnTo=${encodeURIComponent(`/t/${CODE}`)}`);
    // The code goes nowhere: no request carries it.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(withCode()).toEqual([]);
  });

  it('a signed-in person who does not scan this event (403) sees the same page', async () => {
    routes['/api/tickets/validate-ticket'] = () =>
      json(403, { message: 'You are not allowed to scan tickets for this event.' });
    signIn();
    renderAt(`/t/${CODE}`);
    expect(await screen.findByRole('heading', { name: 'Parley ticket' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'QR code of this ticket' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Log in to check' })).toBeNull();
  });
});

describe('/t/{code} for an admin or scanner', () => {
  beforeEach(signIn);

  it('validates the code for its own event and admits it once with a nonce', async () => {
    renderAt(`/t/${CODE}`);
    const admit = await screen.findByRole('button', { name: 'Admit' });
    expect(screen.getByText('Valid ticket.')).toBeTruthy();
    expect(screen.getByText('Jane Smith')).toBeTruthy();
    expect(screen.getByText('jane@hill.test')).toBeTruthy();
    expect(screen.getByText('Summer concert')).toBeTruthy();
    expect(withCode().map((request) => request.path)).toEqual([
      `/api/tickets/validate-ticket?ticketId=${CODE}`,
    ]);
    fireEvent.click(admit);
    expect(await screen.findByText('Ticket Scanned Successfully!')).toBeTruthy();
    expect(await screen.findByText('Ticket scanned successfully for Jane Smith')).toBeTruthy();
    const scans = requests.filter((request) => request.path === '/api/tickets/scan-ticket');
    expect(scans).toHaveLength(1);
    const body = JSON.parse(String(scans[0]?.init.body)) as Record<string, unknown>;
    expect(body).toMatchObject({ ticketId: CODE, eventId: 9, scannedBy: 7 });
    expect(body.clientNonce).toMatch(/^[0-9a-f]{32}$/);
  });

  it('already scanned → "Already Scanned" with when and by whom, and no Admit', async () => {
    routes['/api/tickets/validate-ticket'] = () =>
      json(200, {
        data: { valid: true, message: 'Already scanned 3 Jul 18:05 by Ada Lovelace.', ticket: scannedTicket },
      });
    renderAt(`/t/${CODE}`);
    expect(await screen.findByText('Already Scanned')).toBeTruthy();
    expect(screen.getByText('This ticket has already been scanned.')).toBeTruthy();
    expect(screen.getByText('Already scanned 3 Jul 18:05 by Ada Lovelace.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Admit' })).toBeNull();
  });

  it('not a ticket → "Invalid Ticket" with the server message', async () => {
    routes['/api/tickets/validate-ticket'] = () =>
      json(200, { data: { valid: false, message: 'This code is not a ticket of this school.' } });
    renderAt(`/t/${CODE}`);
    expect(await screen.findByText('Invalid Ticket')).toBeTruthy();
    expect(screen.getByText('This code is not a ticket of this school.')).toBeTruthy();
  });

  it('no answer → "Error" and "Try Again", which asks again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    routes['/api/tickets/validate-ticket'] = () => Promise.reject(new TypeError('Failed to fetch'));
    renderAt(`/t/${CODE}`);
    expect(await screen.findByText('Error')).toBeTruthy();
    expect(screen.getByText('Failed to scan ticket. Please try again.')).toBeTruthy();
    routes['/api/tickets/validate-ticket'] = () =>
      json(200, { data: { valid: true, message: 'Valid ticket.', ticket: ticket() } });
    fireEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('button', { name: 'Admit' })).toBeTruthy();
  });

  it('a scan the server lost to another door → "Already Scanned"', async () => {
    routes['/api/tickets/scan-ticket'] = () =>
      json(200, {
        data: {
          success: false,
          message: 'Already scanned 3 Jul 18:05 by Ben Fox.',
          alreadyScanned: true,
          ticket: scannedTicket,
        },
      });
    renderAt(`/t/${CODE}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Admit' }));
    expect(await screen.findByText('Already Scanned')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Admit' })).toBeNull());
  });
});

describe('what the page shows (pure)', () => {
  it('signed out: the page for anyone, whatever else is known', () => {
    expect(linkView({ signedIn: false, data: undefined, error: null })).toEqual({ kind: 'public' });
  });

  it('401, 403 and 404 mean "not yours to check"; other failures are the spec’s "Error"', () => {
    for (const status of [401, 403, 404])
      expect(linkView({ signedIn: true, data: undefined, error: new ApiError(status, 'x') })).toEqual({
        kind: 'public',
      });
    const failed = linkView({ signedIn: true, data: undefined, error: new ApiError(0, 'No response') });
    expect(failed.kind === 'result' && failed.panel.title).toBe('Error');
  });

  it('waiting, then Admit for a valid unscanned ticket', () => {
    expect(linkView({ signedIn: true, data: undefined, error: null })).toEqual({ kind: 'checking' });
    expect(
      linkView({
        signedIn: true,
        data: { valid: true, message: 'Valid ticket.', ticket: ticket() },
        error: null,
      }),
    ).toEqual({ kind: 'admit', ticket: ticket(), message: 'Valid ticket.' });
  });
});
