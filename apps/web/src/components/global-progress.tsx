import { useIsFetching, useIsMutating } from '@tanstack/react-query';
import { Suspense, useState, useSyncExternalStore } from 'react';
import { lazyComponent } from './lazy-component';

// Spec §2: a progress bar shows while loading (any request in flight, or an explicit flag).

/**
 * MUI's LinearProgress, fetched the first time the bar shows: a page that has loaded its data (a
 * prerendered login form, a booking link) does not carry it (decision 019).
 */
const LinearProgress = lazyComponent(() => import('@mui/material/LinearProgress').then((m) => m.default));

const subscribeToNothing = () => () => undefined;

/**
 * False while React hydrates a rendered page, true once it has (and in a page rendered afresh). The page's
 * renderer draws no bar, so a bar drawn during hydration (the session still being checked) would not match
 * the markup: React would throw the page away and draw it again, and a tap held for it would be lost.
 */
function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}

export function GlobalProgress({
  active = false,
  label = 'Loading',
}: {
  active?: boolean;
  label?: string | undefined;
}) {
  const fetching = useIsFetching();
  const mutating = useIsMutating();
  const visible = useHydrated() && (active || fetching > 0 || mutating > 0);
  // Once shown it stays mounted (hidden when idle), so the next request does not fetch or mount it again.
  const [shown, setShown] = useState(visible);
  if (visible && !shown) setShown(true);
  if (!shown) return null;
  return (
    <Suspense fallback={null}>
      <LinearProgress
        aria-label={label}
        sx={{
          position: 'fixed',
          top: 0,
          left: 0,
          right: 0,
          height: 3,
          zIndex: (theme) => theme.zIndex.appBar + 1,
          visibility: visible ? 'visible' : 'hidden',
        }}
        variant="indeterminate"
      />
    </Suspense>
  );
}
