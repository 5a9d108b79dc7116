import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { BookingEvent, BookingViewer } from '@parley/domain/booking';
import { BOOKING_UI } from '../booking-text';

/** Small print under the times: every time on the page is the school's wall clock. */
export function TimeZoneNote({ timeZone }: { timeZone: string }) {
  return (
    <Typography variant="caption" color="text.secondary" component="p" data-testid="time-zone-note">
      {BOOKING_UI.timeZone(timeZone)}
    </Typography>
  );
}

/** The event's name, school, dates, the school's message and when bookings close (or why they are not open). */
export function BookingHeader({ event, viewer }: { event: BookingEvent; viewer: BookingViewer | null }) {
  return (
    <Card variant="outlined">
      <CardContent sx={{ p: { xs: 2, md: 3 }, '&:last-child': { pb: { xs: 2, md: 3 } } }}>
        <Stack spacing={1}>
          <Box>
            <Typography variant="overline" color="text.secondary" component="p" sx={{ lineHeight: 1.6 }}>
              {event.subscriberName}
            </Typography>
            <Typography component="h1" variant="h5" sx={{ fontWeight: 600 }}>
              {event.name}
            </Typography>
          </Box>
          {event.sectionTimeLabels.length > 0 ? (
            <Box component="ul" sx={{ m: 0, pl: 0, listStyle: 'none' }} aria-label="Dates">
              {event.sectionTimeLabels.map((label) => (
                <Typography key={label} component="li" variant="body1">
                  {label}
                </Typography>
              ))}
            </Box>
          ) : null}
          <TimeZoneNote timeZone={event.timeZone} />
          {event.bookingPageMessage ? (
            <Typography variant="body2" sx={{ whiteSpace: 'pre-line' }}>
              {event.bookingPageMessage}
            </Typography>
          ) : null}
          {event.isOpen && event.closesAtLabel ? (
            <Typography variant="body2" color="text.secondary">
              {BOOKING_UI.closes(event.closesAtLabel)}
            </Typography>
          ) : null}
          {!event.isOpen && event.closedReason ? <Alert severity="info">{event.closedReason}</Alert> : null}
          {viewer ? (
            <Typography variant="body2" color="text.secondary">
              {BOOKING_UI.bookingAs(viewer.name)}
              {viewer.viaLink ? ` (${BOOKING_UI.viaLink})` : ''}
            </Typography>
          ) : null}
        </Stack>
      </CardContent>
    </Card>
  );
}
