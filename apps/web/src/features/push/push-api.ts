import type { PUSH_SETTINGS_DEFAULTS } from '@parley/domain/push';
import { api } from '../../lib/api-client';

// Web Push in the page (issue 12): this device's subscription, made with the server's VAPID key and
// registered for the signed-in user. Permission is asked only when the user turns push on in Settings.

export type PushKind = keyof typeof PUSH_SETTINGS_DEFAULTS;

/** Push needs a service worker, the Push API and notifications (iOS Safari: only once installed). */
export function pushSupported(): boolean {
  return (
    typeof navigator !== 'undefined' &&
    'serviceWorker' in navigator &&
    typeof window !== 'undefined' &&
    'PushManager' in window &&
    'Notification' in window
  );
}

/** The VAPID key as PushManager wants it (applicationServerKey). */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function registration(): Promise<ServiceWorkerRegistration> {
  return navigator.serviceWorker.ready;
}

export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  return (await registration()).pushManager.getSubscription();
}

/** Asks permission, subscribes with the server's key and registers the subscription for this user. */
export async function enablePush(): Promise<boolean> {
  if (!pushSupported()) return false;
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return false;
  const { publicKey } = await api.get<{ publicKey: string }>('site/push-key');
  const manager = (await registration()).pushManager;
  const subscription =
    (await manager.getSubscription()) ??
    (await manager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
  const json = subscription.toJSON();
  await api.post('user/push-subscription', {
    endpoint: subscription.endpoint,
    keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
  });
  return true;
}

export async function disablePush(): Promise<void> {
  const subscription = await currentSubscription();
  if (!subscription) return;
  await api.post('user/remove-push-subscription', { endpoint: subscription.endpoint });
  await subscription.unsubscribe();
}
