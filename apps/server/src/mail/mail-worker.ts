import type { Db } from '../db/database';
import {
  claimDueMail,
  type Lease,
  markFailedAttempt,
  markSent,
  type OutboxTable,
  releaseLeases,
} from './outbox.repository';
import type { MailTransport } from './transport';

const BATCH = 10;
const LEASE_SECONDS = 120;
const MAX_ATTEMPTS = 12;

/** Exponential backoff: 10 s, 20 s, 40 s … capped at 30 minutes (11 waits, about 2 h 13 min, before giving up). */
export function retryDelaySeconds(attempts: number): number | null {
  if (attempts >= MAX_ATTEMPTS) return null;
  return Math.min(10 * 2 ** (attempts - 1), 1800);
}

/** The wait before a failed row's next attempt, by attempts made (null: give up). */
export type RetryDelay = (attempts: number) => number | null;

/** One outbox's side of a pass: how its rows are claimed and handed over. */
export type OutboxChannel<Row extends Lease> = {
  table: OutboxTable;
  claim(limit: number, leaseSeconds: number): Promise<Row[]>;
  /**
   * Hands the row over; rejects to retry it with backoff. `signal` aborts before the lease ends. 'gone':
   * the row went with what it was for (a push whose subscription was dropped), neither sent nor failed.
   */
  send(row: Row, signal: AbortSignal): Promise<unknown>;
};

/**
 * Sends what is due in one outbox; returns how many were sent. Safe to run in several processes at once.
 *
 * A row is only sent under a live lease: once the lease ends another worker may claim it and send it
 * too. So each send is cut off (AbortSignal) a tenth of the lease before it ends, a send is not started
 * with less than a quarter of the lease left (the rest of the batch goes back, uncounted, for the next
 * claim), and a failure is recorded only by the worker still holding the row's lease (decision 004).
 */
export async function drainOutbox<Row extends Lease>(
  db: Db,
  channel: OutboxChannel<Row>,
  leaseSeconds = LEASE_SECONDS,
  retryDelay: RetryDelay = retryDelaySeconds,
): Promise<number> {
  const leaseMs = leaseSeconds * 1000;
  let sent = 0;
  for (;;) {
    // Measured on this process's monotonic clock from before the claim, the lease can only end later than
    // `cutoff` on the database's clock: no two clocks need to agree.
    const cutoff = performance.now() + leaseMs * 0.9;
    const batch = await channel.claim(BATCH, leaseSeconds);
    if (batch.length === 0) return sent;
    // UPDATE … RETURNING has no order: send in the order the rows were written.
    const queue = batch.sort((a, b) => a.id - b.id);
    for (let index = 0; index < queue.length; index++) {
      const row = queue[index] as Row;
      const left = cutoff - performance.now();
      if (left < leaseMs / 4) {
        await releaseLeases(db, queue.slice(index), channel.table);
        if (index === 0) return sent; // the claim itself took most of the lease: try again next tick
        break;
      }
      const lease: Lease = { id: row.id, attempts: row.attempts };
      try {
        if ((await channel.send(row, AbortSignal.timeout(Math.floor(left)))) === 'gone') continue;
        await markSent(db, row.id, channel.table);
        sent += 1;
      } catch (error) {
        await markFailedAttempt(
          db,
          lease,
          {
            error: error instanceof Error ? error.message : String(error),
            retryInSeconds: retryDelay(row.attempts),
          },
          channel.table,
        );
      }
    }
  }
}

/** Sends the due mail; returns how many were sent (decision 004). */
export function sendDueMail(
  db: Db,
  transport: MailTransport,
  leaseSeconds = LEASE_SECONDS,
  retryDelay: RetryDelay = retryDelaySeconds,
): Promise<number> {
  return drainOutbox(
    db,
    {
      table: 'mail_outbox',
      claim: (limit, lease) => claimDueMail(db, limit, lease),
      send: (mail, signal) =>
        transport.send(
          {
            to: mail.to_address,
            subject: mail.subject,
            text: mail.text_body,
            html: mail.html_body,
            messageId: `<outbox-${mail.id}@parley>`,
            links: mail.links,
            attachments: mail.attachments,
          },
          signal,
        ),
    },
    leaseSeconds,
    retryDelay,
  );
}

/** Runs `pass` every `intervalMs` until stopped; a failed pass (database down) is reported and retried. */
export function startPolling(
  pass: () => Promise<unknown>,
  intervalMs: number,
  onError: (error: unknown) => void,
): { stop(): Promise<void> } {
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    running = pass()
      .catch(onError)
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs);
      });
  };
  timer = setTimeout(tick, 0);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

/** Polls the outbox until stopped. One failed pass (database down) is logged and retried next tick. */
export function startMailWorker(input: {
  db: Db;
  transport: MailTransport;
  intervalMs: number;
  onError: (error: unknown) => void;
  /** The lease of each claimed mail (LEASE_SECONDS); the fault tests shorten it. */
  leaseSeconds?: number;
  /** The backoff after a failure (retryDelaySeconds); the fault tests shorten it, as they do the lease. */
  retryDelay?: RetryDelay;
}): { stop(): Promise<void> } {
  const polling = startPolling(
    () => sendDueMail(input.db, input.transport, input.leaseSeconds, input.retryDelay),
    input.intervalMs,
    input.onError,
  );
  return {
    async stop() {
      await polling.stop();
      input.transport.close();
    },
  };
}
