/// <reference lib="webworker" />

import { type PushMessage, readPush } from '../lib/push-message';

// The push side of the service worker (issue 12). A push carries { action, title, body, url }, read by
// lib/push-message.ts as the native shell reads it. `refresh_home` (spec §4) shows nothing: open pages are
// told to refresh home. Anything else is shown as a notification, and open pages refresh home too (what it
// announces changed it). A click focuses a Parley window on the push's url, or opens one.

/** The message a page listens for (features/push/use-refresh-home.ts). */
export const REFRESH_HOME_MESSAGE = { type: 'refresh_home' } as const;

const ICON = '/icons/icon-192.png';

/** The payload as JSON, or null when it is not one of ours (an empty or foreign push). */
export function parsePush(text: string | undefined): PushMessage | null {
  if (!text) return null;
  try {
    return readPush(JSON.parse(text));
  } catch {
    return null;
  }
}

async function tellPages(sw: ServiceWorkerGlobalScope): Promise<void> {
  const pages = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const page of pages) page.postMessage(REFRESH_HOME_MESSAGE);
}

export function registerPushHandlers(sw: ServiceWorkerGlobalScope): void {
  sw.addEventListener('push', (event) => {
    const message = parsePush(event.data?.text());
    if (!message) return;
    const work =
      message.action === 'refresh_home'
        ? tellPages(sw)
        : Promise.all([
            sw.registration.showNotification(message.title, {
              body: message.body,
              icon: ICON,
              data: { url: message.url },
            }),
            tellPages(sw),
          ]);
    event.waitUntil(work);
  });

  sw.addEventListener('notificationclick', (event) => {
    event.notification.close();
    const path = (event.notification.data as { url?: string } | null)?.url ?? '/home';
    const target = new URL(path, sw.location.origin).href;
    event.waitUntil(
      (async () => {
        const pages = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true });
        const page = pages.find((client) => new URL(client.url).origin === sw.location.origin);
        if (page) {
          const focused = await page.focus();
          await focused.navigate(target);
          return;
        }
        await sw.clients.openWindow(target);
      })(),
    );
  });
}
