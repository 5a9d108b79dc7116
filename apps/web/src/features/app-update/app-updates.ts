import { isNative } from '../../lib/native';

// Registers the service worker (dist/service-worker.js, from src/sw/service-worker.ts) and tells the app
// when a new version of it is installed and waiting. The waiting worker only takes over when the user
// asks (the "Reload" action), then the page reloads onto the new build.

/** How often an open tab asks the server for a new service worker (also on focus and when shown again). */
export const UPDATE_CHECK_INTERVAL_MS = 60 * 60 * 1000;

export const SERVICE_WORKER_URL = '/service-worker.js';

export type AppUpdates = {
  subscribe(listener: () => void): () => void;
  /** A new version is installed and waiting for the user. */
  isReady(): boolean;
  /** Registers and starts watching (once; later calls do nothing). */
  start(): void;
  /** Lets the waiting version take over, then reloads the page. */
  activate(): void;
};

type Options = {
  enabled: boolean;
  container?: () => ServiceWorkerContainer | undefined;
  reload?: () => void;
  target?: Pick<Window, 'addEventListener'> & {
    document: Pick<Document, 'addEventListener' | 'visibilityState'>;
  };
  checkEveryMs?: number;
};

export function createAppUpdates({
  enabled,
  container = () => (typeof navigator !== 'undefined' ? navigator.serviceWorker : undefined),
  reload = () => window.location.reload(),
  target = window,
  checkEveryMs = UPDATE_CHECK_INTERVAL_MS,
}: Options): AppUpdates {
  const listeners = new Set<() => void>();
  let waiting: ServiceWorker | null = null;
  let started = false;
  const setWaiting = (worker: ServiceWorker | null) => {
    if (worker === waiting) return;
    waiting = worker;
    for (const listener of listeners) listener();
  };

  const watch = (workers: ServiceWorkerContainer, registration: ServiceWorkerRegistration) => {
    // Only a worker installed while another controls the page is an update (the first install is not).
    const offer = () => {
      if (registration.waiting && workers.controller) setWaiting(registration.waiting);
    };
    offer();
    registration.addEventListener('updatefound', () => {
      const worker = registration.installing;
      worker?.addEventListener('statechange', () => {
        if (worker.state === 'installed') offer();
      });
    });
    const check = () => {
      registration.update().catch(() => {}); // offline, or the server is restarting: the next check will do
    };
    setInterval(check, checkEveryMs);
    target.addEventListener('focus', check);
    target.document.addEventListener('visibilitychange', () => {
      if (target.document.visibilityState === 'visible') check();
    });
  };

  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    isReady: () => waiting !== null,
    start() {
      const workers = container();
      if (started || !enabled || !workers) return;
      started = true;
      workers
        .register(SERVICE_WORKER_URL, { scope: '/' })
        .then((registration) => watch(workers, registration))
        .catch((error: unknown) => console.warn('Service worker registration failed', error));
    },
    activate() {
      const workers = container();
      const worker = waiting;
      if (!workers || !worker) return reload();
      // Another tab may have let it take over already: then only this page is left to reload.
      if (worker.state === 'activating' || worker.state === 'activated' || worker.state === 'redundant') {
        return reload();
      }
      workers.addEventListener('controllerchange', () => reload(), { once: true });
      worker.postMessage({ type: 'SKIP_WAITING' });
    },
  };
}

/**
 * The app's one instance: production web builds only (the dev server has no service worker, and the
 * native app carries its files with it).
 */
export const appUpdates = createAppUpdates({ enabled: import.meta.env.PROD && !isNative() });
