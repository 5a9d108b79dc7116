import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './app/providers';
import { createAppRouter } from './app/router';
import { AppUpdateNotices } from './features/app-update/app-update-notices';
import { bootstrapSession } from './features/auth/api';
import { installNativeShell } from './lib/native';
import { setNavigate } from './lib/navigation';

const router = createAppRouter();
setNavigate((path) => {
  void router.navigate(path);
});
void bootstrapSession();
// Native app only (a no-op in a browser): back button, links that open the app, status bar.
installNativeShell({ navigate: (path) => void router.navigate(path) });

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

createRoot(container).render(
  <StrictMode>
    <AppProviders>
      <RouterProvider router={router} />
      <AppUpdateNotices />
    </AppProviders>
  </StrictMode>,
);
