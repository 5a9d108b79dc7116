import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProviders } from '../app/providers';
import { appRoutes } from '../app/router';
import { setNavigate } from '../lib/navigation';

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
