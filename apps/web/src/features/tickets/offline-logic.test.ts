import { createHash } from 'node:crypto';
import { OFFLINE_LIST_TTL_MS, type OfflineList, SYNC_BATCH_MAX } from '@parley/domain/tickets';
import { describe, expect, it } from 'vitest';
import {
  acknowledge,
  base64Url,
  batches,
  type DoorData,
  decideOffline,
  doorStorageKey,
  EMPTY_DOOR,
  enqueue,
  keptList,
  listState,
  markScanned,
  mergeReports,
  offlineResultPanel,
  parseDoorData,
  type QueuedScan,
  syncReport,
  ticketHash,
} from './offline-logic';

// The offline door's rules (decision 013), without a browser.

const serverHash = (code: string) => createHash('sha256').update(code).digest('base64url');
const TAKEN = new Date('2026-07-03T17:00:00.000Z');
const later = (ms: number) => new Date(TAKEN.getTime() + ms);

const serverList = (over: Partial<OfflineList> = {}): OfflineList => ({
  eventId: 9,
  eventName: 'Summer concert',
  issuedAt: '2026-07-03T16:59:59.000Z',
  validUntil: '2026-07-04T04:59:59.000Z',
  timeZone: 'Europe/London',
  opensAt: '2026-07-02T17:00:00.000Z',
  closesAt: '2026-07-05T17:00:00.000Z',
  tickets: [
    { hash: serverHash('CodeOfJaneSmith0000001'), userName: 'Jane Smith', guestIndex: 0, scanned: false },
    {
      hash: serverHash('CodeOfGuest1OfJane0001'),
      userName: 'Guest 1 of Jane Smith',
      guestIndex: 1,
      scanned: false,
    },
    { hash: serverHash('CodeOfTomReedAdmitted1'), userName: 'Tom Reed', guestIndex: 0, scanned: true },
  ],
  ...over,
});

const door = (queue: QueuedScan[] = []): DoorData => ({ list: keptList(serverList(), TAKEN), queue });
const queued = (code: string, nonce: string, userName = 'Jane Smith'): QueuedScan => ({
  ticketId: code,
  clientNonce: nonce,
  scannedAt: later(60_000).toISOString(),
  hash: serverHash(code),
  userName,
});

describe('hashing a code as the server does', () => {
  it('SHA-256 of the UTF-8 code, base64url without padding: the server’s ticketHash', async () => {
    for (const code of ['AbCdEfGhIjKlMnOpQrStUv', 'x', 'ünïcødé-ticket_ß', '']) {
      expect(await ticketHash(code)).toBe(serverHash(code));
    }
  });

  it('base64url uses - and _ and drops the padding', () => {
    expect(base64Url(new Uint8Array([0xfb, 0xff]))).toBe('-_8');
    expect(base64Url(new Uint8Array([]))).toBe('');
  });

  it('without WebCrypto (plain http) it says so rather than guessing', async () => {
    await expect(ticketHash('x', null)).rejects.toThrow(/https/);
  });
});

describe('the kept list and its trust window', () => {
  it('keeps the server’s list with this device’s clock of arrival', () => {
    const kept = keptList(serverList(), TAKEN);
    expect(kept).toMatchObject({ eventId: 9, eventName: 'Summer concert', takenAt: TAKEN.toISOString() });
    expect(kept.tickets).toHaveLength(3);
  });

  it('admits for OFFLINE_LIST_TTL_MS (12 h) after it arrived, not a moment longer', () => {
    const list = keptList(serverList(), TAKEN);
    expect(listState(null, TAKEN)).toBe('missing');
    expect(listState(list, TAKEN)).toBe('fresh');
    expect(listState(list, later(OFFLINE_LIST_TTL_MS))).toBe('fresh');
    expect(listState(list, later(OFFLINE_LIST_TTL_MS + 1))).toBe('stale');
    // A clock set back before the list arrived cannot be trusted either.
    expect(listState(list, later(-60_000))).toBe('stale');
  });

  it('reads back what it kept; anything else counts as nothing kept', () => {
    const data = door([queued('CodeOfJaneSmith0000001', 'nonce-0001')]);
    expect(parseDoorData(JSON.parse(JSON.stringify(data)))).toEqual(data);
    for (const junk of [null, 'x', { list: 'no' }, { list: null, queue: [{ ticketId: 1 }] }])
      expect(parseDoorData(junk)).toEqual(EMPTY_DOOR);
  });

  it('is kept per scanner and event', () => {
    expect(doorStorageKey(7, 9)).toBe('parley.door.7.9');
  });
});

describe('deciding without a network', () => {
  const now = later(60_000);

  it('a ticket of the list, not scanned, not admitted here: admit', () => {
    expect(decideOffline(door(), serverHash('CodeOfJaneSmith0000001'), now)).toMatchObject({
      kind: 'admit',
      entry: { userName: 'Jane Smith' },
    });
  });

  it('admitted here already (queued), or scanned when the list was taken: already scanned', () => {
    const mine = queued('CodeOfJaneSmith0000001', 'nonce-0001');
    expect(decideOffline(door([mine]), mine.hash, now)).toMatchObject({ kind: 'already', queued: mine });
    expect(decideOffline(door(), serverHash('CodeOfTomReedAdmitted1'), now)).toMatchObject({
      kind: 'already',
      queued: null,
      entry: { userName: 'Tom Reed' },
    });
  });

  it('a hash not on the list (a forged code, another event’s ticket): invalid', () => {
    expect(decideOffline(door(), serverHash('ForgedCodeXXXXXXXXXXXX'), now)).toEqual({ kind: 'invalid' });
  });

  it('no list, or a list past its window, admits nobody', () => {
    const hash = serverHash('CodeOfJaneSmith0000001');
    expect(decideOffline(EMPTY_DOOR, hash, now)).toEqual({ kind: 'no-list' });
    expect(decideOffline(door(), hash, later(OFFLINE_LIST_TTL_MS + 1))).toEqual({
      kind: 'stale',
      takenAt: TAKEN.toISOString(),
    });
  });

  it('speaks the spec’s words: "Ticket Scanned Successfully!", "Already Scanned", "Invalid Ticket"', () => {
    const concert = { eventName: 'Summer concert', timeZone: 'Europe/London' };
    const none = { eventName: '', timeZone: 'Europe/London' };
    const entry = { hash: 'h', userName: 'Jane Smith', guestIndex: 0, scanned: false };
    const admitted = offlineResultPanel({ kind: 'admit', entry }, concert, now.toISOString());
    expect(admitted).toMatchObject({
      outcome: 'success',
      title: 'Ticket Scanned Successfully!',
      message: 'Admitted offline: the scan is sent when the network returns.',
      ticket: null,
      retry: null,
    });
    expect(admitted.lines?.map((line) => line.label)).toEqual(['Name', 'Event', 'Scanned']);
    expect(admitted.lines?.[0]?.value).toBe('Jane Smith');

    const again = offlineResultPanel(
      { kind: 'already', entry, queued: queued('CodeOfJaneSmith0000001', 'nonce-0001') },
      concert,
    );
    expect(again).toMatchObject({
      outcome: 'error',
      title: 'Already Scanned',
      message: 'This ticket has already been scanned.',
    });
    expect(again.detail).toMatch(/^Admitted by this door at .+ \(offline, not sent yet\)\.$/);

    expect(offlineResultPanel({ kind: 'invalid' }, concert)).toMatchObject({
      title: 'Invalid Ticket',
      message: 'This code is not on the ticket list of this event (checked offline).',
    });
    expect(offlineResultPanel({ kind: 'stale', takenAt: TAKEN.toISOString() }, none).message).toMatch(
      /more than 12 hours ago: it no longer admits anyone offline/,
    );
    expect(offlineResultPanel({ kind: 'no-list' }, none).message).toBe(
      'No ticket list on this phone: tickets cannot be checked until the network returns.',
    );
  });
});

describe('the queue and the sync', () => {
  const a = queued('CodeOfJaneSmith0000001', 'nonce-000a');
  const b = queued('CodeOfGuest1OfJane0001', 'nonce-000b', 'Guest 1 of Jane Smith');

  it('queues a scan once per nonce', () => {
    const once = enqueue(door(), a);
    expect(once.queue).toEqual([a]);
    expect(enqueue(once, a)).toBe(once);
    expect(enqueue(once, b).queue).toEqual([a, b]);
  });

  it('travels in batches of at most SYNC_BATCH_MAX, oldest first', () => {
    const many = Array.from({ length: SYNC_BATCH_MAX * 2 + 1 }, (_, index) => index);
    const sent = batches(many);
    expect(sent.map((batch) => batch.length)).toEqual([SYNC_BATCH_MAX, SYNC_BATCH_MAX, 1]);
    expect(sent.flat()).toEqual(many);
    expect(batches([])).toEqual([]);
  });

  it('an answered nonce leaves the queue; the ticket is admitted in the list unless it was invalid', () => {
    const c = queued('CodeOfTomReedAdmitted1', 'nonce-000c', 'Tom Reed');
    const data = door([a, b, c]);
    const after = acknowledge(data, [
      {
        clientNonce: 'nonce-000a',
        ticketId: a.ticketId,
        outcome: 'admitted',
        message: 'Ticket Scanned Successfully!',
      },
      {
        clientNonce: 'nonce-000b',
        ticketId: b.ticketId,
        outcome: 'invalid',
        message: 'This ticket was cancelled with its booking.',
      },
    ]);
    expect(after.queue).toEqual([c]); // not answered: waits
    const scanned = (hash: string) => after.list?.tickets.find((ticket) => ticket.hash === hash)?.scanned;
    expect(scanned(a.hash)).toBe(true);
    expect(scanned(b.hash)).toBe(false);
    // The same answers again (a resent batch) change nothing more.
    expect(
      acknowledge(after, [
        { clientNonce: 'nonce-000a', ticketId: a.ticketId, outcome: 'admitted', message: '' },
      ]),
    ).toEqual(after);
  });

  it('marks a ticket admitted online as scanned in the kept list', () => {
    const data = markScanned(door(), a.hash);
    expect(data.list?.tickets.find((ticket) => ticket.hash === a.hash)?.scanned).toBe(true);
    expect(markScanned(data, a.hash)).toBe(data);
    expect(markScanned(EMPTY_DOOR, a.hash)).toBe(EMPTY_DOOR);
  });

  it('reports what the server made of the scans, a duplicate as "another door admitted this ticket first"', () => {
    const report = syncReport(
      [a, b],
      [
        {
          clientNonce: 'nonce-000a',
          ticketId: a.ticketId,
          outcome: 'admitted',
          message: 'Ticket Scanned Successfully!',
        },
        {
          clientNonce: 'nonce-000b',
          ticketId: b.ticketId,
          outcome: 'duplicate',
          message: 'Already scanned 03/07/2026, 18:02 by Ann Lee.',
        },
      ],
    );
    expect(report).toEqual({
      sent: 2,
      admitted: 1,
      duplicates: [
        'Guest 1 of Jane Smith: another door admitted this ticket first. Already scanned 03/07/2026, 18:02 by Ann Lee.',
      ],
      invalid: [],
    });
    expect(mergeReports(report, { sent: 1, admitted: 0, duplicates: [], invalid: ['x'] })).toEqual({
      sent: 3,
      admitted: 1,
      duplicates: report.duplicates,
      invalid: ['x'],
    });
    expect(mergeReports(null, report)).toBe(report);
  });
});
