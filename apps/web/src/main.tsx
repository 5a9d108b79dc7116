import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { isPrerendered, takeOverPrerendered } from './app/prerendered';
import { preloadPage } from './app/router';
import { bootstrapSession } from './features/auth/api';
import { onIdle } from './lib/idle';
import { navigateTo } from './lib/navigation';
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

// Native app only: back button, links that open the app, status bar. The native bridge is in place before
// any script runs (it is what @capacitor/core checks), so a browser never downloads Capacitor.
const bridge = window as { androidBridge?: unknown; webkit?: { messageHandlers?: { bridge?: unknown } } };
if (bridge.androidBridge || bridge.webkit?.messageHandlers?.bridge) {
  void import('./lib/native').then(({ installNativeShell }) => installNativeShell({ navigate: navigateTo }));
}

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');
if (isPrerendered(container)) {
  void takeOverPrerendered(container, pageLoaded, <App />);
  // The service worker (offline start, installability), registered once the page is idle, as the app
  // would once its idle notices load (start is once only).
  onIdle(() => void import('./features/app-update/app-updates').then(({ appUpdates }) => appUpdates.start()));
} else createRoot(container).render(<App />);
