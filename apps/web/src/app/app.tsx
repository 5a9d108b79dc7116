import { lazy, type ReactNode, StrictMode, Suspense, useEffect, useState } from 'react';
import { BrowserRouter, useNavigate } from 'react-router';
import { onIdle } from '../lib/idle';
import { setNavigate } from '../lib/navigation';
import { AppProviders } from './providers';
import { AppRoutes } from './router';

// The whole app as main.tsx renders it in the browser and scripts/prerender.mjs renders it at build time.

// Navigation from outside React (the API client on a 401, a link that opened the native app): it goes
// through the router's own navigate, handed over as soon as the router renders.
function NavigationBridge() {
  const routerNavigate = useNavigate();
  useEffect(() => {
    setNavigate((path) => void routerNavigate(path));
  }, [routerNavigate]);
  return null;
}

// The "new version" prompt and offline notice are not needed to use the page: they load once it is idle.
const AppUpdateNotices = lazy(() =>
  import('../features/app-update/app-update-notices').then((m) => ({ default: m.AppUpdateNotices })),
);
function WhenIdle({ children }: { children: ReactNode }) {
  const [idle, setIdle] = useState(false);
  useEffect(() => onIdle(() => setIdle(true)), []);
  return idle ? <Suspense fallback={null}>{children}</Suspense> : null;
}

export function App() {
  return (
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
    </StrictMode>
  );
}
