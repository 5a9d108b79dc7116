import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProviders } from '../app/providers';
import { appRoutes, preloadAllScreens } from '../app/router';
import { preloadTimesStep } from '../features/booking/components/pt-booking-flow';
import { setNavigate } from '../lib/navigation';

// The app loads each layout and screen with its own chunk, the booking flow its times step while the
// steps before it are shown, and the login form its schema on its first check (lib/lazy-resolver.ts); a
// test takes them all in first.
await Promise.all([
  preloadAllScreens(),
  preloadTimesStep(),
  import('@hookform/resolvers/zod'),
  import('@parley/domain/auth'),
]);

/** The whole app (providers, router, route table) at a path, as screen tests drive it. */
export function renderAt(path: string) {
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  setNavigate((to) => {
    void router.navigate(to);
  });
  render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}
