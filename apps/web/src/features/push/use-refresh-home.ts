import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { siteIndexQuery } from '../home/api';

// spec §4: "A push notification with action refresh_home triggers a refresh-home event on the page".
// The service worker (sw/push.ts) posts { type: 'refresh_home' } to open pages; home is refetched.

export function isRefreshHome(data: unknown): boolean {
  return (data as { type?: unknown } | null)?.type === 'refresh_home';
}

/** Listens while mounted; does nothing where there are no service workers. */
export function useRefreshHomeOnPush(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const container = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker;
    if (!container) return;
    const onMessage = (event: MessageEvent) => {
      if (isRefreshHome(event.data))
        void queryClient.invalidateQueries({ queryKey: siteIndexQuery.queryKey });
    };
    container.addEventListener('message', onMessage);
    return () => container.removeEventListener('message', onMessage);
  }, [queryClient]);
}
