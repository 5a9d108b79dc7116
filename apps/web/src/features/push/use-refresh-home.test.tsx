import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { siteIndexQuery } from '../home/api';
import { useRefreshHomeOnPush } from './use-refresh-home';

// spec §4: a push with action refresh_home refreshes home. The service worker posts { type: 'refresh_home' }
// to the page (sw/push.ts); the page's listener refetches the home query.

let container: EventTarget;

beforeEach(() => {
  // jsdom has no service workers: the container is the one thing stood in for, an EventTarget like it.
  container = new EventTarget();
  Object.defineProperty(navigator, 'serviceWorker', { value: container, configurable: true });
});
afterEach(() => {
  cleanup();
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

function Home({ load }: { load: () => Promise<string> }) {
  useRefreshHomeOnPush();
  const home = useQuery({
    queryKey: siteIndexQuery.queryKey,
    queryFn: load,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return <p>{home.data ?? 'loading'}</p>;
}

const post = (data: unknown) =>
  act(async () => void container.dispatchEvent(new MessageEvent('message', { data })));

describe('useRefreshHomeOnPush', () => {
  it('refetches home on refresh_home only, and stops listening when unmounted', async () => {
    let loads = 0;
    const load = async () => `home ${++loads}`;
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const view = render(
      <QueryClientProvider client={client}>
        <Home load={load} />
      </QueryClientProvider>,
    );
    expect(await screen.findByText('home 1')).toBeTruthy();

    await post({ type: 'SKIP_WAITING' });
    await post('refresh_home');
    expect(loads).toBe(1);

    await post({ type: 'refresh_home' });
    expect(await screen.findByText('home 2')).toBeTruthy();

    view.unmount();
    await post({ type: 'refresh_home' });
    expect(loads).toBe(2);
  });
});
