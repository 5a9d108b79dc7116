import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { routeTo } from '@parley/domain/routes';
import { useQuery } from '@tanstack/react-query';
import { Navigate, Link as RouterLink } from 'react-router';
import { PageSkeleton } from '../../../components/page-skeleton';
import { serverMessage } from '../../../lib/api-client';
import { EVENTS_TEXT } from '../../../lib/ui-text';
import { currentEventQuery } from '../api';

/** /events/view/id=current: the server names the current event (nearest enabled, not ended); open it. */
export function CurrentEventPage() {
  const current = useQuery(currentEventQuery);
  if (current.data) return <Navigate to={routeTo('events.view', { id: current.data.id })} replace />;
  if (current.isError) {
    return (
      <Stack spacing={2} sx={{ maxWidth: 560 }}>
        <Alert severity="info">{serverMessage(current.error, EVENTS_TEXT.noCurrent)}</Alert>
        <Box>
          <Button component={RouterLink} to={routeTo('events')} variant="outlined">
            {EVENTS_TEXT.goToEvents}
          </Button>
        </Box>
      </Stack>
    );
  }
  return <PageSkeleton />;
}
