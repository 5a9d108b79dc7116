import {
  OFFLINE_LIST_REFRESH_MS,
  type OfflineList,
  type SyncScansRequest,
  type SyncScansResponse,
  type Ticket,
} from '@parley/domain/tickets';
import { ApiError, serverMessage } from '../../lib/api-client';
import {
  acknowledge,
  batches,
  type DoorData,
  decideOffline,
  EMPTY_DOOR,
  enqueue,
  keptList,
  type ListState,
  listState,
  listZone,
  markScanned,
  mergeReports,
  type OfflineEvent,
  offlineResultPanel,
  parseDoorData,
  type SyncReport,
  syncReport,
} from './offline-logic';
import type { ScanPanel } from './scan-logic';
import { TICKETS_UI } from './tickets-text';

// One event's offline door on this phone (decision 013): the kept list and queue (in storage, so a reload
// or a flat battery loses nothing), whether the network answers, the sync. Every browser API comes in as
// an argument, so the store is tested with fakes; use-offline-door.ts gives it the real ones.

/** While open, the door looks every 5 s whether the list is due (OFFLINE_LIST_REFRESH_MS) or the network back. */
export const DOOR_TICK_MS = 5000;

export type DoorDeps = {
  eventId: number;
  read: () => unknown;
  write: (data: DoorData) => void;
  fetchList: () => Promise<OfflineList>;
  sendScans: (body: SyncScansRequest) => Promise<SyncScansResponse>;
  deviceId: () => string;
  newNonce: () => string;
  hash: (code: string) => Promise<string>;
  now: () => Date;
  /** navigator.onLine: false means surely offline (true means only "maybe"). */
  browserOnline: () => boolean;
  /** Calls back when the browser says the network came or went; returns the unsubscribe. */
  onNetworkChange: (listener: () => void) => () => void;
  /** Calls back every `ms`; returns the stop. */
  every: (ms: number, tick: () => void) => () => void;
};

export type DoorSnapshot = {
  offline: boolean;
  listState: ListState;
  listCount: number;
  listTakenAt: string | null;
  /** The school's zone, the door's times are shown in. */
  timeZone: string;
  listLoading: boolean;
  waiting: number;
  syncing: boolean;
  report: SyncReport | null;
  syncError: string | null;
};

/** What a code came to at the door: the panel, the ticket the server admitted, or the name admitted offline. */
export type DoorCheck = { panel: ScanPanel; scanned: Ticket | null; admittedName: string | null };

/** A request that got no HTTP answer at all (no network, or none in time): the door works offline. */
export function isNoAnswer(error: unknown): boolean {
  if (error instanceof ApiError) return error.status === 0;
  const name = typeof error === 'object' && error !== null && 'name' in error ? String(error.name) : '';
  return name === 'TimeoutError' || name === 'AbortError';
}

export class OfflineDoor {
  private readonly deps: DoorDeps;
  private data: DoorData = EMPTY_DOOR;
  private networkDown = false;
  private listLoading = false;
  private syncing: Promise<void> | null = null;
  private listing: Promise<void> | null = null;
  private report: SyncReport | null = null;
  private syncError: string | null = null;
  private readonly listeners = new Set<() => void>();
  private snapshot: DoorSnapshot;
  private users = 0;
  private scanners = 0;
  private stop: Array<() => void> = [];

  constructor(deps: DoorDeps) {
    this.deps = deps;
    this.data = parseDoorData(deps.read());
    this.snapshot = this.compute();
  }

  // ── the React side ──────────────────────────────────────────────────────────────────────────────────

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): DoorSnapshot => this.snapshot;

  private compute(): DoorSnapshot {
    const { list, queue } = this.data;
    return {
      offline: this.isOffline(),
      listState: listState(list, this.deps.now()),
      listCount: list?.tickets.length ?? 0,
      listTakenAt: list?.takenAt ?? null,
      timeZone: listZone(list),
      listLoading: this.listLoading,
      waiting: queue.length,
      syncing: this.syncing !== null,
      report: this.report,
      syncError: this.syncError,
    };
  }

  private emit(): void {
    const next = this.compute();
    const same = (Object.keys(next) as Array<keyof DoorSnapshot>).every(
      (key) => next[key] === this.snapshot[key],
    );
    if (same) return; // a tick that changed nothing re-renders nothing
    this.snapshot = next;
    for (const listener of this.listeners) listener();
  }

  /** Reads the kept data again (another tab may have changed it), changes it, and keeps it. */
  private update(change: (data: DoorData) => DoorData): void {
    this.data = change(parseDoorData(this.deps.read()));
    this.deps.write(this.data);
    this.emit();
  }

  /**
   * A screen that shows the door (the scanner: `scanning`, which also keeps the list fresh) is open. The
   * first one starts listening to the network and the clock; the last one to close stops it.
   */
  activate(scanning: boolean): () => void {
    this.users += 1;
    if (scanning) this.scanners += 1;
    if (this.users === 1) {
      this.data = parseDoorData(this.deps.read());
      this.stop = [
        this.deps.onNetworkChange(() => this.networkChanged()),
        this.deps.every(DOOR_TICK_MS, () => this.tick()),
      ];
    }
    this.emit();
    if (this.deps.browserOnline()) {
      if (scanning) void this.refreshList();
      else void this.sync();
    }
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      this.users -= 1;
      if (scanning) this.scanners -= 1;
      if (this.users === 0) {
        for (const stop of this.stop) stop();
        this.stop = [];
      }
    };
  }

  private networkChanged(): void {
    // The browser says the network is back: try it again (a failure will say otherwise).
    if (this.deps.browserOnline()) {
      this.networkDown = false;
      this.emit();
      if (this.scanners > 0) void this.refreshList();
      else void this.sync();
    } else {
      this.emit();
    }
  }

  private tick(): void {
    if (!this.deps.browserOnline()) {
      this.emit(); // the list may have aged past its window
      return;
    }
    const takenAt = this.data.list ? new Date(this.data.list.takenAt).getTime() : Number.NaN;
    const age = this.deps.now().getTime() - takenAt;
    const due = !(age >= 0 && age < OFFLINE_LIST_REFRESH_MS);
    if (this.scanners > 0 && (this.networkDown || due)) void this.refreshList();
    // A batch the server refused is not sent again every tick: the next network change or opening does.
    else if (this.data.queue.length > 0 && !this.syncError) void this.sync();
    else this.emit();
  }

  // ── the network ─────────────────────────────────────────────────────────────────────────────────────

  /** No network: the browser says so, or the last request got no answer. */
  isOffline(): boolean {
    return !this.deps.browserOnline() || this.networkDown;
  }

  /** A request got an HTTP answer (true) or none (false). An answer after none sends what waits. */
  noteNetwork(answered: boolean): void {
    const wasDown = this.networkDown;
    this.networkDown = !answered;
    if (wasDown !== this.networkDown) this.emit();
    if (answered && wasDown) void this.sync();
  }

  /** Takes the event's list (GET tickets/offline-list); an answer also sends what waits. */
  refreshList(): Promise<void> {
    if (this.listing) return this.listing;
    this.listLoading = true;
    this.listing = this.takeList().finally(() => {
      this.listing = null;
      this.listLoading = false;
      this.emit();
    });
    this.emit();
    return this.listing;
  }

  private async takeList(): Promise<void> {
    try {
      const list = await this.deps.fetchList();
      this.update((data) => ({ ...data, list: keptList(list, this.deps.now()) }));
      this.noteNetwork(true);
      if (this.data.queue.length > 0) void this.sync();
    } catch (error) {
      // An answer that refuses (no longer a scanner, the event gone) leaves the kept list as it was.
      this.noteNetwork(!isNoAnswer(error));
    }
  }

  /**
   * Sends the queue (POST tickets/sync-scans) in batches of SYNC_BATCH_MAX with this device's id; what
   * the server answered leaves the queue (a resend of the same nonces would change nothing). No answer:
   * the rest waits for the network.
   */
  sync(): Promise<void> {
    if (this.syncing) return this.syncing;
    if (!this.deps.browserOnline() || parseDoorData(this.deps.read()).queue.length === 0)
      return Promise.resolve();
    this.syncError = null;
    this.syncing = this.sendQueue().finally(() => {
      this.syncing = null;
      this.emit();
    });
    this.emit();
    return this.syncing;
  }

  private async sendQueue(): Promise<void> {
    let report: SyncReport | null = null;
    for (const batch of batches(parseDoorData(this.deps.read()).queue)) {
      let answer: SyncScansResponse;
      try {
        answer = await this.deps.sendScans({
          eventId: this.deps.eventId,
          deviceId: this.deps.deviceId(),
          scans: batch.map(({ ticketId, clientNonce, scannedAt }) => ({ ticketId, clientNonce, scannedAt })),
        });
      } catch (error) {
        if (isNoAnswer(error)) this.noteNetwork(false);
        else {
          this.noteNetwork(true);
          this.syncError = TICKETS_UI.syncFailed(serverMessage(error, TICKETS_UI.syncFailedDefault));
        }
        break;
      }
      this.noteNetwork(true);
      const results = answer.data.results;
      this.update((data) => acknowledge(data, results));
      report = mergeReports(report, syncReport(batch, results));
    }
    if (report) this.report = report;
  }

  /** The report of the last sync is put away. */
  dismissReport(): void {
    this.report = null;
    this.syncError = null;
    this.emit();
  }

  // ── codes at the door ───────────────────────────────────────────────────────────────────────────────

  /** A code this door admitted offline and has not sent yet: "Already Scanned" without asking anyone. */
  async queuedCheck(code: string): Promise<DoorCheck | null> {
    const data = parseDoorData(this.deps.read());
    if (data.queue.length === 0) return null;
    const hash = await this.deps.hash(code);
    const queued = data.queue.find((scan) => scan.hash === hash);
    if (!queued) return null;
    const entry = data.list?.tickets.find((ticket) => ticket.hash === hash) ?? {
      hash,
      userName: queued.userName,
      guestIndex: 0,
      scanned: true,
    };
    return {
      panel: offlineResultPanel({ kind: 'already', entry, queued }, this.event()),
      scanned: null,
      admittedName: null,
    };
  }

  /** Decides on a code with the kept list; an admission joins the queue. */
  async checkOffline(code: string): Promise<DoorCheck> {
    let hash: string;
    try {
      hash = await this.deps.hash(code);
    } catch {
      return {
        panel: offlineResultPanel({ kind: 'no-list' }, this.event()),
        scanned: null,
        admittedName: null,
      };
    }
    const now = this.deps.now();
    const decision = decideOffline(parseDoorData(this.deps.read()), hash, now);
    const scannedAt = now.toISOString();
    if (decision.kind === 'admit') {
      this.update((data) =>
        enqueue(data, {
          ticketId: code,
          clientNonce: this.deps.newNonce(),
          scannedAt,
          hash,
          userName: decision.entry.userName,
        }),
      );
    }
    return {
      panel: offlineResultPanel(decision, this.event(), scannedAt),
      scanned: null,
      admittedName: decision.kind === 'admit' ? decision.entry.userName : null,
    };
  }

  /**
   * The server said "valid, not scanned", then the scan got no answer: the person is let in and the scan
   * waits with the same nonce (had it arrived, the resend is answered with the first answer).
   */
  async admitValidated(code: string, clientNonce: string, ticket: Ticket): Promise<DoorCheck> {
    const hash = await this.deps.hash(code).catch(() => '');
    const scannedAt = this.deps.now().toISOString();
    this.update((data) =>
      enqueue(data, { ticketId: code, clientNonce, scannedAt, hash, userName: ticket.userName }),
    );
    const base = offlineResultPanel(
      {
        kind: 'admit',
        entry: { hash, userName: ticket.userName, guestIndex: ticket.guestIndex, scanned: false },
      },
      { eventName: ticket.eventName, timeZone: ticket.timeZone },
      scannedAt,
    );
    return { panel: { ...base, ticket }, scanned: null, admittedName: ticket.userName };
  }

  /** A ticket the server admitted (here or at another door) is admitted in the kept list too. */
  async noteScanned(code: string): Promise<void> {
    if (!parseDoorData(this.deps.read()).list) return;
    const hash = await this.deps.hash(code).catch(() => null);
    if (hash) this.update((data) => markScanned(data, hash));
  }

  private event(): OfflineEvent {
    return { eventName: this.data.list?.eventName ?? '', timeZone: listZone(this.data.list) };
  }
}
