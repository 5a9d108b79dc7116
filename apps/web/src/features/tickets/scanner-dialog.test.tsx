import { createHash } from 'node:crypto';
import { STORAGE_KEYS } from '@parley/domain/constants';
import { OFFLINE_LIST_TTL_MS, type OfflineList, type Ticket } from '@parley/domain/tickets';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, type Mock, vi } from 'vitest';
import { AppProviders } from '../../app/providers';
import { queryClient } from '../../lib/query-client';
import { reloadSession } from '../../lib/session';
import {
  adminUser,
  type Handler,
  json,
  type RecordedRequest,
  stubFetch,
} from '../../test-support/screen-fixtures';
import { ScannerDialog } from './components/scanner-dialog';
import { ticket } from './test-fixtures';
import { resetOfflineDoors } from './use-offline-door';

// "Scan Ticket" (spec §2, §4, §5, §8) in jsdom: getUserMedia and BarcodeDetector are stubbed, the API
// client is real and only fetch is faked. The real camera is exercised in Chromium.

const CODE = 'AbCdEfGhIjKlMnOpQrStUv';
let routes: Record<string, Handler>;
let requests: RecordedRequest[];
let decoded: string | null;
let detect: Mock<() => Promise<Array<{ rawValue: string }>>>;
let stop: Mock<() => void>;
let getUserMedia: Mock<(constraints: MediaStreamConstraints) => Promise<MediaStream>>;
let online: boolean;

const hashOf = (code: string) => createHash('sha256').update(code).digest('base64url');
const offlineList = (): OfflineList => ({
  eventId: 9,
  eventName: 'Summer concert',
  issuedAt: new Date().toISOString(),
  validUntil: new Date(Date.now() + OFFLINE_LIST_TTL_MS).toISOString(),
  timeZone: 'Europe/London',
  // The door's window: open a day either side of now.
  opensAt: new Date(Date.now() - 86_400_000).toISOString(),
  closesAt: new Date(Date.now() + 86_400_000).toISOString(),
  tickets: [
    { hash: hashOf(CODE), userName: 'Jane Smith', guestIndex: 0, scanned: false },
    {
      hash: hashOf('GuestCodeOfJaneSmith01'),
      userName: 'Guest 1 of Jane Smith',
      guestIndex: 1,
      scanned: false,
    },
  ],
});
const goOnline = (value: boolean) => {
  online = value;
  window.dispatchEvent(new Event(value ? 'online' : 'offline'));
};
const synced = () =>
  calls('/api/tickets/sync-scans').map(
    (request) =>
      JSON.parse(String(request.init.body)) as {
        eventId: number;
        deviceId: string;
        scans: Array<{ ticketId: string; clientNonce: string; scannedAt: string }>;
      },
  );

const named = (name: string) => Object.assign(new Error(name), { name });
const calls = (path: string) => requests.filter((request) => request.path.startsWith(path));
const dialog = () => screen.getByRole('dialog', { name: 'Scan Ticket' });

function Harness({ onScanned }: { onScanned?: (ticket: Ticket) => void }) {
  const [open, setOpen] = useState(true);
  return (
    <AppProviders>
      <ScannerDialog
        open={open}
        eventId={9}
        onClose={() => setOpen(false)}
        {...(onScanned ? { onScanned } : {})}
      />
    </AppProviders>
  );
}

const scannedTicket = ticket({
  scanned: true,
  scannedDate: '2026-07-03T18:05:00.000Z',
  scannedByName: 'Ada Lovelace',
});

beforeEach(() => {
  queryClient.clear();
  localStorage.setItem(STORAGE_KEYS.accessToken, 'tok-1');
  localStorage.setItem(STORAGE_KEYS.currentUser, JSON.stringify(adminUser));
  reloadSession();
  requests = [];
  decoded = `http://localhost:3000/t/${CODE}`;
  online = true;
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
  routes = {
    '/api/tickets/offline-list': () => json(200, offlineList()),
    '/api/tickets/sync-scans': (_url, init) => {
      const body = JSON.parse(String(init.body)) as {
        scans: Array<{ ticketId: string; clientNonce: string }>;
      };
      return json(200, {
        data: {
          results: body.scans.map((scan) => ({
            ...scan,
            outcome: 'admitted',
            message: 'Ticket Scanned Successfully!',
          })),
        },
      });
    },
    '/api/tickets/validate-ticket': () =>
      json(200, { data: { valid: true, message: 'Valid ticket.', ticket: ticket() } }),
    '/api/tickets/scan-ticket': () =>
      json(200, {
        data: { success: true, message: 'Admitted.', alreadyScanned: false, ticket: scannedTicket },
      }),
  };
  stubFetch(
    (path) => routes[path],
    () => requests,
  );
  stop = vi.fn();
  getUserMedia = vi.fn(async () => ({ getTracks: () => [{ stop }] }) as unknown as MediaStream);
  Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { getUserMedia } });
  detect = vi.fn(async () => (decoded === null ? [] : [{ rawValue: decoded }]));
  vi.stubGlobal(
    'BarcodeDetector',
    class {
      static getSupportedFormats = async () => ['qr_code'];
      detect = detect;
    },
  );
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  Object.defineProperty(HTMLMediaElement.prototype, 'readyState', { configurable: true, get: () => 4 });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  Reflect.deleteProperty(navigator, 'mediaDevices');
  Reflect.deleteProperty(navigator, 'onLine');
  Reflect.deleteProperty(HTMLMediaElement.prototype, 'readyState');
  resetOfflineDoors();
  localStorage.clear();
  reloadSession();
});

describe('Scan Ticket: the camera (spec §2, §8, §9)', () => {
  it('says "Starting camera...", asks for the rear camera, then shows the live view and its overlay', async () => {
    decoded = null;
    render(<Harness />);
    expect(within(dialog()).getByText('Starting camera...')).toBeTruthy();
    expect(await within(dialog()).findByText('Position QR code within the frame')).toBeTruthy();
    expect(getUserMedia).toHaveBeenCalledWith({
      audio: false,
      video: {
        facingMode: 'environment',
        width: { ideal: 1280, min: 640 },
        height: { ideal: 720, min: 480 },
      },
    });
    await waitFor(() => expect(detect).toHaveBeenCalled());
    // Nothing decoded, nothing validated; the event's list is taken for offline use (decision 013).
    expect(calls('/api/tickets/validate-ticket')).toHaveLength(0);
    expect(calls('/api/tickets/offline-list').map((request) => request.path)).toEqual([
      '/api/tickets/offline-list?eventId=9',
    ]);
    expect(
      await within(dialog()).findByText(/^Ready offline: 2 tickets on this phone \(list taken .+\)$/),
    ).toBeTruthy();
  });

  it('a camera error shows its text and "Try Again", which asks again', async () => {
    getUserMedia.mockRejectedValueOnce(named('NotFoundError'));
    render(<Harness />);
    expect(
      await within(dialog()).findByText('No camera found on this device. QR scanning requires a camera.'),
    ).toBeTruthy();
    decoded = null;
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Try Again' }));
    expect(await within(dialog()).findByText('Position QR code within the frame')).toBeTruthy();
    expect(getUserMedia).toHaveBeenCalledTimes(2);
  });

  it('without the camera API: "Camera not supported by this browser"', async () => {
    Reflect.deleteProperty(navigator, 'mediaDevices');
    render(<Harness />);
    expect(await within(dialog()).findByText('Camera not supported by this browser')).toBeTruthy();
  });

  it('is persistent, and closing stops the camera and the frame loop', async () => {
    decoded = null;
    render(<Harness />);
    await waitFor(() => expect(detect).toHaveBeenCalled());
    fireEvent.keyDown(dialog(), { key: 'Escape' });
    expect(screen.getByRole('dialog', { name: 'Scan Ticket' })).toBeTruthy();
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(stop).toHaveBeenCalled());
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Scan Ticket' })).toBeNull());
    const seen = detect.mock.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(detect.mock.calls.length).toBe(seen);
  });
});

describe('Scan Ticket: a code (spec §4, §5, §8)', () => {
  it('validates the code’s last path segment with the event, scans once, and shows the result', async () => {
    let release: () => void = () => {};
    routes['/api/tickets/validate-ticket'] = () =>
      new Promise((resolve) => {
        release = () =>
          resolve(json(200, { data: { valid: true, message: 'Valid ticket.', ticket: ticket() } }));
      });
    const onScanned = vi.fn();
    render(<Harness onScanned={onScanned} />);
    await waitFor(() => expect(calls('/api/tickets/validate-ticket')).toHaveLength(1));
    // Spec §4: while the code is validated the loop is paused and a full overlay spinner shows.
    expect(screen.getByRole('progressbar', { name: 'Loading' })).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(calls('/api/tickets/validate-ticket')).toHaveLength(1);
    release();

    expect(await within(dialog()).findByText('Ticket Scanned Successfully!')).toBeTruthy();
    expect(calls('/api/tickets/validate-ticket')[0]?.path).toBe(
      `/api/tickets/validate-ticket?ticketId=${CODE}&eventId=9`,
    );
    const scans = calls('/api/tickets/scan-ticket');
    expect(scans).toHaveLength(1);
    const body = JSON.parse(String(scans[0]?.init.body)) as Record<string, unknown>;
    expect(body).toMatchObject({ ticketId: CODE, eventId: 9, scannedBy: 7 });
    expect(body.clientNonce).toMatch(/^[0-9a-f]{32}$/);
    expect(body.deviceId).toMatch(/^[0-9a-f]{32}$/);
    expect(within(dialog()).getByText('Jane Smith')).toBeTruthy();
    expect(within(dialog()).getByText('jane@hill.test')).toBeTruthy();
    expect(within(dialog()).getByText('Summer concert')).toBeTruthy();
    expect(within(dialog()).getByText(`Fri 3 Jul 2026, 19:05 (Ada Lovelace)`)).toBeTruthy();
    expect(await screen.findByText('Ticket scanned successfully for Jane Smith')).toBeTruthy();
    expect(onScanned).toHaveBeenCalledWith(scannedTicket);
    // The live view stays mounted (the camera keeps running) but is hidden behind the result.
    expect(
      within(dialog()).getByText('Position QR code within the frame').closest('[hidden]'),
    ).not.toBeNull();

    // "Scan Another" clears the result and resumes; the next scan has a fresh nonce.
    routes['/api/tickets/validate-ticket'] = () =>
      json(200, { data: { valid: true, message: 'Valid ticket.', ticket: ticket() } });
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Scan Another' }));
    await waitFor(() => expect(calls('/api/tickets/scan-ticket')).toHaveLength(2));
    const second = JSON.parse(String(calls('/api/tickets/scan-ticket')[1]?.init.body)) as Record<
      string,
      unknown
    >;
    expect(second.clientNonce).not.toBe(body.clientNonce);
    expect(second.deviceId).toBe(body.deviceId);
  });

  it('valid false → "Invalid Ticket" with the server message, and no scan', async () => {
    decoded = 'NotATicket';
    routes['/api/tickets/validate-ticket'] = () =>
      json(200, { data: { valid: false, message: 'This code is not a ticket of this school.' } });
    render(<Harness />);
    expect(await within(dialog()).findByText('Invalid Ticket')).toBeTruthy();
    expect(within(dialog()).getByText('This code is not a ticket of this school.')).toBeTruthy();
    expect(calls('/api/tickets/validate-ticket')[0]?.path).toBe(
      '/api/tickets/validate-ticket?ticketId=NotATicket&eventId=9',
    );
    expect(calls('/api/tickets/scan-ticket')).toHaveLength(0);
  });

  it('already scanned → "Already Scanned", "This ticket has already been scanned." and when/by whom', async () => {
    routes['/api/tickets/validate-ticket'] = () =>
      json(200, {
        data: { valid: true, message: 'Already scanned 3 Jul 18:05 by Ada Lovelace.', ticket: scannedTicket },
      });
    render(<Harness />);
    expect(await within(dialog()).findByText('Already Scanned')).toBeTruthy();
    expect(within(dialog()).getByText('This ticket has already been scanned.')).toBeTruthy();
    expect(within(dialog()).getByText('Already scanned 3 Jul 18:05 by Ada Lovelace.')).toBeTruthy();
    expect(calls('/api/tickets/scan-ticket')).toHaveLength(0);
  });

  it('scan success false → "Scan Failed"; alreadyScanned (a race lost) → "Already Scanned"', async () => {
    routes['/api/tickets/scan-ticket'] = () =>
      json(200, {
        data: {
          success: false,
          message: 'This ticket was cancelled with its booking.',
          alreadyScanned: false,
        },
      });
    render(<Harness />);
    expect(await within(dialog()).findByText('Scan Failed')).toBeTruthy();
    expect(within(dialog()).getByText('This ticket was cancelled with its booking.')).toBeTruthy();

    routes['/api/tickets/scan-ticket'] = () =>
      json(200, { data: { success: false, message: 'Already scanned by Ben.', alreadyScanned: true } });
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Scan Another' }));
    expect(await within(dialog()).findByText('Already Scanned')).toBeTruthy();
    expect(within(dialog()).getByText('Already scanned by Ben.')).toBeTruthy();
  });

  it('a 5xx answer → "Error" with "Failed to scan ticket. Please try again."; "Try Again" resends the same nonce', async () => {
    routes['/api/tickets/scan-ticket'] = () => json(500, {});
    render(<Harness />);
    expect(await within(dialog()).findByText('Error')).toBeTruthy();
    expect(within(dialog()).getByText('Failed to scan ticket. Please try again.')).toBeTruthy();
    routes['/api/tickets/scan-ticket'] = () =>
      json(200, {
        data: { success: true, message: 'Admitted.', alreadyScanned: false, ticket: scannedTicket },
      });
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Try Again' }));
    expect(await within(dialog()).findByText('Ticket Scanned Successfully!')).toBeTruthy();
    const nonces = calls('/api/tickets/scan-ticket').map(
      (request) => (JSON.parse(String(request.init.body)) as { clientNonce: string }).clientNonce,
    );
    expect(nonces).toHaveLength(2);
    expect(nonces[1]).toBe(nonces[0]);
    expect(calls('/api/tickets/validate-ticket')).toHaveLength(1);
  });

  it('no answer to the scan → admitted offline with that nonce, and sent once the network is back', async () => {
    routes['/api/tickets/scan-ticket'] = () => Promise.reject(new TypeError('Failed to fetch'));
    vi.spyOn(console, 'error').mockImplementation(() => {});
    render(<Harness />);
    expect(await within(dialog()).findByText('Ticket Scanned Successfully!')).toBeTruthy();
    expect(
      within(dialog()).getByText('Admitted offline: the scan is sent when the network returns.'),
    ).toBeTruthy();
    expect(await screen.findByText('Ticket scanned successfully for Jane Smith')).toBeTruthy();
    expect(within(dialog()).getByText('Offline — 1 scan waiting')).toBeTruthy();
    const nonce = (
      JSON.parse(String(calls('/api/tickets/scan-ticket')[0]?.init.body)) as { clientNonce: string }
    ).clientNonce;

    goOnline(true); // the browser says the network is back
    await waitFor(() => expect(synced()).toHaveLength(1));
    expect(synced()[0]?.scans).toEqual([
      { ticketId: CODE, clientNonce: nonce, scannedAt: expect.any(String) },
    ]);
    expect(await within(dialog()).findByText('1 offline scan sent: 1 admitted.')).toBeTruthy();
    expect(within(dialog()).queryByText(/^Offline/)).toBeNull();
  });

  it('a server error with a message → "Error" with that message', async () => {
    routes['/api/tickets/scan-ticket'] = () =>
      json(403, { message: 'You are not allowed to scan tickets for this event.' });
    render(<Harness />);
    expect(await within(dialog()).findByText('Error')).toBeTruthy();
    expect(within(dialog()).getByText('You are not allowed to scan tickets for this event.')).toBeTruthy();
    expect(within(dialog()).queryByRole('button', { name: 'Try Again' })).toBeNull();
  });
});

describe('Scan Ticket without a network (decision 013)', () => {
  it('admits from the kept list, says it is offline and how many wait, and sends them when the network returns', async () => {
    decoded = null;
    render(<Harness />);
    expect(await within(dialog()).findByText(/^Ready offline: 2 tickets/)).toBeTruthy();
    goOnline(false);
    expect(await within(dialog()).findByText('Offline')).toBeTruthy();

    decoded = `http://localhost:3000/t/${CODE}`;
    expect(await within(dialog()).findByText('Ticket Scanned Successfully!')).toBeTruthy();
    expect(within(dialog()).getByText('Jane Smith')).toBeTruthy();
    expect(within(dialog()).getByText('Summer concert')).toBeTruthy();
    expect(await screen.findByText('Ticket scanned successfully for Jane Smith')).toBeTruthy();
    expect(within(dialog()).getByText('Offline — 1 scan waiting')).toBeTruthy();

    // The same ticket again: "Already Scanned" by this door; a forged code: "Invalid Ticket".
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Scan Another' }));
    expect(await within(dialog()).findByText('Already Scanned')).toBeTruthy();
    expect(
      within(dialog()).getByText(/^Admitted by this door at .+ \(offline, not sent yet\)\.$/),
    ).toBeTruthy();
    decoded = 'http://localhost:3000/t/ForgedCodeXXXXXXXXXXXX';
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Scan Another' }));
    expect(await within(dialog()).findByText('Invalid Ticket')).toBeTruthy();
    decoded = 'http://localhost:3000/t/GuestCodeOfJaneSmith01';
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Scan Another' }));
    expect(await within(dialog()).findByText('Ticket Scanned Successfully!')).toBeTruthy();
    expect(within(dialog()).getByText('Offline — 2 scans waiting')).toBeTruthy();
    expect(calls('/api/tickets/validate-ticket')).toHaveLength(0);
    expect(calls('/api/tickets/scan-ticket')).toHaveLength(0);
    // Kept on the phone: a reload loses nothing.
    const kept = JSON.parse(localStorage.getItem('parley.door.7.9') ?? '{}') as { queue: unknown[] };
    expect(kept.queue).toHaveLength(2);

    decoded = null;
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Scan Another' }));
    goOnline(true);
    expect(await within(dialog()).findByText('2 offline scans sent: 2 admitted.')).toBeTruthy();
    expect(synced()).toHaveLength(1);
    expect(synced()[0]).toMatchObject({ eventId: 9, deviceId: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(synced()[0]?.scans.map((scan) => scan.ticketId)).toEqual([CODE, 'GuestCodeOfJaneSmith01']);
    expect(
      (JSON.parse(localStorage.getItem('parley.door.7.9') ?? '{}') as { queue: unknown[] }).queue,
    ).toEqual([]);
  });

  it('validation without an answer goes offline at once; a duplicate is reported after the sync', async () => {
    routes['/api/tickets/validate-ticket'] = () => Promise.reject(new TypeError('Failed to fetch'));
    routes['/api/tickets/sync-scans'] = (_url, init) => {
      const body = JSON.parse(String(init.body)) as {
        scans: Array<{ ticketId: string; clientNonce: string }>;
      };
      return json(200, {
        data: {
          results: body.scans.map((scan) => ({
            ...scan,
            outcome: 'duplicate',
            message: 'Already scanned 03/07/2026, 18:00 by Ann Lee.',
          })),
        },
      });
    };
    vi.spyOn(console, 'error').mockImplementation(() => {});
    render(<Harness />);
    expect(await within(dialog()).findByText('Ticket Scanned Successfully!')).toBeTruthy();
    expect(within(dialog()).getByText('Offline — 1 scan waiting')).toBeTruthy();
    expect(calls('/api/tickets/scan-ticket')).toHaveLength(0);
    decoded = null;
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Scan Another' }));
    goOnline(true);
    expect(
      await within(dialog()).findByText(
        'Jane Smith: another door admitted this ticket first. Already scanned 03/07/2026, 18:00 by Ann Lee.',
      ),
    ).toBeTruthy();
    expect(within(dialog()).getByText('1 offline scan sent: 0 admitted.')).toBeTruthy();
  });

  it('a list older than 12 hours no longer admits, and says so', async () => {
    localStorage.setItem(
      'parley.door.7.9',
      JSON.stringify({
        list: {
          ...offlineList(),
          takenAt: new Date(Date.now() - OFFLINE_LIST_TTL_MS - 60_000).toISOString(),
        },
        queue: [],
      }),
    );
    online = false;
    render(<Harness />);
    expect(await within(dialog()).findByText('Cannot check offline')).toBeTruthy();
    expect(
      within(dialog()).getAllByText(/more than 12 hours ago: it no longer admits anyone offline/).length,
    ).toBeGreaterThan(0);
    expect(calls('/api/tickets/')).toHaveLength(0);
  });
});
