import DownloadIcon from '@mui/icons-material/Download';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { EVENT_GROUPS, type EventDetail } from '@parley/domain/events';
import { useState } from 'react';
import { SectionCard } from '../../../components/section-card';
import { useSnackbar } from '../../../components/snackbar';
import { serverMessage } from '../../../lib/api-client';
import { EVENTS_TEXT } from '../../../lib/ui-text';
import { downloadBookings } from '../api';

/** The bookings of the event and "Download bookings" (CSV, local times, opens in Excel). */
export function BookingsCard({ event }: { event: EventDetail }) {
  const showSnackbar = useSnackbar();
  const [downloading, setDownloading] = useState(false);
  const group = event.eventTypeGroupInt;
  const withTeacher = group === EVENT_GROUPS.parentTeacher;
  const withGuests = group === EVENT_GROUPS.ticketed || group === EVENT_GROUPS.ceremony;
  const withGown = group === EVENT_GROUPS.ceremony;

  const download = async () => {
    setDownloading(true);
    try {
      await downloadBookings(event.id);
    } catch (error) {
      showSnackbar(serverMessage(error, EVENTS_TEXT.downloadFailed), 'error');
    } finally {
      setDownloading(false);
    }
  };

  const c = EVENTS_TEXT.bookingColumns;
  return (
    <SectionCard
      title={`${EVENTS_TEXT.bookingsTitle} (${event.bookingCountForEvent})`}
      action={
        <Button
          variant="outlined"
          size="small"
          startIcon={<DownloadIcon />}
          onClick={() => void download()}
          loading={downloading}
          sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
        >
          {EVENTS_TEXT.download}
        </Button>
      }
    >
      {event.bookings.length === 0 ? (
        <Typography color="text.secondary">{EVENTS_TEXT.noBookings}</Typography>
      ) : (
        <TableContainer sx={{ maxHeight: 420 }}>
          <Table size="small" stickyHeader aria-label={EVENTS_TEXT.bookingsTitle}>
            <TableHead>
              <TableRow>
                <TableCell>{c.time}</TableCell>
                {withTeacher ? <TableCell>{c.teacher}</TableCell> : null}
                <TableCell>{c.parent}</TableCell>
                <TableCell>{c.student}</TableCell>
                {withTeacher ? <TableCell>{c.subject}</TableCell> : null}
                {withGuests ? <TableCell align="right">{c.guests}</TableCell> : null}
                {withGown ? <TableCell>{c.gown}</TableCell> : null}
                <TableCell>{c.status}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {event.bookings.map((booking) => (
                <TableRow key={booking.id}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{booking.timeLabel}</TableCell>
                  {withTeacher ? <TableCell>{booking.teacherName ?? '—'}</TableCell> : null}
                  <TableCell>{booking.parentName ?? '—'}</TableCell>
                  <TableCell>{booking.studentName ?? '—'}</TableCell>
                  {withTeacher ? <TableCell>{booking.subjectName ?? '—'}</TableCell> : null}
                  {withGuests ? <TableCell align="right">{booking.guests}</TableCell> : null}
                  {withGown ? <TableCell>{booking.gownSize ?? '—'}</TableCell> : null}
                  <TableCell>
                    <Chip
                      size="small"
                      variant="outlined"
                      color={booking.status === 'booked' ? 'success' : 'default'}
                      label={booking.status === 'booked' ? EVENTS_TEXT.booked : 'Cancelled'}
                    />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </SectionCard>
  );
}
