import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { BOOKING_TEXT, type BookingResult, type BookingViewer, type MyBooking } from '@parley/domain/booking';
import { BOOKING_UI } from '../booking-text';
import { BookingList } from './booking-list';

type Props = {
  result: BookingResult;
  /** The family's bookings now (they may have changed since: a cancel, another tab). */
  bookings: readonly MyBooking[];
  viewer: BookingViewer;
  timeZone: string;
  onChangeBookings?: () => void;
};

/** Step 4: "Booking confirmed.", the appointments, and the note that a mail with a calendar file was sent. */
export function ConfirmationStep({ result, bookings, viewer, timeZone, onChangeBookings }: Props) {
  const live = bookings.filter((booking) => booking.status === 'booked');
  return (
    <Stack spacing={2}>
      <Alert severity="success" role="status">
        <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
          {result.message || BOOKING_TEXT.booked}
        </Typography>
      </Alert>
      {live.length > 0 ? (
        <BookingList bookings={live} label={BOOKING_UI.myBookings} newIds={result.created} />
      ) : null}
      <Typography variant="caption" color="text.secondary">
        {BOOKING_UI.timeZone(timeZone)}
      </Typography>
      <Typography variant="body2">
        {viewer.email ? BOOKING_UI.confirmationMail(viewer.email) : BOOKING_UI.confirmationMailNoAddress}
      </Typography>
      {onChangeBookings ? (
        <Stack direction="row">
          <Button variant="outlined" onClick={onChangeBookings}>
            {BOOKING_UI.changeBookings}
          </Button>
        </Stack>
      ) : null}
    </Stack>
  );
}
