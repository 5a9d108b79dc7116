import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './app/providers';
import { createAppRouter } from './app/router';
import { bootstrapSession } from './features/auth/api';
import { setNavigate } from './lib/navigation';

const router = createAppRouter();
setNavigate((path) => {
  void router.navigate(path);
});
void bootstrapSession();

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

createRoot(container).render(
  <StrictMode>
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
