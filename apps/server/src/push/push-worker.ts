import webPush from 'web-push';
import type { Db } from '../db/database';
import { drainOutbox, startPolling } from '../mail/mail-worker';
import { claimDuePush, deleteSubscription, markDelivered } from './push.repository';
import type { VapidKeys } from './vapid';

type DuePush = Awaited<ReturnType<typeof claimDuePush>>[number];

/**
 * Hands one push to its push service. web-push encrypts it (RFC 8291, aes128gcm) and signs the VAPID
 * header; the request itself goes through fetch so it is cut off by the lease's signal like a mail.
 * A push service that no longer knows the subscription (404, 410) ends it: the row and its queue go.
 */
async function deliver(db: Db, keys: VapidKeys, push: DuePush, signal: AbortSignal): Promise<void> {
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
  const response = await fetch(request.endpoint, {
    method: request.method,
    headers: request.headers as Record<string, string>,
    body: request.body ? new Uint8Array(request.body) : null,
    signal,
  });
  await response.body?.cancel();
  if (response.status === 404 || response.status === 410) {
    await deleteSubscription(db, push.subscription_id);
    return;
  }
  if (!response.ok) throw new Error(`push service answered ${response.status}`);
  await markDelivered(db, push.subscription_id);
}

/** Sends the due pushes under the mail outbox's lease rules (decision 004); returns how many left. */
export function sendDuePush(db: Db, keys: () => Promise<VapidKeys>, leaseSeconds?: number): Promise<number> {
  return drainOutbox(
    db,
    {
      table: 'push_outbox',
      claim: (limit, lease) => claimDuePush(db, limit, lease),
      send: async (push, signal) => deliver(db, await keys(), push, signal),
    },
    leaseSeconds,
  );
}

/** Polls the push outbox until stopped, in whatever scope it was started in (main.ts: system). */
export function startPushWorker(input: {
  db: Db;
  keys: () => Promise<VapidKeys>;
  intervalMs: number;
  onError: (error: unknown) => void;
  leaseSeconds?: number;
}): { stop(): Promise<void> } {
  return startPolling(
    () => sendDuePush(input.db, input.keys, input.leaseSeconds),
    input.intervalMs,
    input.onError,
  );
}
