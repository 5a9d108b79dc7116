import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { isTicketedGroup } from '@parley/domain/event-groups';
import type { EventDetail, EventTypeItem } from '@parley/domain/events';
import { routeTo } from '@parley/domain/routes';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { PageSkeleton } from '../../../components/page-skeleton';
import { useSnackbar } from '../../../components/snackbar';
import { ApiError, serverMessage } from '../../../lib/api-client';
import { EVENTS_TEXT } from '../../../lib/ui-text';
import { ActivityCard } from '../../audit/components/activity-card';
import { DoorCard } from '../../tickets/components/door-card';
import { afterEventChange, deleteEvent, eventQuery } from '../api';
import { useConfirmedChange } from './affected-bookings-dialog';
import { BookingsCard } from './bookings-card';
import { DisabledNotice, EventDetailsCard } from './event-details-card';
import { EventSettingsCard } from './event-settings-card';
import { EventStatusChip } from './event-status-chip';
import { MessagesCard } from './messages-card';
import { RecipientsCard } from './recipients-card';
import { ScannersCard } from './scanners-card';
import { SectionsCard } from './sections-card';
import { SetupSteps } from './setup-steps';

const twoColumns = {
  display: 'grid',
  gap: 2,
  gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'repeat(2, minmax(0, 1fr))' },
};

function DeleteEvent({ event }: { event: EventDetail }) {
  const navigate = useNavigate();
  const showSnackbar = useSnackbar();
  const [asking, setAsking] = useState(false);
  const { attempt, dialog } = useConfirmedChange();
  const remove = async () => {
    setAsking(false);
    await attempt(async (confirm) => {
      const result = await deleteEvent(event.id, confirm ? { confirm } : {});
      showSnackbar(result.message, 'success');
      await afterEventChange();
      navigate(routeTo('events'));
      return result;
    }, EVENTS_TEXT.saveFailed);
  };
  return (
    <>
      <Button
        color="error"
        variant="outlined"
        startIcon={<DeleteOutlineIcon />}
        onClick={() => setAsking(true)}
      >
        {EVENTS_TEXT.delete}
      </Button>
      <ConfirmDialog
        open={asking}
        title={EVENTS_TEXT.deleteTitle(event.name)}
        message={EVENTS_TEXT.deleteText}
        confirmLabel={EVENTS_TEXT.deleteConfirm}
        destructive
        onCancel={() => setAsking(false)}
        onConfirm={() => void remove()}
      />
      {dialog}
    </>
  );
}

/** The set-up page of one event: everything an admin needs, in the order it is done. */
export function EventView({ event, eventTypes }: { event: EventDetail; eventTypes: EventTypeItem[] }) {
  return (
    <Stack spacing={2}>
      <Box>
        <Button
          component={RouterLink}
          to={routeTo('events')}
          startIcon={<ArrowBackIcon />}
          size="small"
          sx={{ mb: 1 }}
        >
          {EVENTS_TEXT.backToList}
        </Button>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
          <Typography
            component="h1"
            variant="h5"
            sx={{ fontWeight: 600, minWidth: 0, overflowWrap: 'anywhere' }}
          >
            {event.name}
          </Typography>
          <EventStatusChip status={event.status} />
          <Typography color="text.secondary">{event.eventTypeName}</Typography>
        </Stack>
        {event.sectionTimeLabels.length > 0 ? (
          <Typography variant="body2" color="text.secondary">
            {event.sectionTimeLabels.join(' · ')}
          </Typography>
        ) : null}
      </Box>
      <DisabledNotice event={event} />
      <Paper variant="outlined" sx={{ p: 2 }}>
        <SetupSteps event={event} />
      </Paper>
      <Box sx={twoColumns}>
        <EventDetailsCard event={event} eventTypes={eventTypes} />
        <EventSettingsCard event={event} />
      </Box>
      <SectionsCard event={event} />
      <Box sx={twoColumns}>
        <RecipientsCard event={event} />
        <Stack spacing={2}>
          <MessagesCard event={event} />
          {isTicketedGroup(event.eventTypeGroupInt) ? <ScannersCard event={event} /> : null}
          {isTicketedGroup(event.eventTypeGroupInt) ? <DoorCard eventId={event.id} /> : null}
        </Stack>
      </Box>
      <BookingsCard event={event} />
      <ActivityCard about="event" id={event.id} refreshKey={event} />
      <Box>
        <DeleteEvent event={event} />
      </Box>
    </Stack>
  );
}

/** /events/view/{id}. */
export function EventViewPage() {
  const { id } = useParams();
  const eventId = Number(id);
  const valid = Number.isInteger(eventId) && eventId > 0;
  const showSnackbar = useSnackbar();
  const view = useQuery({ ...eventQuery(eventId), enabled: valid });

  useEffect(() => {
    if (view.isError && !(view.error instanceof ApiError && view.error.status === 404)) {
      showSnackbar(serverMessage(view.error, EVENTS_TEXT.detailFailed), 'error');
    }
  }, [view.isError, view.error, showSnackbar]);

  if (!valid || (view.error instanceof ApiError && view.error.status === 404)) {
    return (
      <Stack spacing={2} sx={{ maxWidth: 560 }}>
        <Alert severity="warning">{EVENTS_TEXT.notFound}</Alert>
        <Box>
          <Button component={RouterLink} to={routeTo('events')} startIcon={<ArrowBackIcon />}>
            {EVENTS_TEXT.backToList}
          </Button>
        </Box>
      </Stack>
    );
  }
  if (!view.data) return <PageSkeleton />;
  return <EventView event={view.data.event} eventTypes={view.data.eventTypes} />;
}
