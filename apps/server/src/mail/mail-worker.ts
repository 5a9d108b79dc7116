import type { Db } from '../db/database';
import { claimDueMail, type Lease, markFailedAttempt, markSent, releaseLeases } from './outbox.repository';
import type { MailTransport } from './transport';

const BATCH = 10;
const LEASE_SECONDS = 120;
const MAX_ATTEMPTS = 12;

/** Exponential backoff: 10 s, 20 s, 40 s … capped at 30 minutes (11 waits, about 2 h 13 min, before giving up). */
export function retryDelaySeconds(attempts: number): number | null {
  if (attempts >= MAX_ATTEMPTS) return null;
  return Math.min(10 * 2 ** (attempts - 1), 1800);
}

/**
 * Sends what is due; returns how many were sent. Safe to run in several processes at once.
 *
 * A mail is only sent under a live lease: once the lease ends another worker may claim the row and send
 * it too. So each send is cut off (AbortSignal) a tenth of the lease before it ends, a send is not started
 * with less than a quarter of the lease left (the rest of the batch goes back, uncounted, for the next
 * claim), and a failure is recorded only by the worker still holding the row's lease (decision 004).
 */
export async function sendDueMail(
  db: Db,
  transport: MailTransport,
  leaseSeconds = LEASE_SECONDS,
): Promise<number> {
  const leaseMs = leaseSeconds * 1000;
  let sent = 0;
  for (;;) {
    // Measured on this process's monotonic clock from before the claim, the lease can only end later than
    // `cutoff` on the database's clock: no two clocks need to agree.
    const cutoff = performance.now() + leaseMs * 0.9;
    const batch = await claimDueMail(db, BATCH, leaseSeconds);
    if (batch.length === 0) return sent;
    // UPDATE … RETURNING has no order: send in the order the mails were written.
    const queue = batch.sort((a, b) => a.id - b.id);
    for (let index = 0; index < queue.length; index++) {
      const mail = queue[index] as (typeof queue)[number];
      const left = cutoff - performance.now();
      if (left < leaseMs / 4) {
        await releaseLeases(db, queue.slice(index));
        if (index === 0) return sent; // the claim itself took most of the lease: try again next tick
        break;
      }
      const lease: Lease = { id: mail.id, attempts: mail.attempts };
      try {
        await transport.send(
          {
            to: mail.to_address,
            subject: mail.subject,
            text: mail.text_body,
            html: mail.html_body,
            messageId: `<outbox-${mail.id}@parley>`,
            links: mail.links,
            attachments: mail.attachments,
          },
          AbortSignal.timeout(Math.floor(left)),
        );
        await markSent(db, mail.id);
        sent += 1;
      } catch (error) {
        await markFailedAttempt(db, lease, {
          error: error instanceof Error ? error.message : String(error),
          retryInSeconds: retryDelaySeconds(mail.attempts),
        });
      }
    }
  }
}

/** Polls the outbox until stopped. One failed pass (database down) is logged and retried next tick. */
export function startMailWorker(input: {
  db: Db;
  transport: MailTransport;
  intervalMs: number;
  onError: (error: unknown) => void;
  /** The lease of each claimed mail (LEASE_SECONDS); the fault tests shorten it. */
  leaseSeconds?: number;
}): { stop(): Promise<void> } {
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    running = sendDueMail(input.db, input.transport, input.leaseSeconds)
      .catch(input.onError)
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, input.intervalMs);
      });
  };
  timer = setTimeout(tick, 0);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      input.transport.close();
    },
  };
}
