import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import { LIST_TEXT } from '../lib/ui-text';

/** Placeholder while a detail page loads. */
export function PageSkeleton() {
  return (
    <Stack spacing={2} role="status" aria-busy="true" aria-label={LIST_TEXT.loading}>
      <Skeleton variant="text" width={240} height={40} />
      <Skeleton variant="rounded" height={220} />
      <Skeleton variant="rounded" height={160} />
    </Stack>
  );
}
