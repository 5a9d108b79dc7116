import { createHash } from 'node:crypto';
import {
  OFFLINE_LIST_REFRESH_MS,
  OFFLINE_LIST_TTL_MS,
  type OfflineList,
  SYNC_BATCH_MAX,
  type SyncScansRequest,
  type SyncScansResponse,
  TICKET_TEXT,
} from '@parley/domain/tickets';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { DOOR_TICK_MS, type DoorDeps, isNoAnswer, OfflineDoor } from './offline-door';
import { type DoorData, EMPTY_DOOR, parseDoorData } from './offline-logic';
import { ticket } from './test-fixtures';

// The offline door's store with every browser API faked: storage, the two calls, the network, the clock.

const hash = (code: string) => createHash('sha256').update(code).digest('base64url');
const JANE = 'CodeOfJaneSmith0000001';
const GUEST = 'CodeOfGuest1OfJane0001';
const START = new Date('2026-07-03T17:00:00.000Z');

const list = (over: Partial<OfflineList> = {}): OfflineList => ({
  eventId: 9,
  eventName: 'Summer concert',
  issuedAt: START.toISOString(),
  validUntil: new Date(START.getTime() + OFFLINE_LIST_TTL_MS).toISOString(),
  timeZone: 'Europe/London',
  opensAt: '2026-07-02T17:00:00.000Z',
  closesAt: '2026-07-05T17:00:00.000Z',
  tickets: [
    { hash: hash(JANE), userName: 'Jane Smith', guestIndex: 0, scanned: false },
    { hash: hash(GUEST), userName: 'Guest 1 of Jane Smith', guestIndex: 1, scanned: false },
  ],
  ...over,
});

const admittedAll = (body: SyncScansRequest): SyncScansResponse => ({
  data: {
    results: body.scans.map((scan) => ({
      clientNonce: scan.clientNonce,
      ticketId: scan.ticketId,
      outcome: 'admitted' as const,
      message: 'Ticket Scanned Successfully!',
    })),
  },
});

const noAnswer = () => new ApiError(0, 'No response from the server');

function fakeDoor(over: Partial<DoorDeps> = {}) {
  let stored: unknown = null;
  let online = true;
  let now = START;
  let nonce = 0;
  const networkListeners = new Set<() => void>();
  const ticks = new Set<() => void>();
  const fetchList = vi.fn(async () => list());
  const sendScans = vi.fn(async (body: SyncScansRequest) => admittedAll(body));
  const deps: DoorDeps = {
    eventId: 9,
    read: () => (stored === null ? null : JSON.parse(JSON.stringify(stored))),
    write: (data) => {
      stored = data;
    },
    fetchList,
    sendScans,
    deviceId: () => 'device-1',
    newNonce: () => `nonce-${String(++nonce).padStart(4, '0')}`,
    hash: async (code) => hash(code),
    now: () => now,
    browserOnline: () => online,
    onNetworkChange: (listener) => {
      networkListeners.add(listener);
      return () => networkListeners.delete(listener);
    },
    every: (ms, tick) => {
      expect(ms).toBe(DOOR_TICK_MS);
      ticks.add(tick);
      return () => ticks.delete(tick);
    },
    ...over,
  };
  const door = new OfflineDoor(deps);
  return {
    door,
    deps,
    fetchList,
    sendScans,
    stored: () => parseDoorData(stored),
    setStored: (data: DoorData) => {
      stored = data;
    },
    setOnline: (value: boolean) => {
      online = value;
      for (const listener of networkListeners) listener();
    },
    advance: (ms: number) => {
      now = new Date(now.getTime() + ms);
    },
    tick: () => {
      for (const tick of ticks) tick();
    },
    listening: () => networkListeners.size + ticks.size,
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('taking the list', () => {
  it('the scanner opening online takes the list and keeps it; the last screen to close stops listening', async () => {
    const f = fakeDoor();
    const close = f.door.activate(true);
    expect(f.door.getSnapshot().listLoading).toBe(true);
    await settle();
    expect(f.fetchList).toHaveBeenCalledTimes(1);
    expect(f.stored().list?.tickets).toHaveLength(2);
    expect(f.door.getSnapshot()).toMatchObject({
      offline: false,
      listState: 'fresh',
      listCount: 2,
      listTakenAt: START.toISOString(),
      listLoading: false,
      waiting: 0,
    });
    const closeDoorPage = f.door.activate(false);
    expect(f.fetchList).toHaveBeenCalledTimes(1); // the door page does not take the list
    close();
    close(); // twice is once
    expect(f.listening()).toBe(2);
    closeDoorPage();
    expect(f.listening()).toBe(0);
  });

  it('refreshes the list every OFFLINE_LIST_REFRESH_MS while the scanner is open and online', async () => {
    const f = fakeDoor();
    f.door.activate(true);
    await settle();
    f.advance(OFFLINE_LIST_REFRESH_MS - DOOR_TICK_MS);
    f.tick();
    await settle();
    expect(f.fetchList).toHaveBeenCalledTimes(1);
    f.advance(DOOR_TICK_MS);
    f.tick();
    await settle();
    expect(f.fetchList).toHaveBeenCalledTimes(2);
    expect(f.stored().list?.takenAt).toBe(new Date(START.getTime() + OFFLINE_LIST_REFRESH_MS).toISOString());
    // Offline: nothing is asked.
    f.setOnline(false);
    f.advance(OFFLINE_LIST_REFRESH_MS);
    f.tick();
    await settle();
    expect(f.fetchList).toHaveBeenCalledTimes(2);
  });

  it('a refusal keeps the kept list; no answer means offline', async () => {
    const f = fakeDoor();
    f.door.activate(true);
    await settle();
    f.fetchList.mockRejectedValueOnce(
      new ApiError(403, 'You are not allowed to scan tickets for this event.'),
    );
    await f.door.refreshList();
    expect(f.stored().list?.tickets).toHaveLength(2);
    expect(f.door.getSnapshot().offline).toBe(false);
    f.fetchList.mockRejectedValueOnce(noAnswer());
    await f.door.refreshList();
    expect(f.door.getSnapshot().offline).toBe(true);
  });
});

describe('admitting without a network', () => {
  it('admits a listed ticket once, queues it with a nonce and its time, and says so', async () => {
    const f = fakeDoor();
    f.door.activate(true);
    await settle();
    f.setOnline(false);
    expect(f.door.getSnapshot().offline).toBe(true);
    f.advance(60_000);

    const first = await f.door.checkOffline(JANE);
    expect(first.panel.title).toBe('Ticket Scanned Successfully!');
    expect(first.admittedName).toBe('Jane Smith');
    expect(f.stored().queue).toEqual([
      {
        ticketId: JANE,
        clientNonce: 'nonce-0001',
        scannedAt: '2026-07-03T17:01:00.000Z',
        hash: hash(JANE),
        userName: 'Jane Smith',
      },
    ]);
    expect(f.door.getSnapshot().waiting).toBe(1);

    const again = await f.door.checkOffline(JANE);
    expect(again.panel.title).toBe('Already Scanned');
    expect(again.admittedName).toBeNull();
    expect((await f.door.queuedCheck(JANE))?.panel.title).toBe('Already Scanned');
    expect(await f.door.queuedCheck(GUEST)).toBeNull();

    expect((await f.door.checkOffline('ForgedCodeXXXXXXXXXXXX')).panel.title).toBe('Invalid Ticket');
    expect(f.stored().queue).toHaveLength(1);
    expect(f.sendScans).not.toHaveBeenCalled();
  });

  it('a list older than OFFLINE_LIST_TTL_MS no longer admits', async () => {
    const f = fakeDoor();
    f.door.activate(true);
    await settle();
    f.setOnline(false);
    f.advance(OFFLINE_LIST_TTL_MS + 1000);
    f.tick();
    expect(f.door.getSnapshot().listState).toBe('stale');
    const check = await f.door.checkOffline(JANE);
    expect(check.panel).toMatchObject({ title: 'Cannot check offline', outcome: 'error' });
    expect(f.stored().queue).toEqual([]);
  });

  it('outside the door’s window nothing is admitted, with the server’s own words (issue 35)', async () => {
    const outside = async (window: Partial<OfflineList>) => {
      const f = fakeDoor({ fetchList: vi.fn(async () => list(window)) });
      f.door.activate(true);
      await settle();
      f.setOnline(false);
      f.advance(60_000);
      const check = await f.door.checkOffline(JANE);
      expect(check.admittedName).toBeNull();
      expect(f.stored().queue).toEqual([]);
      return check.panel;
    };
    // 19:00 UTC is 20:00 in London; 16:00 UTC is 17:00.
    expect(await outside({ opensAt: '2026-07-03T19:00:00.000Z' })).toMatchObject({
      outcome: 'error',
      title: 'Invalid Ticket',
      message: 'Scanning for this event opens Fri 3 Jul 2026, 20:00.',
    });
    expect(await outside({ closesAt: '2026-07-03T16:00:00.000Z' })).toMatchObject({
      title: 'Invalid Ticket',
      message: 'Scanning for this event closed Fri 3 Jul 2026, 17:00.',
    });
    expect((await outside({ opensAt: null, closesAt: null })).message).toBe(TICKET_TEXT.scanUndated);
  });

  it('without a list nothing is admitted', async () => {
    const f = fakeDoor();
    f.setOnline(false);
    f.door.activate(true);
    expect(f.fetchList).not.toHaveBeenCalled();
    expect((await f.door.checkOffline(JANE)).panel.title).toBe('Cannot check offline');
  });

  it('a validated ticket whose scan got no answer waits with the scan’s own nonce', async () => {
    const f = fakeDoor();
    const check = await f.door.admitValidated(JANE, 'the-first-nonce', ticket({ ticketId: JANE }));
    expect(check.panel).toMatchObject({
      title: 'Ticket Scanned Successfully!',
      ticket: { userName: 'Jane Smith' },
    });
    expect(f.stored().queue.map((scan) => scan.clientNonce)).toEqual(['the-first-nonce']);
  });

  it('a ticket admitted online is marked in the kept list, so it is "Already Scanned" offline', async () => {
    const f = fakeDoor();
    f.door.activate(true);
    await settle();
    await f.door.noteScanned(GUEST);
    f.setOnline(false);
    expect((await f.door.checkOffline(GUEST)).panel.title).toBe('Already Scanned');
  });
});

describe('sending what waits', () => {
  async function offlineWithTwo() {
    const f = fakeDoor();
    f.door.activate(true);
    await settle();
    f.setOnline(false);
    await f.door.checkOffline(JANE);
    await f.door.checkOffline(GUEST);
    return f;
  }

  it('the network coming back sends the queue with the device id, empties it and reports', async () => {
    const f = await offlineWithTwo();
    f.setOnline(true);
    await settle();
    await f.door.sync();
    expect(f.sendScans).toHaveBeenCalledTimes(1);
    expect(f.sendScans.mock.calls[0]?.[0]).toEqual({
      eventId: 9,
      deviceId: 'device-1',
      scans: [
        { ticketId: JANE, clientNonce: 'nonce-0001', scannedAt: START.toISOString() },
        { ticketId: GUEST, clientNonce: 'nonce-0002', scannedAt: START.toISOString() },
      ],
    });
    expect(f.stored().queue).toEqual([]);
    expect(f.stored().list?.tickets.every((entry) => entry.scanned)).toBe(true);
    expect(f.door.getSnapshot()).toMatchObject({
      offline: false,
      waiting: 0,
      syncing: false,
      report: { sent: 2, admitted: 2, duplicates: [], invalid: [] },
    });
    f.door.dismissReport();
    expect(f.door.getSnapshot().report).toBeNull();
  });

  it('a duplicate is reported as another door’s first admission', async () => {
    const f = await offlineWithTwo();
    f.sendScans.mockImplementationOnce(async (body) => ({
      data: {
        results: body.scans.map((scan, index) => ({
          clientNonce: scan.clientNonce,
          ticketId: scan.ticketId,
          outcome: index === 0 ? ('duplicate' as const) : ('admitted' as const),
          message:
            index === 0 ? 'Already scanned 03/07/2026, 18:00 by Ann Lee.' : 'Ticket Scanned Successfully!',
        })),
      },
    }));
    f.setOnline(true);
    await settle();
    await f.door.sync();
    expect(f.door.getSnapshot().report).toEqual({
      sent: 2,
      admitted: 1,
      duplicates: [
        'Jane Smith: another door admitted this ticket first. Already scanned 03/07/2026, 18:00 by Ann Lee.',
      ],
      invalid: [],
    });
  });

  it('no answer keeps the queue for later; a resend of the same nonces is harmless', async () => {
    const f = await offlineWithTwo();
    f.sendScans.mockRejectedValueOnce(noAnswer());
    f.setOnline(true); // the list comes, then the sync gets no answer
    await settle();
    expect(f.fetchList).toHaveBeenCalledTimes(2);
    expect(f.sendScans).toHaveBeenCalledTimes(1);
    expect(f.stored().queue).toHaveLength(2);
    expect(f.door.getSnapshot().offline).toBe(true); // navigator said online, the request said otherwise
    // The next tick probes with the list; its answer brings the network back and sends the same nonces.
    f.tick();
    await settle();
    await f.door.sync();
    const sent = f.sendScans.mock.calls.map((call) => call[0].scans.map((scan) => scan.clientNonce));
    expect(sent).toEqual([
      ['nonce-0001', 'nonce-0002'],
      ['nonce-0001', 'nonce-0002'],
    ]);
    expect(f.stored().queue).toEqual([]);
  });

  it('a refused batch stays, says why, and is not resent every tick', async () => {
    const f = await offlineWithTwo();
    const refusal = 'You are not allowed to scan tickets for this event.';
    f.sendScans.mockRejectedValue(new ApiError(403, refusal, { message: refusal }));
    f.setOnline(true);
    await settle();
    await f.door.sync();
    expect(f.stored().queue).toHaveLength(2);
    expect(f.door.getSnapshot().syncError).toBe(
      'The offline scans could not be sent (You are not allowed to scan tickets for this event.). They stay on this phone and are sent again later.',
    );
    const calls = f.sendScans.mock.calls.length;
    f.tick();
    await settle();
    expect(f.sendScans.mock.calls.length).toBe(calls);
  });

  it(`sends a long queue in batches of at most ${SYNC_BATCH_MAX}, one sync at a time`, async () => {
    const f = fakeDoor();
    const queue = Array.from({ length: SYNC_BATCH_MAX + 20 }, (_, index) => ({
      ticketId: `code-${index}`,
      clientNonce: `nonce-${index}`.padEnd(10, '0'),
      scannedAt: START.toISOString(),
      hash: hash(`code-${index}`),
      userName: `Person ${index}`,
    }));
    f.setStored({ ...EMPTY_DOOR, queue });
    const [one, two] = [f.door.sync(), f.door.sync()];
    expect(two).toBe(one);
    await one;
    expect(f.sendScans.mock.calls.map((call) => call[0].scans.length)).toEqual([SYNC_BATCH_MAX, 20]);
    expect(f.stored().queue).toEqual([]);
    expect(f.door.getSnapshot().report?.sent).toBe(SYNC_BATCH_MAX + 20);
  });

  it('opening the door page online sends what an earlier session left', async () => {
    const f = fakeDoor();
    f.setStored({
      ...EMPTY_DOOR,
      queue: [
        {
          ticketId: JANE,
          clientNonce: 'nonce-left',
          scannedAt: START.toISOString(),
          hash: hash(JANE),
          userName: 'Jane Smith',
        },
      ],
    });
    f.door.activate(false);
    await settle();
    await f.door.sync();
    expect(f.sendScans).toHaveBeenCalledTimes(1);
    expect(f.stored().queue).toEqual([]);
  });
});

describe('what counts as no answer', () => {
  it('no response, a timeout or an abort; never an HTTP answer', () => {
    expect(isNoAnswer(noAnswer())).toBe(true);
    expect(isNoAnswer(Object.assign(new Error('t'), { name: 'TimeoutError' }))).toBe(true);
    expect(isNoAnswer(Object.assign(new Error('a'), { name: 'AbortError' }))).toBe(true);
    expect(isNoAnswer(new ApiError(503, 'Unavailable'))).toBe(false);
    expect(isNoAnswer(new ApiError(403, 'Forbidden'))).toBe(false);
    expect(isNoAnswer(new Error('other'))).toBe(false);
  });
});
