import LinearProgress from '@mui/material/LinearProgress';
import { useIsFetching, useIsMutating } from '@tanstack/react-query';

// Spec §2: a progress bar shows while loading (any request in flight, or an explicit flag).
export function GlobalProgress({ active = false }: { active?: boolean }) {
  const fetching = useIsFetching();
  const mutating = useIsMutating();
  const visible = active || fetching > 0 || mutating > 0;
  return (
    <LinearProgress
      aria-label="Loading"
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
  );
}
