import AddIcon from '@mui/icons-material/Add';
import EditCalendarIcon from '@mui/icons-material/EditCalendar';
import EventBusyIcon from '@mui/icons-material/EventBusy';
import PlaceIcon from '@mui/icons-material/PlaceOutlined';
import VideocamIcon from '@mui/icons-material/VideocamOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type BookingPage, MY_EVENTS_TEXT, type MyBooking } from '@parley/domain/booking';
import { callPath } from '@parley/domain/routes';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { PageHeading } from '../../../components/page-heading';
import { PageSkeleton } from '../../../components/page-skeleton';
import { useSnackbar } from '../../../components/snackbar';
import { serverMessage } from '../../../lib/api-client';
import { afterBookingChange, bookingViewQuery, rememberCurrentEvent, removeBooking } from '../api';
import {
  bookingFacts,
  canChangeBookings,
  eventLocations,
  liveBookings,
  loadFailedText,
} from '../details-logic';
import { DETAILS_TEXT, MY_BOOKINGS_TEXT } from '../my-events-text';
import { DetailsProblem } from './details-states';
import { useEventId } from './use-event-id';

function EventHeader({ page }: { page: BookingPage }) {
  const { event } = page;
  const locations = eventLocations(event);
  return (
    <Box>
      <PageHeading>{event.name}</PageHeading>
      <Typography color="text.secondary" sx={{ mt: -1.5 }}>
        {event.subscriberName}
      </Typography>
      {event.sectionTimeLabels.map((label) => (
        <Typography key={label} variant="body2">
          {label}
        </Typography>
      ))}
      {locations.length > 0 ? (
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', color: 'text.secondary', mt: 0.5 }}>
          <PlaceIcon sx={{ fontSize: 18 }} />
          <Typography variant="body2">{locations.join(' · ')}</Typography>
        </Stack>
      ) : null}
      {event.bookingPageMessage ? (
        <Typography variant="body2" sx={{ mt: 1, whiteSpace: 'pre-line' }}>
          {event.bookingPageMessage}
        </Typography>
      ) : null}
    </Box>
  );
}

type BookingCardProps = {
  booking: MyBooking;
  bookingPath: string | null;
  onCancel: ((booking: MyBooking) => void) | null;
  /** On the night: its teacher running late, with the expected time. */
  note: string | null;
  /** Its video call in Parley, for an event held by video. */
  callTo: string | null;
};

function BookingCard({ booking, bookingPath, onCancel, note, callTo }: BookingCardProps) {
  const titleId = useId();
  return (
    <Card component="li" variant="outlined" aria-labelledby={titleId}>
      <CardContent sx={{ pb: 1 }}>
        <Typography id={titleId} component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
          {booking.timeLabel}
        </Typography>
        {note ? (
          <Typography variant="body2" role="status" sx={{ color: 'warning.main', fontWeight: 600, mb: 0.5 }}>
            {note}
          </Typography>
        ) : null}
        <Box
          component="dl"
          sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.25, m: 0 }}
        >
          {bookingFacts(booking).map((fact) => (
            <Box key={fact.label} sx={{ display: 'contents' }}>
              <Typography component="dt" variant="body2" color="text.secondary">
                {fact.label}
              </Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0 }}>
                {fact.value}
              </Typography>
            </Box>
          ))}
        </Box>
        {callTo ? (
          <Button
            variant="contained"
            size="small"
            startIcon={<VideocamIcon />}
            component={RouterLink}
            to={callTo}
            sx={{ mt: 1 }}
          >
            {MY_BOOKINGS_TEXT.joinCall}
          </Button>
        ) : null}
        {booking.videoUrl ? (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mt: 1 }}>
            <VideocamIcon fontSize="small" color="action" />
            <Link href={booking.videoUrl} target="_blank" rel="noopener noreferrer" variant="body2">
              {MY_BOOKINGS_TEXT.joinVideo}
            </Link>
          </Stack>
        ) : null}
      </CardContent>
      {bookingPath || onCancel ? (
        <CardActions sx={{ px: 1.5, pb: 1.5 }}>
          {bookingPath ? (
            <Button size="small" startIcon={<EditCalendarIcon />} component={RouterLink} to={bookingPath}>
              {MY_BOOKINGS_TEXT.change}
            </Button>
          ) : null}
          {onCancel ? (
            <Button
              size="small"
              color="error"
              startIcon={<EventBusyIcon />}
              onClick={() => onCancel(booking)}
            >
              {MY_BOOKINGS_TEXT.cancel}
            </Button>
          ) : null}
        </CardActions>
      ) : null}
    </Card>
  );
}

/** The family's bookings of one event: change or cancel them while bookings are open. */
export function MyBookings({ page }: { page: BookingPage }) {
  const showSnackbar = useSnackbar();
  const headingId = useId();
  const { event } = page;
  const bookings = liveBookings(page.bookings);
  const open = canChangeBookings(event);
  const [cancelling, setCancelling] = useState<MyBooking | null>(null);
  const [pending, setPending] = useState(false);

  const confirmCancel = async () => {
    if (!cancelling) return;
    setPending(true);
    try {
      const result = await removeBooking(event.id, cancelling.id);
      showSnackbar(result.message, 'success');
      setCancelling(null);
      await afterBookingChange(event.id);
    } catch (error) {
      showSnackbar(serverMessage(error, MY_BOOKINGS_TEXT.cancelFailed), 'error');
    } finally {
      setPending(false);
    }
  };

  return (
    <Stack spacing={2}>
      <EventHeader page={page} />
      {open || !event.closedReason ? null : <Alert severity="info">{event.closedReason}</Alert>}
      <Stack component="section" aria-labelledby={headingId} spacing={1.5}>
        <Typography id={headingId} component="h2" variant="h6" sx={{ fontWeight: 600 }}>
          {MY_BOOKINGS_TEXT.heading}
        </Typography>
        {bookings.length === 0 ? (
          <Stack spacing={1.5} sx={{ alignItems: 'flex-start' }}>
            <Typography color="text.secondary">{MY_EVENTS_TEXT.noBookings}</Typography>
            {open ? (
              <Button
                variant="contained"
                startIcon={<AddIcon />}
                component={RouterLink}
                to={event.bookingPath}
              >
                {MY_BOOKINGS_TEXT.bookNow}
              </Button>
            ) : null}
          </Stack>
        ) : (
          <Box
            component="ul"
            aria-labelledby={headingId}
            sx={{
              display: 'grid',
              gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'repeat(2, minmax(0, 1fr))' },
              gap: { xs: 1, md: 2 },
              listStyle: 'none',
              p: 0,
              m: 0,
            }}
          >
            {bookings.map((booking) => (
              <BookingCard
                key={booking.id}
                booking={booking}
                bookingPath={open ? event.bookingPath : null}
                onCancel={open ? setCancelling : null}
                note={page.lateNotes.find((late) => late.bookingId === booking.id)?.text ?? null}
                callTo={event.meetingMode === 'video' ? callPath(booking.id) : null}
              />
            ))}
          </Box>
        )}
      </Stack>
      <ConfirmDialog
        open={cancelling !== null}
        title={MY_BOOKINGS_TEXT.cancelTitle}
        message={MY_BOOKINGS_TEXT.cancelText(
          [cancelling?.timeLabel, cancelling?.teacherName].filter(Boolean).join(' with ') || '',
        )}
        confirmLabel={MY_BOOKINGS_TEXT.cancelConfirm}
        cancelLabel={MY_BOOKINGS_TEXT.keepBooking}
        destructive
        pending={pending}
        onCancel={() => setCancelling(null)}
        onConfirm={() => void confirmCancel()}
      />
    </Stack>
  );
}

/** /event/details-parent|student?eventId and /events/view-parent|student-event/{id}. */
export function MyBookingsPage() {
  const eventId = useEventId();
  const view = useQuery({ ...bookingViewQuery(eventId ?? 0), enabled: eventId !== null });

  const loaded = view.data?.event;
  useEffect(() => {
    if (loaded) rememberCurrentEvent(loaded);
  }, [loaded]);

  if (eventId === null) return <DetailsProblem message={DETAILS_TEXT.noEvent} />;
  if (view.data) return <MyBookings page={view.data} />;
  if (view.isError)
    return <DetailsProblem message={loadFailedText(view.error, MY_BOOKINGS_TEXT.loadFailed)} />;
  return <PageSkeleton />;
}
