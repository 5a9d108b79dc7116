import type { PushPayload } from '@parley/domain/push';
import webPush from 'web-push';
import type { Db } from '../db/database';
import type { PushChannel } from '../db/schema';
import { drainOutbox, startPolling } from '../mail/mail-worker';
import { forgetOldSignals } from '../modules/live/calls.service';
import { queueNextUpNotices } from '../modules/live/timing.service';
import { queueDayBeforeReminders, type ReminderSender } from '../modules/reminders/day-before.service';
import type { NativeSender } from './fcm-sender';
import { claimDuePush, deleteSubscription, markDelivered } from './push.repository';
import type { PushGuard } from './push-guard';
import { postToPushService } from './push-transport';
import type { VapidKeys } from './vapid';

type DuePush = Awaited<ReturnType<typeof claimDuePush>>[number];

/** The native channels' senders a deployment has (push/native-senders.ts): FCM, APNs, either or none. */
export type NativeSenders = Partial<Record<Exclude<PushChannel, 'web'>, NativeSender>>;

/** Where the worker sends: Web Push's keys and guard, and the native senders configured. */
export type PushChannels = {
  keys: () => Promise<VapidKeys>;
  guard: PushGuard;
  native?: NativeSenders;
};

/**
 * Hands one push to its push service. web-push encrypts it (RFC 8291, aes128gcm) and signs the VAPID
 * header; the request itself goes through the guard (push-transport.ts), cut off by the lease's signal
 * like a mail. A subscription the guard no longer allows (stored before the rule, or PUSH_SERVICE_HOSTS
 * narrowed since) is dropped unsent; one the push service no longer knows (404, 410) ends too: the row
 * and its queue go. A redirect is not followed: it fails like any other answer.
 */
async function deliverWeb(
  db: Db,
  keys: VapidKeys,
  guard: PushGuard,
  push: DuePush,
  signal: AbortSignal,
): Promise<'sent' | 'gone'> {
  if (guard.endpointProblem(push.endpoint) !== undefined || push.p256dh === null || push.auth === null) {
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
 * Hands one push to a phone's push service (FCM, APNs). A token the service no longer knows ends its
 * subscription; a channel this deployment has no sender for fails the push (kept, tried again with
 * backoff, so a sender configured later still delivers it within its lifetime).
 */
async function deliverNative(
  db: Db,
  sender: NativeSender | undefined,
  push: DuePush,
  signal: AbortSignal,
): Promise<'sent' | 'gone'> {
  if (!sender) throw new Error(`no sender is configured for ${push.channel} pushes`);
  const outcome = await sender(
    push.endpoint,
    { payload: push.payload as PushPayload, ttlSeconds: push.ttl_seconds, urgency: push.urgency },
    signal,
  );
  if (outcome === 'gone') await deleteSubscription(db, push.subscription_id);
  else await markDelivered(db, push.subscription_id);
  return outcome;
}

/**
 * Sends the due pushes under the mail outbox's lease rules (decision 004); returns how many were sent.
 * `channels.guard` says where Web Push may go: pushGuard(config.pushServiceHosts) in the server.
 */
export function sendDuePush(db: Db, channels: PushChannels, leaseSeconds?: number): Promise<number> {
  return drainOutbox(
    db,
    {
      table: 'push_outbox',
      claim: (limit, lease) => claimDuePush(db, limit, lease),
      send: async (push, signal) =>
        push.channel === 'web'
          ? deliverWeb(db, await channels.keys(), channels.guard, push, signal)
          : deliverNative(db, channels.native?.[push.channel], push, signal),
    },
    leaseSeconds,
  );
}

/** How often the sweeps run (day-before reminders, "you're next"): due to the minute, not the second. */
export const REMINDER_SWEEP_MS = 60_000;

/**
 * Polls the push outbox until stopped, in whatever scope it was started in (main.ts: system); once a
 * minute it first queues the day-before reminders that fell due (mails and pushes) and each family's
 * "you're next" (live timing), and forgets the signalling of video calls long over.
 */
export function startPushWorker(input: {
  db: Db;
  channels: PushChannels;
  /** Who the day-before reminder mails say they are from, and where their links go. */
  reminders: ReminderSender;
  intervalMs: number;
  onError: (error: unknown) => void;
  leaseSeconds?: number;
}): { stop(): Promise<void> } {
  let lastSweep = 0;
  return startPolling(
    async () => {
      if (Date.now() - lastSweep >= REMINDER_SWEEP_MS) {
        await queueDayBeforeReminders(input.db, input.reminders);
        await queueNextUpNotices(input.db, new Date());
        await forgetOldSignals(input.db, new Date());
        lastSweep = Date.now();
      }
      return sendDuePush(input.db, input.channels, input.leaseSeconds);
    },
    input.intervalMs,
    input.onError,
  );
}
