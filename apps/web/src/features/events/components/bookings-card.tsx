import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import DownloadIcon from '@mui/icons-material/Download';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { EVENT_GROUPS } from '@parley/domain/event-groups';
import type { BookingItem, EventDetail } from '@parley/domain/events';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { Pager } from '../../../components/pager';
import { SectionCard } from '../../../components/section-card';
import { useSnackbar } from '../../../components/snackbar';
import { useIsMobile } from '../../../components/use-is-mobile';
import { serverMessage } from '../../../lib/api-client';
import { EVENTS_TEXT, LIST_TEXT } from '../../../lib/ui-text';
import { SEARCH_DEBOUNCE_MS, useDebouncedValue } from '../../../lib/use-debounced-value';
import {
  bookingSummary,
  confirmedIdsOf,
  familyLabel,
  isConfirmed,
  isLive,
  ADMIN_BOOKING_TEXT as T,
} from '../admin-booking';
import { confirmBooking, downloadBookings, eventBookingsQuery, removeBooking } from '../api';
import { BookForFamilyDialog } from './book-for-family-dialog';
import { BookingMenu, MoveBookingDialog, useBookingChange } from './booking-actions';
import { ListSearch } from './list-search';

function StatusChips({ booking, confirmed }: { booking: BookingItem; confirmed: boolean }) {
  const live = isLive(booking);
  return (
    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
      <Chip
        size="small"
        variant="outlined"
        color={live ? 'success' : 'default'}
        label={live ? EVENTS_TEXT.booked : T.cancelled}
      />
      {live && confirmed ? (
        <Chip
          size="small"
          color="success"
          icon={<CheckCircleIcon />}
          label={T.confirmed}
          data-testid="booking-confirmed"
        />
      ) : null}
    </Stack>
  );
}

type Columns = { withTeacher: boolean; withGuests: boolean; withGown: boolean };
type RowProps = {
  booking: BookingItem;
  confirmed: boolean;
  columns: Columns;
  actions: {
    onMove: (booking: BookingItem) => void;
    onConfirm: (booking: BookingItem) => void;
    onRemove: (booking: BookingItem) => void;
  };
};

function Actions({ booking, confirmed, actions }: Omit<RowProps, 'columns'>) {
  if (!isLive(booking)) return null;
  return (
    <BookingMenu
      booking={booking}
      confirmed={confirmed}
      onMove={() => actions.onMove(booking)}
      onConfirm={() => actions.onConfirm(booking)}
      onRemove={() => actions.onRemove(booking)}
    />
  );
}

/** A phone shows each booking as a small card: time and status on top, the family below, ⋮ at the right. */
function BookingCardItem({ booking, confirmed, columns, actions }: RowProps) {
  const c = EVENTS_TEXT.bookingColumns;
  const details = [
    columns.withTeacher && booking.teacherName ? `${c.teacher}: ${booking.teacherName}` : null,
    columns.withTeacher && booking.subjectName ? `${c.subject}: ${booking.subjectName}` : null,
    columns.withGuests ? `${c.guests}: ${booking.guests}` : null,
    columns.withGown && booking.gownSize ? `${c.gown}: ${booking.gownSize}` : null,
  ].filter(Boolean);
  return (
    <Paper variant="outlined" component="li" sx={{ p: 1.5, listStyle: 'none' }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {booking.timeLabel}
          </Typography>
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
            {familyLabel(booking)}
          </Typography>
          {details.length > 0 ? (
            <Typography variant="caption" color="text.secondary" component="div">
              {details.join(' · ')}
            </Typography>
          ) : null}
          <Box sx={{ mt: 0.75 }}>
            <StatusChips booking={booking} confirmed={confirmed} />
          </Box>
        </Box>
        <Actions booking={booking} confirmed={confirmed} actions={actions} />
      </Stack>
    </Paper>
  );
}

function BookingRow({ booking, confirmed, columns, actions }: RowProps) {
  return (
    <TableRow>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{booking.timeLabel}</TableCell>
      {columns.withTeacher ? <TableCell>{booking.teacherName ?? '—'}</TableCell> : null}
      <TableCell>{booking.parentName ?? '—'}</TableCell>
      <TableCell>{booking.studentName ?? '—'}</TableCell>
      {columns.withTeacher ? <TableCell>{booking.subjectName ?? '—'}</TableCell> : null}
      {columns.withGuests ? <TableCell align="right">{booking.guests}</TableCell> : null}
      {columns.withGown ? <TableCell>{booking.gownSize ?? '—'}</TableCell> : null}
      <TableCell>
        <StatusChips booking={booking} confirmed={confirmed} />
      </TableCell>
      <TableCell align="right" sx={{ width: 48, py: 0 }}>
        <Actions booking={booking} confirmed={confirmed} actions={actions} />
      </TableCell>
    </TableRow>
  );
}

/**
 * The bookings of the event, "Download bookings" (CSV, local times, opens in Excel), "Book for a family",
 * and per live booking Move, Confirm and Remove.
 */
export function BookingsCard({ event }: { event: EventDetail }) {
  const showSnackbar = useSnackbar();
  const isMobile = useIsMobile();
  const run = useBookingChange(event.id);
  const [downloading, setDownloading] = useState(false);
  const [booking, setBooking] = useState(false);
  const [moving, setMoving] = useState<BookingItem | null>(null);
  const [removing, setRemoving] = useState<BookingItem | null>(null);
  // Kept while the dialog fades out, so its text does not vanish first.
  const [removeText, setRemoveText] = useState('');
  const [busy, setBusy] = useState(false);
  // Confirmed on this page, shown before the view refetches.
  const [confirmedHere, setConfirmedHere] = useState<ReadonlySet<number>>(() => new Set());
  // Cancelled bookings (moves leave one behind) stay out of the way unless asked for.
  const [showCancelled, setShowCancelled] = useState(false);
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(1);
  // A page at a time, searched on the server (decision 035): an evening of 600 teachers holds thousands
  // of bookings, and the card shows fifty. The search waits for typing to pause.
  const search = useDebouncedValue(query.trim(), SEARCH_DEBOUNCE_MS);
  const list = useQuery(eventBookingsQuery(event.id, { q: search, cancelled: showCancelled ? 1 : 0, page }));
  const shown = list.data?.items ?? [];
  const cancelledCount = list.data?.cancelledCount ?? 0;
  const filtered = search !== '';
  // The last on a page removed: back to the last page there is.
  if (list.data && !list.isPlaceholderData && list.data.items.length === 0 && page > 1)
    setPage(Math.max(1, Math.ceil(list.data.total / list.data.pageSize)));
  const group = event.eventTypeGroupInt;
  const columns: Columns = {
    withTeacher: group === EVENT_GROUPS.parentTeacher,
    withGuests: group === EVENT_GROUPS.ticketed || group === EVENT_GROUPS.ceremony,
    withGown: group === EVENT_GROUPS.ceremony,
  };

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

  const confirm = async (item: BookingItem) => {
    const result = await run(() => confirmBooking(event.id, item.id));
    if (result) setConfirmedHere((known) => new Set([...known, ...confirmedIdsOf(result, item.id)]));
  };

  const remove = async () => {
    if (!removing) return;
    setBusy(true);
    const result = await run(() => removeBooking(event.id, removing.id));
    setBusy(false);
    if (result) setRemoving(null);
  };

  const actions = {
    onMove: setMoving,
    onConfirm: (item: BookingItem) => void confirm(item),
    onRemove: (item: BookingItem) => {
      setRemoveText(T.removeText(bookingSummary(item)));
      setRemoving(item);
    },
  };

  const c = EVENTS_TEXT.bookingColumns;
  return (
    <SectionCard title={`${EVENTS_TEXT.bookingsTitle} (${event.bookingCountForEvent})`}>
      {/* Below the title rather than beside it: two buttons there would squeeze the title on a phone. */}
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', mb: 2 }}>
        <Button variant="contained" startIcon={<PersonAddIcon />} onClick={() => setBooking(true)}>
          {T.bookForFamily}
        </Button>
        <Button
          variant="outlined"
          startIcon={<DownloadIcon />}
          onClick={() => void download()}
          loading={downloading}
          sx={{ whiteSpace: 'nowrap' }}
        >
          {EVENTS_TEXT.download}
        </Button>
        {cancelledCount > 0 ? (
          <Button
            variant="text"
            aria-pressed={showCancelled}
            onClick={() => {
              setShowCancelled((value) => !value);
              setPage(1);
            }}
            sx={{ whiteSpace: 'nowrap' }}
          >
            {showCancelled ? T.hideCancelled : T.showCancelled(cancelledCount)}
          </Button>
        ) : null}
      </Stack>
      {list.isError ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {T.bookingsFailed}
        </Alert>
      ) : null}
      {event.bookingCountForEvent + cancelledCount > 8 ? (
        <ListSearch
          label={T.searchBookings}
          value={query}
          onSearch={(value) => {
            setQuery(value);
            setPage(1);
          }}
        />
      ) : null}
      {!list.data ? null : list.data.total === 0 ? (
        <Typography color="text.secondary">
          {filtered ? LIST_TEXT.noMatches : EVENTS_TEXT.noBookings}
        </Typography>
      ) : isMobile ? (
        <Stack component="ul" spacing={1} aria-label={EVENTS_TEXT.bookingsTitle} sx={{ p: 0, m: 0 }}>
          {shown.map((item) => (
            <BookingCardItem
              key={item.id}
              booking={item}
              confirmed={isConfirmed(item, confirmedHere)}
              columns={columns}
              actions={actions}
            />
          ))}
        </Stack>
      ) : (
        <TableContainer sx={{ maxHeight: 420 }}>
          <Table size="small" stickyHeader aria-label={EVENTS_TEXT.bookingsTitle}>
            <TableHead>
              <TableRow>
                <TableCell>{c.time}</TableCell>
                {columns.withTeacher ? <TableCell>{c.teacher}</TableCell> : null}
                <TableCell>{c.parent}</TableCell>
                <TableCell>{c.student}</TableCell>
                {columns.withTeacher ? <TableCell>{c.subject}</TableCell> : null}
                {columns.withGuests ? <TableCell align="right">{c.guests}</TableCell> : null}
                {columns.withGown ? <TableCell>{c.gown}</TableCell> : null}
                <TableCell>{c.status}</TableCell>
                <TableCell align="right">
                  <Box component="span" sx={visuallyHidden}>
                    {T.actions}
                  </Box>
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {shown.map((item) => (
                <BookingRow
                  key={item.id}
                  booking={item}
                  confirmed={isConfirmed(item, confirmedHere)}
                  columns={columns}
                  actions={actions}
                />
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {list.data && list.data.total > list.data.pageSize ? (
        <Pager page={list.data.page} pageSize={list.data.pageSize} total={list.data.total} onPage={setPage} />
      ) : null}
      <BookForFamilyDialog event={event} open={booking} onClose={() => setBooking(false)} />
      <MoveBookingDialog event={event} booking={moving} onClose={() => setMoving(null)} />
      <ConfirmDialog
        open={removing !== null}
        title={T.removeTitle}
        message={removeText}
        confirmLabel={T.removeConfirm}
        destructive
        pending={busy}
        onCancel={() => setRemoving(null)}
        onConfirm={() => void remove()}
      />
    </SectionCard>
  );
}

const visuallyHidden = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: '1px',
} as const;
