import {
  OFFLINE_LIST_TTL_MS,
  type OfflineList,
  SYNC_BATCH_MAX,
  type SyncScansResponse,
  scanWindowState,
  TICKET_TEXT,
} from '@parley/domain/tickets';
import { formatIsoDateTime, formatIsoTime } from '@parley/domain/time-zone';
import { z } from '@parley/domain/zod';
import type { ScanPanel } from './scan-logic';
import { TICKETS_UI } from './tickets-text';

// An offline door (decision 013), as pure rules: what a phone keeps for an event (the hashed ticket list
// and the scans it admitted without a network), how it decides on a code with no network, how its queue
// travels in batches and what the server's answers do to it. The store (offline-door.ts) does the I/O.

/** A ticket as the list names it: the SHA-256 of its code (base64url), never the code. */
const offlineTicket = z.object({
  hash: z.string(),
  userName: z.string(),
  guestIndex: z.number(),
  scanned: z.boolean(),
});
export type OfflineTicket = z.infer<typeof offlineTicket>;

const storedList = z.object({
  eventId: z.number(),
  eventName: z.string(),
  /** The server's clock: when it issued the list, and how long it trusts it. */
  issuedAt: z.string(),
  validUntil: z.string(),
  /** This device's clock when the list arrived: the trust window is measured from it (clocks drift). */
  takenAt: z.string(),
  tickets: z.array(offlineTicket),
  // Optional: a list kept by an older version has none, and must still read (its queue waits in it).
  /** The school's zone, for the door's times. */
  timeZone: z.string().optional(),
  /** The door's window (issue 35), as the server reckons it; null while the event has no section. */
  opensAt: z.string().nullable().optional(),
  closesAt: z.string().nullable().optional(),
});
export type StoredList = z.infer<typeof storedList>;

/**
 * The zone a kept list's times are shown in: the school's. A list kept by an older version has none until
 * it is refreshed (every 30 s online): UTC, plainly labelled by its offset-free style, rather than the
 * browser's own.
 */
export const listZone = (list: Pick<StoredList, 'timeZone'> | null): string => list?.timeZone ?? 'UTC';

/** A scan admitted without a network, waiting to be sent: the sync's fields, and what the door showed. */
const queuedScan = z.object({
  ticketId: z.string(),
  clientNonce: z.string(),
  scannedAt: z.string(),
  hash: z.string(),
  userName: z.string(),
});
export type QueuedScan = z.infer<typeof queuedScan>;

const doorData = z.object({ list: storedList.nullable(), queue: z.array(queuedScan) });
/** What one phone keeps for one event (and one scanner). */
export type DoorData = z.infer<typeof doorData>;

export const EMPTY_DOOR: DoorData = { list: null, queue: [] };

/** Where a door's data is kept: per scanner and event, so another person signing in on the phone starts clean. */
export const doorStorageKey = (userId: number, eventId: number) => `parley.door.${userId}.${eventId}`;

/** Stored data read back; anything unreadable (another version, a hand edit) counts as nothing kept. */
export function parseDoorData(raw: unknown): DoorData {
  const parsed = doorData.safeParse(raw);
  return parsed.success ? parsed.data : EMPTY_DOOR;
}

// ── the list ──────────────────────────────────────────────────────────────────────────────────────────

/** Bytes as base64url without padding (Node's digest('base64url'), which the server's ticketHash uses). */
export function base64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The list's name for a code: SHA-256 of its UTF-8 bytes, base64url — exactly as the server hashes it. */
export async function ticketHash(
  code: string,
  subtle: Pick<SubtleCrypto, 'digest'> | null = globalThis.crypto?.subtle ?? null,
): Promise<string> {
  if (!subtle) throw new Error('This browser cannot hash (it needs https).');
  const digest = await subtle.digest('SHA-256', new TextEncoder().encode(code));
  return base64Url(new Uint8Array(digest));
}

/**
 * The server's list as kept. Tickets this phone has admitted but not yet sent stay admitted: the queue
 * holds them, and the decision looks there too, so a refresh cannot undo them.
 */
export function keptList(list: OfflineList, takenAt: Date): StoredList {
  return {
    eventId: list.eventId,
    eventName: list.eventName,
    issuedAt: list.issuedAt,
    validUntil: list.validUntil,
    takenAt: takenAt.toISOString(),
    timeZone: list.timeZone,
    opensAt: list.opensAt,
    closesAt: list.closesAt,
    tickets: list.tickets.map(({ hash, userName, guestIndex, scanned }) => ({
      hash,
      userName,
      guestIndex,
      scanned,
    })),
  };
}

export type ListState = 'missing' | 'fresh' | 'stale';

/**
 * Decision 013's trust window: a list admits offline for OFFLINE_LIST_TTL_MS after it arrived (by this
 * device's clock, which the age is measured on). A clock set back before the list arrived is not trusted.
 */
export function listState(list: StoredList | null, now: Date): ListState {
  if (!list) return 'missing';
  const age = now.getTime() - new Date(list.takenAt).getTime();
  return Number.isFinite(age) && age >= 0 && age <= OFFLINE_LIST_TTL_MS ? 'fresh' : 'stale';
}

// ── deciding without a network ────────────────────────────────────────────────────────────────────────

export type OfflineDecision =
  | { kind: 'no-list' }
  | { kind: 'stale'; takenAt: string }
  | { kind: 'invalid' }
  | { kind: 'window'; message: string }
  | { kind: 'already'; entry: OfflineTicket; queued: QueuedScan | null }
  | { kind: 'admit'; entry: OfflineTicket };

/**
 * The server's refusal for a scan at `now` outside the list's window, word for word (its zone and style),
 * or null inside it. A list kept by an older version carries no window: the server judges on sync.
 */
export function windowRefusal(list: StoredList, now: Date): string | null {
  if (list.opensAt === undefined || list.closesAt === undefined) return null;
  const opensAt = list.opensAt === null ? null : new Date(list.opensAt);
  const closesAt = list.closesAt === null ? null : new Date(list.closesAt);
  const state = scanWindowState({ opensAt, closesAt }, now);
  const zone = listZone(list);
  if (state === 'undated') return TICKET_TEXT.scanUndated;
  if (state === 'notYet' && list.opensAt) return TICKET_TEXT.scanOpens(formatIsoDateTime(list.opensAt, zone));
  if (state === 'closed' && list.closesAt)
    return TICKET_TEXT.scanClosed(formatIsoDateTime(list.closesAt, zone));
  return null;
}

/**
 * A code's fate at an offline door: no list or an old one cannot admit; an unknown hash is no ticket of
 * this event; outside the door's window nothing is admitted (as the server would refuse it on sync); one
 * admitted here (queued) or marked scanned in the list is "Already Scanned"; else admit.
 */
export function decideOffline(data: DoorData, hash: string, now: Date): OfflineDecision {
  const state = listState(data.list, now);
  if (!data.list || state === 'missing') return { kind: 'no-list' };
  if (state === 'stale') return { kind: 'stale', takenAt: data.list.takenAt };
  const entry = data.list.tickets.find((ticket) => ticket.hash === hash);
  if (!entry) return { kind: 'invalid' };
  const refusal = windowRefusal(data.list, now);
  if (refusal) return { kind: 'window', message: refusal };
  const queued = data.queue.find((scan) => scan.hash === hash) ?? null;
  if (queued || entry.scanned) return { kind: 'already', entry, queued };
  return { kind: 'admit', entry };
}

/** Where an offline panel's texts come from: the event's name and the school's zone. */
export type OfflineEvent = { eventName: string; timeZone: string };

const nameLines = (name: string, event: OfflineEvent, scannedAt: string | null = null) => [
  { label: TICKETS_UI.name, value: name },
  { label: TICKETS_UI.event, value: event.eventName },
  ...(scannedAt
    ? [
        {
          label: TICKETS_UI.scanned,
          value: TICKETS_UI.scannedOffline(formatIsoDateTime(scannedAt, event.timeZone)),
        },
      ]
    : []),
];

const offlinePanel = (
  outcome: ScanPanel['outcome'],
  title: string,
  message: string,
  detail: string | null,
  lines: ScanPanel['lines'] = [],
): ScanPanel => ({ outcome, title, message, detail, ticket: null, retry: null, lines });

/** The result panel for an offline decision, in the spec's words where it has them (§8 "Scan results"). */
export function offlineResultPanel(
  decision: OfflineDecision,
  event: OfflineEvent,
  scannedAt: string | null = null,
): ScanPanel {
  switch (decision.kind) {
    case 'no-list':
      return offlinePanel('error', TICKETS_UI.cannotCheckOffline, TICKETS_UI.noListOffline, null);
    case 'stale':
      return offlinePanel(
        'error',
        TICKETS_UI.cannotCheckOffline,
        TICKETS_UI.staleList(formatIsoTime(decision.takenAt, event.timeZone)),
        null,
      );
    case 'invalid':
      return offlinePanel('error', TICKET_TEXT.invalidTicket, TICKETS_UI.notOnList, null);
    case 'window':
      return offlinePanel('error', TICKET_TEXT.invalidTicket, decision.message, null);
    case 'already':
      return offlinePanel(
        'error',
        TICKET_TEXT.alreadyScannedTitle,
        TICKET_TEXT.alreadyScanned,
        decision.queued
          ? TICKETS_UI.admittedHere(formatIsoTime(decision.queued.scannedAt, event.timeZone))
          : TICKETS_UI.scannedInList,
        nameLines(decision.entry.userName, event),
      );
    case 'admit':
      return offlinePanel(
        'success',
        TICKET_TEXT.scanned,
        TICKETS_UI.admittedOffline,
        null,
        nameLines(decision.entry.userName, event, scannedAt),
      );
  }
}

// ── the queue ─────────────────────────────────────────────────────────────────────────────────────────

/** A scan admitted offline joins the queue (a nonce already queued is not queued twice). */
export function enqueue(data: DoorData, scan: QueuedScan): DoorData {
  if (data.queue.some((queued) => queued.clientNonce === scan.clientNonce)) return data;
  return { ...data, queue: [...data.queue, scan] };
}

/** A ticket admitted (online, or by another door as the server said) is marked scanned in the kept list. */
export function markScanned(data: DoorData, hash: string): DoorData {
  if (!data.list?.tickets.some((ticket) => ticket.hash === hash && !ticket.scanned)) return data;
  return {
    ...data,
    list: {
      ...data.list,
      tickets: data.list.tickets.map((ticket) =>
        ticket.hash === hash ? { ...ticket, scanned: true } : ticket,
      ),
    },
  };
}

/** The queue in sync-sized batches (SYNC_BATCH_MAX), oldest first. */
export function batches<T>(queue: readonly T[], size = SYNC_BATCH_MAX): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < queue.length; start += size) out.push(queue.slice(start, start + size));
  return out;
}

export type SyncResult = SyncScansResponse['data']['results'][number];

/**
 * The server's answers applied: every answered nonce leaves the queue (an answer is final: resending it
 * would only get the same answer), and a ticket that is in (admitted, or a duplicate) is marked scanned.
 */
export function acknowledge(data: DoorData, results: readonly SyncResult[]): DoorData {
  const answered = new Map(results.map((result) => [result.clientNonce, result]));
  let next: DoorData = { ...data, queue: data.queue.filter((scan) => !answered.has(scan.clientNonce)) };
  for (const scan of data.queue) {
    const result = answered.get(scan.clientNonce);
    if (result && result.outcome !== 'invalid') next = markScanned(next, scan.hash);
  }
  return next;
}

/** What a sync came to, for the people at the door. */
export type SyncReport = {
  sent: number;
  admitted: number;
  /** "Jane Smith: another door admitted this ticket first. Already scanned … by …" */
  duplicates: string[];
  invalid: string[];
};

export function syncReport(sent: readonly QueuedScan[], results: readonly SyncResult[]): SyncReport {
  const names = new Map(sent.map((scan) => [scan.clientNonce, scan.userName]));
  const name = (result: SyncResult) => names.get(result.clientNonce) ?? result.ticketId;
  return {
    sent: results.length,
    admitted: results.filter((result) => result.outcome === 'admitted').length,
    duplicates: results
      .filter((result) => result.outcome === 'duplicate')
      .map((result) => TICKETS_UI.duplicateReport(name(result), result.message)),
    invalid: results
      .filter((result) => result.outcome === 'invalid')
      .map((result) => TICKETS_UI.invalidReport(name(result), result.message)),
  };
}

/** Two reports of one sync run (several batches) as one. */
export function mergeReports(a: SyncReport | null, b: SyncReport): SyncReport {
  if (!a) return b;
  return {
    sent: a.sent + b.sent,
    admitted: a.admitted + b.admitted,
    duplicates: [...a.duplicates, ...b.duplicates],
    invalid: [...a.invalid, ...b.invalid],
  };
}
