import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { LOAD_TEST_LIMITS, type LoadTestEvent, type LoadTestRun } from '@parley/domain/load-test';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { PageHeading } from '../../../components/page-heading';
import { PageSkeleton } from '../../../components/page-skeleton';
import { SectionCard } from '../../../components/section-card';
import { ApiError, serverMessage } from '../../../lib/api-client';
import { queryClient } from '../../../lib/query-client';
import { loadTestEventsQuery, loadTestStatusQuery, startLoadTest } from '../api';
import { figureTiles, whole } from '../load-test-logic';
import { RushChart } from './rush-chart';

/** /load-test (admin): "will my evening hold?" — rehearse an event's opening rush, watch it, read the verdict. */
export function LoadTestPage() {
  const events = useQuery(loadTestEventsQuery);
  const status = useQuery(loadTestStatusQuery);
  const run = status.data?.run ?? null;
  return (
    <Box sx={{ maxWidth: 880 }}>
      <PageHeading>Load test</PageHeading>
      <Typography variant="body1" sx={{ mb: 2 }} color="text.secondary">
        Will your evening hold? Rehearse an event’s opening rush before you invite families: simulated parents
        book a hidden copy of the event through the real booking system. Nobody is mailed, nothing appears in
        your lists, and every simulated booking and family is removed afterwards.
      </Typography>
      {events.isError ? (
        <Alert severity="error">
          {serverMessage(events.error, 'Could not load your events. Please try again.')}
        </Alert>
      ) : !events.data || status.isPending ? (
        <PageSkeleton />
      ) : (
        <Stack spacing={2}>
          <StartCard events={events.data.events} running={run?.status === 'running'} />
          {run && <RunCard run={run} />}
        </Stack>
      )}
    </Box>
  );
}

const eventLabel = (event: LoadTestEvent) =>
  `${event.name} — ${event.teachers > 0 ? `${event.teachers} teachers, ` : ''}${whole(event.slots)} slots`;

function StartCard({ events, running }: { events: LoadTestEvent[]; running: boolean }) {
  const usable = events.filter((event) => event.slots > 0 && !event.over);
  const [eventId, setEventId] = useState<number | ''>(usable[0]?.id ?? '');
  const [parents, setParents] = useState(String(LOAD_TEST_LIMITS.defaultParents));
  const count = Number(parents);
  const countError =
    !Number.isInteger(count) || count < LOAD_TEST_LIMITS.minParents || count > LOAD_TEST_LIMITS.maxParents
      ? `Enter a whole number from ${LOAD_TEST_LIMITS.minParents} to ${whole(LOAD_TEST_LIMITS.maxParents)}.`
      : null;
  const start = useMutation({
    mutationFn: () => startLoadTest(Number(eventId), count),
    onSuccess: (answer) => queryClient.setQueryData(loadTestStatusQuery.queryKey, { run: answer.run }),
  });
  return (
    <SectionCard title="Rehearse an event">
      {usable.length === 0 ? (
        <Alert severity="info">
          None of your events can be rehearsed yet: an event needs times to book (its sections) and must not
          have taken place.
        </Alert>
      ) : (
        <Box
          component="form"
          noValidate
          onSubmit={(submitted) => {
            submitted.preventDefault();
            if (!countError && eventId !== '') start.mutate();
          }}
        >
          <Box
            sx={{
              display: 'grid',
              gridTemplateColumns: { xs: '1fr', md: '2fr 1fr auto' },
              gap: 2,
              alignItems: 'start',
            }}
          >
            <TextField
              select
              label="Event"
              value={eventId}
              onChange={(changed) => setEventId(Number(changed.target.value))}
              sx={{ minWidth: 0 }}
              slotProps={{ select: { inputProps: { 'data-testid': 'load-test-event' } } }}
            >
              {events.map((event) => (
                <MenuItem key={event.id} value={event.id} disabled={event.slots === 0 || event.over}>
                  {eventLabel(event)}
                  {event.over ? ' (over)' : event.slots === 0 ? ' (no times yet)' : ''}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              label="Simulated parents"
              type="number"
              value={parents}
              onChange={(changed) => setParents(changed.target.value)}
              error={countError !== null}
              helperText={countError ?? `Up to ${whole(LOAD_TEST_LIMITS.maxParents)}`}
              sx={{ minWidth: 0 }}
              slotProps={{
                htmlInput: { min: LOAD_TEST_LIMITS.minParents, max: LOAD_TEST_LIMITS.maxParents, step: 1 },
              }}
            />
            <Button
              type="submit"
              variant="contained"
              size="large"
              disabled={start.isPending || running || countError !== null || eventId === ''}
              sx={{ mt: { md: 0.5 } }}
            >
              {running ? 'Rehearsal running…' : 'Start rehearsal'}
            </Button>
          </Box>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
            Each simulated parent books up to {LOAD_TEST_LIMITS.appointmentsPerParent} teachers (one time at
            other events). A rehearsal stops after {LOAD_TEST_LIMITS.maxSeconds} seconds at most and books a
            few at a time, so other schools are never slowed; one rehearsal runs at a time.
          </Typography>
          {start.isError && (
            <Alert
              severity={start.error instanceof ApiError && start.error.status === 409 ? 'warning' : 'error'}
              sx={{ mt: 2 }}
              role="alert"
            >
              {serverMessage(start.error, 'Could not start the rehearsal. Please try again.')}
            </Alert>
          )}
        </Box>
      )}
    </SectionCard>
  );
}

function verdictTitle(run: LoadTestRun): string {
  if (run.status === 'failed') return 'The rehearsal did not finish';
  if (run.integrity?.ok === false) return 'Problems found';
  if (run.figures.stoppedAtLimit) return 'Stopped at the time limit';
  return 'Your evening held';
}

const STATUS_CHIP = {
  running: { label: 'Running', color: 'info' },
  finished: { label: 'Finished', color: 'success' },
  failed: { label: 'Failed', color: 'error' },
} as const;

function RunCard({ run }: { run: LoadTestRun }) {
  const chip = STATUS_CHIP[run.status];
  const { figures, integrity } = run;
  const progress = run.parents > 0 ? (figures.parentsDone / run.parents) * 100 : 0;
  return (
    <SectionCard
      title={`Rehearsal: ${run.eventName}`}
      action={<Chip size="small" label={chip.label} color={chip.color} data-testid="load-test-status" />}
    >
      {run.status === 'running' && (
        <Box sx={{ mb: 2 }}>
          <LinearProgress
            variant={figures.attempts === 0 ? 'indeterminate' : 'determinate'}
            value={progress}
            aria-label="Simulated parents done"
          />
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }} aria-live="polite">
            {figures.attempts === 0
              ? `Preparing ${whole(run.parents)} simulated families…`
              : `${whole(figures.parentsDone)} of ${whole(run.parents)} parents done, ${figures.seconds.toFixed(0)} s`}
          </Typography>
        </Box>
      )}
      {run.summary && (
        <Alert
          severity={
            run.status === 'failed' || integrity?.ok === false
              ? 'error'
              : figures.stoppedAtLimit
                ? 'warning'
                : 'success'
          }
          sx={{ mb: 2 }}
          data-testid="load-test-summary"
        >
          <AlertTitle>{verdictTitle(run)}</AlertTitle>
          {run.summary}
        </Alert>
      )}
      <Box
        component="dl"
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: 'repeat(2, 1fr)', md: 'repeat(3, 1fr)' },
          gap: 1.5,
          m: 0,
          mb: 2,
        }}
      >
        {figureTiles(run).map((tile) => (
          <Box key={tile.label} sx={{ p: 1.5, borderRadius: 1, bgcolor: 'action.hover' }}>
            <Typography component="dt" variant="caption" color="text.secondary">
              {tile.label}
            </Typography>
            <Typography component="dd" variant="h6" sx={{ m: 0, fontWeight: 600 }}>
              {tile.value}
            </Typography>
          </Box>
        ))}
      </Box>
      <RushChart series={figures.series} seconds={figures.seconds} />
      {run.status !== 'running' && (
        <Box sx={{ mt: 2 }} data-testid="load-test-integrity">
          <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600, mb: 0.5 }}>
            Integrity check
          </Typography>
          {integrity ? (
            <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
              <Check ok={integrity.doubleBookings === 0}>
                {integrity.doubleBookings === 0
                  ? 'No double bookings'
                  : `${whole(integrity.doubleBookings)} double bookings`}
              </Check>
              <Check ok={integrity.overCapacity === 0 && integrity.countDrift === 0}>
                {integrity.overCapacity === 0 && integrity.countDrift === 0
                  ? 'Every slot within its capacity'
                  : `${whole(integrity.overCapacity)} slots over capacity, ${whole(integrity.countDrift)} miscounted`}
              </Check>
              <Check ok={integrity.bookingsInDatabase === figures.bookings}>
                {`${whole(integrity.bookingsInDatabase)} bookings in the database for ${whole(figures.bookings)} confirmed`}
              </Check>
            </Box>
          ) : (
            <Typography variant="body2">Not run: the rehearsal stopped before its check.</Typography>
          )}
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {run.cleanedUp
              ? 'Every simulated family, booking and the event’s copy have been removed.'
              : 'Removing the simulated families and bookings…'}
          </Typography>
        </Box>
      )}
    </SectionCard>
  );
}

function Check({ ok, children }: { ok: boolean; children: string }) {
  return (
    <Typography component="li" variant="body2" sx={{ color: ok ? 'success.main' : 'error.main' }}>
      {ok ? '✓ ' : '✗ '}
      {children}
    </Typography>
  );
}
