import { z } from './zod';

// Web Push contracts (issue 12; spec §4 "A push notification with action refresh_home triggers a
// refresh-home event on the page").

/** What the service worker receives. `refresh_home` shows nothing: it only refreshes an open home. */
export const PUSH_ACTIONS = ['refresh_home', 'booking', 'event_open', 'invitation', 'reminder'] as const;
export type PushAction = (typeof PUSH_ACTIONS)[number];

export const pushPayload = z.object({
  action: z.enum(PUSH_ACTIONS),
  title: z.string(),
  body: z.string(),
  url: z.string(),
});
export type PushPayload = z.infer<typeof pushPayload>;

/** GET site/push-key: the VAPID public key a browser subscribes with (applicationServerKey). */
export const pushKeyResponse = z.object({ publicKey: z.string() });

/** base64url of exactly `bytes` bytes (padding optional): a P-256 point is 65, an auth secret 16. */
const base64urlOf = (bytes: number, what: string) => {
  const length = Math.ceil((bytes * 4) / 3);
  return z
    .string()
    .regex(new RegExp(`^[A-Za-z0-9_-]{${length}}=*$`), `Must be ${what}, base64url`)
    .max(length + 2);
};

/** A PushSubscription as the browser's toJSON() gives it. */
export const pushSubscriptionRequest = z.object({
  endpoint: z.string().url().max(2048),
  keys: z.object({
    p256dh: base64urlOf(65, 'the 65-byte P-256 public key'),
    auth: base64urlOf(16, 'the 16-byte auth secret'),
  }),
});
export type PushSubscriptionRequest = z.infer<typeof pushSubscriptionRequest>;

export const removePushSubscriptionRequest = z.object({ endpoint: z.string().min(1).max(2048) });

/**
 * POST users/register-token (spec §7 Device): the native app's push token, and the platform it came from
 * (Android: a Firebase Cloud Messaging token; iOS: an APNs device token, hex). Without a platform, a token of
 * 64 hex digits is taken for an iPhone's.
 */
export const deviceTokenRequest = z.strictObject({
  deviceToken: z.string().min(1).max(4096),
  platform: z.enum(['android', 'ios']).optional(),
});
export type DeviceTokenRequest = z.infer<typeof deviceTokenRequest>;

/** The push channel of a device token: 'fcm' or 'apns', or null when it is not a token of that kind. */
export function deviceTokenChannel(request: DeviceTokenRequest): 'fcm' | 'apns' | null {
  const ios = request.platform ? request.platform === 'ios' : /^[0-9a-f]{64}$/i.test(request.deviceToken);
  if (ios) return /^[0-9a-f]{64,200}$/i.test(request.deviceToken) ? 'apns' : null;
  return /^[\w:.-]+$/.test(request.deviceToken) ? 'fcm' : null;
}

/** Which pushes a user gets (Settings; the group `push` of groupedSettings). */
export const PUSH_SETTINGS_DEFAULTS = {
  bookings: true,
  eventOpening: true,
  invitations: true,
  reminders: true,
} as const;
