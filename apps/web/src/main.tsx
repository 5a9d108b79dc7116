import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { isPrerendered, takeOverPrerendered } from './app/prerendered';
import { preloadPage } from './app/router';
import { bootstrapSession } from './features/auth/api';
import { HOME_QUERY_KEY } from './features/home/home-query-key';
import { onIdle } from './lib/idle';
import { navigateTo } from './lib/navigation';
import { queryClient } from './lib/query-client';
import { getSession } from './lib/session';

// The page's own layout and screen start downloading now, beside the session check.
const session = getSession();
const pageLoaded = preloadPage({
  pathname: window.location.pathname,
  search: window.location.search,
  hash: window.location.hash,
  loggedIn: session.token !== null,
  isAdmin: session.user ? session.user.isAdmin : null,
});
void bootstrapSession();

// Native app only: back button, links that open the app, pushes, status bar. The native bridge is in place
// before any script runs (it is what @capacitor/core checks), so a browser never downloads Capacitor.
const bridge = window as { androidBridge?: unknown; webkit?: { messageHandlers?: { bridge?: unknown } } };
if (bridge.androidBridge || bridge.webkit?.messageHandlers?.bridge) {
  void import('./lib/native').then(({ installNativeShell }) =>
    installNativeShell({
      navigate: navigateTo,
      // As on the web (features/push/use-refresh-home.ts): an open home refetches in place. By the bare
      // key: the home query's module would otherwise split off from the home page into a chunk of its own.
      refreshHome: () => void queryClient.invalidateQueries({ queryKey: HOME_QUERY_KEY }),
    }),
  );
}

// The live channel (a teacher running late reaches the open pages at once), once the page is idle.
onIdle(() => void import('./features/live/live-updates').then(({ startLiveUpdates }) => startLiveUpdates()));

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');
if (isPrerendered(container)) {
  void takeOverPrerendered(container, pageLoaded, <App />);
  // The service worker (offline start, installability), registered once the page is idle, as the app
  // would once its idle notices load (start is once only).
  onIdle(() => void import('./features/app-update/app-updates').then(({ appUpdates }) => appUpdates.start()));
} else createRoot(container).render(<App />);
