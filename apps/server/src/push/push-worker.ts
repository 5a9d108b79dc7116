import webPush from 'web-push';
import type { Db } from '../db/database';
import { drainOutbox, startPolling } from '../mail/mail-worker';
import { claimDuePush, claimDueReminders, deleteSubscription, markDelivered } from './push.repository';
import type { PushGuard } from './push-guard';
import { pushDayBeforeReminders } from './push-messages';
import { postToPushService } from './push-transport';
import type { VapidKeys } from './vapid';

type DuePush = Awaited<ReturnType<typeof claimDuePush>>[number];

/**
 * Hands one push to its push service. web-push encrypts it (RFC 8291, aes128gcm) and signs the VAPID
 * header; the request itself goes through the guard (push-transport.ts), cut off by the lease's signal
 * like a mail. A subscription the guard no longer allows (stored before the rule, or PUSH_SERVICE_HOSTS
 * narrowed since) is dropped unsent; one the push service no longer knows (404, 410) ends too: the row
 * and its queue go. A redirect is not followed: it fails like any other answer.
 */
async function deliver(
  db: Db,
  keys: VapidKeys,
  guard: PushGuard,
  push: DuePush,
  signal: AbortSignal,
): Promise<'sent' | 'gone'> {
  if (guard.endpointProblem(push.endpoint) !== undefined) {
    await deleteSubscription(db, push.subscription_id);
    return 'gone';
  }
  const request = webPush.generateRequestDetails(
    { endpoint: push.endpoint, keys: { p256dh: push.p256dh, auth: push.auth } },
    JSON.stringify(push.payload),
    {
      TTL: push.ttl_seconds,
      urgency: push.urgency,
      vapidDetails: keys,
      contentEncoding: 'aes128gcm',
    },
  );
  const status = await postToPushService(
    guard,
    {
      endpoint: request.endpoint,
      method: request.method,
      headers: request.headers as Record<string, string | number>,
      body: request.body ?? null,
    },
    signal,
  );
  if (status === 404 || status === 410) {
    await deleteSubscription(db, push.subscription_id);
    return 'gone';
  }
  if (status >= 300 && status < 400)
    throw new Error(`push service answered ${status}: a redirect, not followed`);
  if (status < 200 || status >= 300) throw new Error(`push service answered ${status}`);
  await markDelivered(db, push.subscription_id);
  return 'sent';
}

/**
 * Sends the due pushes under the mail outbox's lease rules (decision 004); returns how many were sent.
 * `guard` says where they may go: pushGuard(config.pushServiceHosts) in the server.
 */
export function sendDuePush(
  db: Db,
  keys: () => Promise<VapidKeys>,
  guard: PushGuard,
  leaseSeconds?: number,
): Promise<number> {
  return drainOutbox(
    db,
    {
      table: 'push_outbox',
      claim: (limit, lease) => claimDuePush(db, limit, lease),
      send: async (push, signal) => deliver(db, await keys(), guard, push, signal),
    },
    leaseSeconds,
  );
}

const REMINDER_BATCH = 200;
/** How often the day-before sweep runs: reminders are due to the minute, not the second. */
export const REMINDER_SWEEP_MS = 60_000;

/**
 * Queues the day-before reminders now due, a batch per transaction (claimed and enqueued together, so a
 * crash between them loses nothing and a second instance finds them taken); returns how many bookings.
 */
export async function queueDueReminders(db: Db, now = new Date()): Promise<number> {
  let total = 0;
  for (;;) {
    const batch = await db.transaction().execute(async (trx) => {
      const due = await claimDueReminders(trx, now, REMINDER_BATCH);
      await pushDayBeforeReminders(trx, due);
      return due.length;
    });
    total += batch;
    if (batch < REMINDER_BATCH) return total;
  }
}

/**
 * Polls the push outbox until stopped, in whatever scope it was started in (main.ts: system); once a
 * minute it first queues the reminders that fell due.
 */
export function startPushWorker(input: {
  db: Db;
  keys: () => Promise<VapidKeys>;
  guard: PushGuard;
  intervalMs: number;
  onError: (error: unknown) => void;
  leaseSeconds?: number;
}): { stop(): Promise<void> } {
  let lastSweep = 0;
  return startPolling(
    async () => {
      if (Date.now() - lastSweep >= REMINDER_SWEEP_MS) {
        await queueDueReminders(input.db);
        lastSweep = Date.now();
      }
      return sendDuePush(input.db, input.keys, input.guard, input.leaseSeconds);
    },
    input.intervalMs,
    input.onError,
  );
}
