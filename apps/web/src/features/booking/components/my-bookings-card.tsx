import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { MyBooking } from '@parley/domain/booking';
import type { BookingLateNote } from '@parley/domain/live-schemas';
import { SectionCard } from '../../../components/section-card';
import { BOOKING_UI } from '../booking-text';
import { BookingList } from './booking-list';

type Props = {
  bookings: readonly MyBooking[];
  /** Bookings can be changed now (the event is open). */
  canChange: boolean;
  onChange: (booking: MyBooking) => void;
  onCancel: (booking: MyBooking) => void;
  /** On the night: the bookings whose teacher runs late, with their expected times. */
  lateNotes?: readonly BookingLateNote[];
  /** Each booking's video call, for an event held by video. */
  callOf?: (booking: MyBooking) => string | null;
};

/** "My bookings": always on the page for a known viewer, with Change and Cancel while bookings are open. */
export function MyBookingsCard({ bookings, canChange, onChange, onCancel, lateNotes = [], callOf }: Props) {
  const live = bookings.filter((booking) => booking.status === 'booked');
  return (
    <SectionCard title={BOOKING_UI.myBookings}>
      {live.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {BOOKING_UI.noBookings}
        </Typography>
      ) : (
        <BookingList
          bookings={live}
          label={BOOKING_UI.myBookings}
          {...(callOf && { callOf })}
          noteOf={(booking) => lateNotes.find((note) => note.bookingId === booking.id)?.text ?? null}
          actions={
            canChange
              ? (booking) => (
                  <>
                    <Button size="small" variant="outlined" onClick={() => onChange(booking)}>
                      {BOOKING_UI.change}
                    </Button>
                    <Button size="small" color="error" onClick={() => onCancel(booking)}>
                      {BOOKING_UI.cancel}
                    </Button>
                  </>
                )
              : undefined
          }
        />
      )}
    </SectionCard>
  );
}
