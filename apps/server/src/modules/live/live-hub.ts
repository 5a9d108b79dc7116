import { LIVE_SOCKETS_PER_USER, type LiveMessage } from '@parley/domain/live-timing';
import { CALL_WARNING_SECONDS } from '@parley/domain/video-calls';
import type { WebSocket } from 'ws';
import { announces, type Db, watchCallSignals, watchSessions, watchTimings } from '../../db/database';
import { asSystem } from '../../db/scope';
import { signalById } from './calls.repository';
import { timingAudience } from './timing.repository';

type Log = { warn(message: string): void };
/** The hub's time: a call's warning and end, the minute's sweep (tests pass one they move themselves). */
export type LiveClock = { now(): Date; setTimeout(run: () => void, ms: number): () => void };

const realClock: LiveClock = {
  now: () => new Date(),
  setTimeout: (run, ms) => {
    const timer = setTimeout(run, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

/** A video call's sockets in this process, and its timers (the warning, the end). */
type Call = { sockets: Map<WebSocket, number>; cancel: Array<() => void> };

/** Looks again at whether a socket's credential still names its person (live.routes.ts closes it if not). */
type Recheck = () => Promise<void>;

/**
 * How often every socket's credential is looked at again, whatever the database announced: a session that
 * simply expired is announced by nothing, and PGlite announces nothing at all.
 */
export const LIVE_RECHECK_MS = 60_000;

/**
 * This process's open pages (live.routes.ts), by person, and what they are told: a teacher's lateness
 * saved by any process reaches the pages of everyone it concerns; a video call's signalling reaches the
 * others in the call, whichever process they are connected to. The database announces each saved row
 * (PostgreSQL's LISTEN, heard by every process); PGlite announces nothing, so there the saving process
 * tells its own pages. Of a lateness a page is told only which event changed: it refetches through the
 * API, which authorises as ever. A socket lasts no longer than what opened it: when the database announces
 * that a person's sessions changed (a sign-out, a password reset, a user disabled, a link revoked, a role
 * taken), and every minute besides, each of their sockets' credentials is looked at again.
 */
export class LiveHub {
  private readonly sockets = new Map<number, Map<WebSocket, Recheck>>();
  private readonly calls = new Map<number, Call>();
  private cancelSweep: () => void;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly log: Log,
    private readonly clock: LiveClock = realClock,
  ) {
    watchTimings(db, (timingId) => void this.tell(timingId));
    watchCallSignals(db, (signalId) => void this.relay(signalId));
    watchSessions(db, {
      changed: (userId) => void this.recheck([...(this.sockets.get(userId)?.values() ?? [])]),
      // Heard again after a loss: what changed meanwhile was not announced.
      hearing: (all) => {
        if (all) void this.recheckAll();
      },
    });
    this.cancelSweep = this.sweepIn(LIVE_RECHECK_MS);
  }

  /** Adds a person's socket, with how to look at its credential again; false when they hold too many. */
  join(userId: number, socket: WebSocket, recheck: Recheck): boolean {
    const mine = this.sockets.get(userId) ?? new Map<WebSocket, Recheck>();
    if (mine.size >= LIVE_SOCKETS_PER_USER) return false;
    mine.set(socket, recheck);
    this.sockets.set(userId, mine);
    return true;
  }

  /** Every socket's credential looked at again, one after another (live.routes.ts closes what ended). */
  private recheckAll(): Promise<void> {
    return this.recheck([...this.sockets.values()].flatMap((mine) => [...mine.values()]));
  }

  /** Removes a person's socket, from their calls too; returns the calls it was in. */
  leave(userId: number, socket: WebSocket): number[] {
    const mine = this.sockets.get(userId);
    mine?.delete(socket);
    if (mine?.size === 0) this.sockets.delete(userId);
    const left = [...this.calls.entries()].filter(([, call]) => call.sockets.has(socket)).map(([id]) => id);
    for (const bookingId of left) this.leaveCall(bookingId, socket);
    return left;
  }

  /** After a lateness is committed: where the database announces nothing, this process tells its pages. */
  saved(timingId: number): void {
    if (!announces(this.db)) void this.tell(timingId);
  }

  /** After a call's message is saved: likewise. */
  signalSaved(signalId: number): void {
    if (!announces(this.db)) void this.relay(signalId);
  }

  /** A socket is in a call until it leaves or the call ends (warned a minute before, then closed). */
  enterCall(bookingId: number, userId: number, socket: WebSocket, endsAt: Date): void {
    let call = this.calls.get(bookingId);
    if (!call) {
      const created: Call = { sockets: new Map(), cancel: [] };
      const left = endsAt.getTime() - this.clock.now().getTime();
      const warnIn = left - CALL_WARNING_SECONDS * 1000;
      if (warnIn > 0)
        created.cancel.push(
          this.clock.setTimeout(
            () =>
              this.sendToCall(bookingId, { type: 'call-ending', bookingId, seconds: CALL_WARNING_SECONDS }),
            warnIn,
          ),
        );
      created.cancel.push(this.clock.setTimeout(() => this.endCall(bookingId), Math.max(left, 0)));
      this.calls.set(bookingId, created);
      call = created;
    }
    call.sockets.set(socket, userId);
  }

  inCall(bookingId: number, socket: WebSocket): boolean {
    return this.calls.get(bookingId)?.sockets.has(socket) ?? false;
  }

  leaveCall(bookingId: number, socket: WebSocket): void {
    const call = this.calls.get(bookingId);
    if (!call) return;
    call.sockets.delete(socket);
    if (call.sockets.size > 0) return;
    for (const cancel of call.cancel) cancel();
    this.calls.delete(bookingId);
  }

  close(): void {
    this.closed = true;
    this.cancelSweep();
    for (const call of this.calls.values()) for (const cancel of call.cancel) cancel();
    this.calls.clear();
    for (const mine of this.sockets.values())
      for (const socket of mine.keys()) socket.close(1001, 'server closing');
    this.sockets.clear();
  }

  private endCall(bookingId: number): void {
    this.sendToCall(bookingId, { type: 'call-ended', bookingId });
    const call = this.calls.get(bookingId);
    for (const cancel of call?.cancel ?? []) cancel();
    this.calls.delete(bookingId);
  }

  private sendToCall(bookingId: number, message: LiveMessage, except?: number): void {
    const text = JSON.stringify(message);
    for (const [socket, userId] of this.calls.get(bookingId)?.sockets ?? [])
      if (userId !== except && socket.readyState === socket.OPEN) socket.send(text);
  }

  /**
   * A call's message to the others in it here; and, when someone other than the teacher joined or left,
   * news to the teacher's pages (their call page shows whether the next family is waiting).
   */
  private async relay(signalId: number): Promise<void> {
    if (this.sockets.size === 0) return;
    try {
      const signal = await asSystem(() => signalById(this.db, signalId));
      if (!signal) return;
      const bookingId = signal.booking_id;
      const { kind, data } = signal.payload as { kind: 'joined' | 'left' | 'signal'; data?: unknown };
      if (kind !== 'signal' && signal.teacher_id !== null && signal.teacher_id !== signal.from_user)
        this.sendTo(signal.teacher_id, { type: 'call-presence', bookingId });
      if (!this.calls.has(bookingId)) return;
      this.sendToCall(
        bookingId,
        { type: 'call', bookingId, from: signal.from_user, kind, ...(data === undefined ? {} : { data }) },
        signal.from_user,
      );
    } catch (error) {
      this.log.warn(`call signal not relayed: ${(error as Error).message}`);
    }
  }

  private sendTo(userId: number, message: LiveMessage): void {
    const text = JSON.stringify(message);
    for (const socket of this.sockets.get(userId)?.keys() ?? [])
      if (socket.readyState === socket.OPEN) socket.send(text);
  }

  private async recheck(rechecks: Recheck[]): Promise<void> {
    // One after another: a minute's sweep of many sockets is a trickle of lookups, not a burst.
    for (const recheck of rechecks) await recheck();
  }

  private sweepIn(ms: number): () => void {
    return this.clock.setTimeout(() => {
      void this.recheckAll().finally(() => {
        if (!this.closed) this.cancelSweep = this.sweepIn(LIVE_RECHECK_MS);
      });
    }, ms);
  }

  private async tell(timingId: number): Promise<void> {
    if (this.sockets.size === 0) return;
    try {
      const audience = await asSystem(() => timingAudience(this.db, timingId, this.clock.now()));
      if (!audience) return;
      for (const userId of audience.user_ids)
        this.sendTo(userId, { type: 'timing', eventId: audience.event_id });
    } catch (error) {
      // News only: a page that missed it shows the lateness on its next refresh.
      this.log.warn(`live timing not told: ${(error as Error).message}`);
    }
  }
}
