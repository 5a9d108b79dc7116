/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { registerPushHandlers } from './push';

// Parley's service worker (built by vite-plugin-pwa's injectManifest into dist/service-worker.js). It keeps the app
// shell (the build's JS, CSS, fonts, icons and index.html) so the app opens without a network. API answers
// are never cached here: the data cache is TanStack Query's persisted cache in the page.

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: Array<{ url: string; revision: string | null }>;
};

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// The first install takes the open page at once (its bundles are this build's), so it works offline
// without a second visit. An update only activates when the page asks, and that page then reloads.
clientsClaim();

// Navigations go to the network first: the server gives every page a fresh CSP nonce and names the newest
// bundles. Only without a network does the cached index.html answer (the app then says it is offline).
const appShell = createHandlerBoundToURL('/index.html');
registerRoute(
  new NavigationRoute(
    async (options) => {
      try {
        return await fetch(options.request);
      } catch {
        return appShell(options);
      }
    },
    { denylist: [/^\/api(\/|$)/] },
  ),
);

// A new version waits until the page asks (its "Reload" action): a tab is never switched under the user.
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

registerPushHandlers(self);
