import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { MyBooking } from '@parley/domain/booking';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { BOOKING_UI } from '../booking-text';

/** "Mr Smith · Alice · Maths": who the appointment is with, for whom, about what. */
export function bookingWho(booking: MyBooking): string {
  return [booking.teacherName, booking.studentName, booking.subjectName].filter(Boolean).join(' · ');
}

/**
 * One appointment: time (the school's label), teacher, child, subject, place or video link, guests, gown,
 * and on the night, whether its teacher runs late (`note`).
 */
export function BookingSummary({
  booking,
  isNew = false,
  note = null,
  callTo = null,
}: {
  booking: MyBooking;
  isNew?: boolean;
  note?: string | null;
  /** The booking's video call in Parley (an event held by video). */
  callTo?: string | null;
}) {
  const who = bookingWho(booking);
  const extras = [
    booking.guests > 0 ? BOOKING_UI.guestsValue(booking.guests) : null,
    booking.gownSize ? `${BOOKING_UI.gownSize}: ${booking.gownSize}` : null,
  ].filter(Boolean);
  return (
    <Box sx={{ minWidth: 0 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Typography sx={{ fontWeight: 600 }}>{booking.timeLabel}</Typography>
        {isNew ? <Chip label={BOOKING_UI.newBadge} color="success" size="small" /> : null}
      </Stack>
      {who ? <Typography variant="body2">{who}</Typography> : null}
      {note ? (
        <Typography variant="body2" role="status" sx={{ color: 'warning.main', fontWeight: 600 }}>
          {note}
        </Typography>
      ) : null}
      {booking.location ? (
        <Typography variant="body2" color="text.secondary">
          {booking.location}
        </Typography>
      ) : null}
      {callTo ? (
        <Link component={RouterLink} to={callTo} variant="body2" sx={{ display: 'block', fontWeight: 600 }}>
          {BOOKING_UI.joinCall}
        </Link>
      ) : null}
      {booking.videoUrl ? (
        <Link href={booking.videoUrl} target="_blank" rel="noopener noreferrer" variant="body2">
          {BOOKING_UI.videoLink}
        </Link>
      ) : null}
      {extras.length > 0 ? (
        <Typography variant="body2" color="text.secondary">
          {extras.join(' · ')}
        </Typography>
      ) : null}
    </Box>
  );
}

type Props = {
  bookings: readonly MyBooking[];
  label: string;
  newIds?: readonly number[];
  /** Buttons for one booking (Change, Cancel), or nothing. */
  actions?: (booking: MyBooking) => ReactNode;
  /** A line for one booking (its teacher running late), or null. */
  noteOf?: (booking: MyBooking) => string | null;
  /** The booking's video call, for an event held by video. */
  callOf?: (booking: MyBooking) => string | null;
};

/** A list of appointments, each with its actions. */
export function BookingList({ bookings, label, newIds = [], actions, noteOf, callOf }: Props) {
  return (
    <Box component="ul" aria-label={label} sx={{ m: 0, p: 0, listStyle: 'none' }}>
      {bookings.map((booking) => (
        <Box
          component="li"
          key={booking.id}
          sx={{
            py: 1.25,
            display: 'flex',
            flexWrap: 'wrap',
            gap: 1,
            alignItems: 'center',
            justifyContent: 'space-between',
            borderTop: 1,
            borderColor: 'divider',
            '&:first-of-type': { borderTop: 0 },
          }}
        >
          <BookingSummary
            booking={booking}
            isNew={newIds.includes(booking.id)}
            note={noteOf?.(booking) ?? null}
            callTo={callOf?.(booking) ?? null}
          />
          {actions ? (
            <Stack direction="row" spacing={1}>
              {actions(booking)}
            </Stack>
          ) : null}
        </Box>
      ))}
    </Box>
  );
}
