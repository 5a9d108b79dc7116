import type { Db } from '../db/database';
import { claimDueMail, markFailedAttempt, markSent } from './outbox.repository';
import type { MailTransport } from './transport';

const BATCH = 10;
const LEASE_SECONDS = 120;
const MAX_ATTEMPTS = 12;

/** Exponential backoff: 10 s, 20 s, 40 s … capped at 30 minutes (11 waits, about 2 h 13 min, before giving up). */
export function retryDelaySeconds(attempts: number): number | null {
  if (attempts >= MAX_ATTEMPTS) return null;
  return Math.min(10 * 2 ** (attempts - 1), 1800);
}

/** Sends what is due; returns how many were sent. Safe to run in several processes at once. */
export async function sendDueMail(db: Db, transport: MailTransport): Promise<number> {
  let sent = 0;
  for (;;) {
    const batch = await claimDueMail(db, BATCH, LEASE_SECONDS);
    if (batch.length === 0) return sent;
    // UPDATE … RETURNING has no order: send in the order the mails were written.
    for (const mail of batch.sort((a, b) => a.id - b.id)) {
      try {
        await transport.send({
          to: mail.to_address,
          subject: mail.subject,
          text: mail.text_body,
          html: mail.html_body,
          messageId: `<outbox-${mail.id}@parley>`,
          links: mail.links,
          attachments: mail.attachments,
        });
        await markSent(db, mail.id);
        sent += 1;
      } catch (error) {
        await markFailedAttempt(db, mail.id, {
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
}): { stop(): Promise<void> } {
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    running = sendDueMail(input.db, input.transport)
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
