import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, screen } from '@testing-library/react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { GlobalProgress } from './global-progress';

/** A page with the bar, as a signed-in home is rendered (session checked) and hydrated (still checking). */
function Page({ checking }: { checking: boolean }) {
  return (
    <QueryClientProvider client={new QueryClient()}>
      <GlobalProgress active={checking} />
      <button type="button">Show Ticket</button>
    </QueryClientProvider>
  );
}

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  cleanup();
  document.body.innerHTML = '';
});

describe('GlobalProgress', () => {
  it('hydrates a page rendered without it while the session is checked, keeping its elements, then shows', async () => {
    const container = document.createElement('div');
    container.innerHTML = renderToString(<Page checking={false} />);
    document.body.append(container);
    const button = screen.getByRole('button', { name: 'Show Ticket' });
    const mismatches: unknown[] = [];

    await act(async () => {
      root = hydrateRoot(container, <Page checking />, {
        onRecoverableError: (error) => mismatches.push(error),
      });
    });

    // Kept, not drawn again: a tap held for this button before the app ran still finds it.
    expect(mismatches).toEqual([]);
    expect(screen.getByRole('button', { name: 'Show Ticket' })).toBe(button);
    expect(button.isConnected).toBe(true);
    // Then, hydrated, the bar shows while the session is checked.
    expect(await screen.findByRole('progressbar', { name: 'Loading' })).toBeTruthy();
  });
});
