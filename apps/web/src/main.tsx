// First: React's behaviours that Preact lacks, in place before anything renders (decision 019).
import './lib/preact-parity';
import { lazy, type ReactNode, StrictMode, Suspense, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, useNavigate } from 'react-router';
import { AppProviders } from './app/providers';
import { AppRoutes, preloadPage } from './app/router';
import { bootstrapSession } from './features/auth/api';
import { setNavigate } from './lib/navigation';
import { getSession } from './lib/session';

// The page's own layout and screen start downloading now, beside the session check.
const session = getSession();
preloadPage({
  pathname: window.location.pathname,
  search: window.location.search,
  hash: window.location.hash,
  loggedIn: session.token !== null,
  isAdmin: session.user ? session.user.isAdmin : null,
});
void bootstrapSession();

// Navigation from outside React (the API client on a 401, a link that opened the native app): it goes
// through the router's own navigate, handed over as soon as the router renders.
let navigate: (path: string) => void = (path) => window.location.assign(path);
function NavigationBridge() {
  const routerNavigate = useNavigate();
  useEffect(() => {
    navigate = (path) => void routerNavigate(path);
    setNavigate(navigate);
  }, [routerNavigate]);
  return null;
}

// Native app only: back button, links that open the app, status bar. The native bridge is in place before
// any script runs (it is what @capacitor/core checks), so a browser never downloads Capacitor.
const bridge = window as { androidBridge?: unknown; webkit?: { messageHandlers?: { bridge?: unknown } } };
if (bridge.androidBridge || bridge.webkit?.messageHandlers?.bridge) {
  void import('./lib/native').then(({ installNativeShell }) =>
    installNativeShell({ navigate: (path) => navigate(path) }),
  );
}

// The "new version" prompt and offline notice are not needed to use the page: they load once it is idle.
const AppUpdateNotices = lazy(() =>
  import('./features/app-update/app-update-notices').then((m) => ({ default: m.AppUpdateNotices })),
);
function WhenIdle({ children }: { children: ReactNode }) {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    const show = () => setIdle(true);
    if ('requestIdleCallback' in window) {
      const id = window.requestIdleCallback(show, { timeout: 5000 });
      return () => window.cancelIdleCallback(id);
    }
    const id = setTimeout(show, 2000);
    return () => clearTimeout(id);
  }, []);
  return idle ? <Suspense fallback={null}>{children}</Suspense> : null;
}

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

createRoot(container).render(
  <StrictMode>
    <AppProviders>
      <BrowserRouter>
        <NavigationBridge />
        <AppRoutes />
      </BrowserRouter>
      <WhenIdle>
        <AppUpdateNotices />
      </WhenIdle>
    </AppProviders>
  </StrictMode>,
);
