import type { PushAction } from '@parley/domain/push';

// What a push carries, read the same way by the service worker (Web Push, sw/push.ts) and the native
// shell (FCM and APNs, lib/native.ts): { action, title, body, url } (the server's push/push-messages.ts).
// Free of imports at run time: the service worker is built on its own, without the build's pruning of the
// domain's schemas, so taking PUSH_ACTIONS from @parley/domain/push would bring zod (some 100 KB minified) into it.

export type PushMessage = { action: PushAction; title: string; body: string; url: string };

// A Record over the domain's type: TypeScript fails here when PUSH_ACTIONS gains or loses an action.
const ACTIONS: Record<PushAction, true> = {
  refresh_home: true,
  booking: true,
  event_open: true,
  invitation: true,
  reminder: true,
};

export const isPushAction = (value: unknown): value is PushAction =>
  typeof value === 'string' && Object.hasOwn(ACTIONS, value);

// Any origin would do: it only tells an app path from one that leaves the app.
const BASE = 'https://app.invalid';

/**
 * A path of this app, as given, or null. Starting with '/' is not enough: "//host", "/\host" and
 * "/<tab>/host" all resolve to another site (URL parsing drops tabs), so it must stay on the origin.
 */
export function appPath(value: unknown): string | null {
  if (typeof value !== 'string' || !value.startsWith('/')) return null;
  try {
    return new URL(value, BASE).origin === BASE ? value : null;
  } catch {
    return null;
  }
}

/** The push's fields, or null when it is not one of ours (no known action). A foreign url means home. */
export function readPush(data: unknown): PushMessage | null {
  if (typeof data !== 'object' || data === null) return null;
  const value = data as Record<string, unknown>;
  if (!isPushAction(value.action)) return null;
  return {
    action: value.action,
    title: typeof value.title === 'string' ? value.title : '',
    body: typeof value.body === 'string' ? value.body : '',
    url: appPath(value.url) ?? '/home',
  };
}
