import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type {
  ArrangedItem,
  BookingPage,
  BookingResult,
  MyBooking,
  SubjectTeacherItem,
} from '@parley/domain/booking';
import { useMutation, useQuery } from '@tanstack/react-query';
import { memo, startTransition, useId, useMemo, useState } from 'react';
import { readClockTime } from '../../../components/clock-time';
import { TimeField } from '../../../components/time-field';
import { useIsMobile } from '../../../components/use-is-mobile';
import { errorLines } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { arrangeSlots, type BookingAccess, bookingConflictOf, userSlotsQuery } from '../api';
import { BOOKING_UI } from '../booking-text';
import type { BookingChildRef } from '../pt-selection';
import {
  buildColumns,
  buildTimesGrid,
  type Column,
  itemsToArrange,
  type Picks,
  pickRequest,
  proposalRequest,
  togglePick,
  validPicks,
} from '../times-grid';
import { bookingErrorLines, useBookAction } from '../use-booking-actions';
import { TimeZoneNote } from './booking-header';
import { type GridActions, TimesList, TimesTable } from './times-grid-view';

export type TimesMode = 'arrange' | 'pick';

/** The booking layout's bottom bar (logged-in phones): the sticky Book button sits above it. */
const BOTTOM_BAR_OFFSET = 56;

type Props = {
  access: BookingAccess;
  page: BookingPage;
  items: readonly SubjectTeacherItem[];
  childList: readonly BookingChildRef[];
  initialMode: TimesMode;
  /** The column whose booked time is being changed when the step opens ("Change" in My bookings). */
  initialChanging: string | null;
  onBooked: (result: BookingResult) => void;
  onCancel: (booking: MyBooking) => void;
};

function ArrangePanel({
  access,
  page,
  columns,
  book,
}: {
  access: BookingAccess;
  page: BookingPage;
  columns: readonly Column[];
  book: ReturnType<typeof useBookAction>;
}) {
  const { event } = page;
  const ids = { earliest: useId(), latest: useId(), section: useId() };
  const [earliest, setEarliest] = useState('');
  const [latest, setLatest] = useState('');
  const [sectionId, setSectionId] = useState('');
  const [proposal, setProposal] = useState<{ items: ArrangedItem[]; message: string } | null>(null);
  const toArrange = itemsToArrange(columns);
  const arrange = useMutation({
    mutationFn: () =>
      arrangeSlots(access, event.id, {
        items: toArrange,
        earliest: readClockTime(earliest),
        latest: readClockTime(latest),
        sectionId: sectionId ? Number(sectionId) : null,
      }),
    onMutate: () => {
      setProposal(null);
      book.reset();
    },
    onSuccess: setProposal,
  });
  const columnOf = (item: ArrangedItem) => columns.find((column) => column.teacherId === item.teacherId);
  const forWhom = (item: ArrangedItem) =>
    (columnOf(item)?.students ?? [])
      .map((student) => [student.name, student.subjectName].filter(Boolean).join(', '))
      .join(' · ');

  if (toArrange.length === 0) return <Alert severity="info">{BOOKING_UI.allArranged}</Alert>;
  return (
    <Stack spacing={2}>
      <Typography variant="body2" color="text.secondary">
        {BOOKING_UI.arrangeHelp}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5 }}>
        <TimeField
          id={ids.earliest}
          size="small"
          label={BOOKING_UI.earliest}
          value={earliest}
          onChange={setEarliest}
          sx={{ width: 150 }}
        />
        <TimeField
          id={ids.latest}
          size="small"
          label={BOOKING_UI.latest}
          value={latest}
          onChange={setLatest}
          sx={{ width: 150 }}
        />
        {event.sections.length > 1 ? (
          <TextField
            select
            id={ids.section}
            size="small"
            label={BOOKING_UI.date}
            value={sectionId}
            onChange={(change) => setSectionId(change.target.value)}
            slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
            sx={{ minWidth: 200 }}
          >
            <option value="">{BOOKING_UI.anyDate}</option>
            {event.sections.map((section) => (
              <option key={section.id} value={section.id}>
                {section.label}
              </option>
            ))}
          </TextField>
        ) : null}
        <Button
          variant="outlined"
          onClick={() => arrange.mutate()}
          disabled={
            arrange.isPending || [earliest, latest].some((time) => time.trim() && !readClockTime(time))
          }
          sx={{ alignSelf: 'flex-start' }}
        >
          {BOOKING_UI.arrange}
        </Button>
      </Box>
      {event.options.travelMinutes > 0 ? (
        <Typography variant="caption" color="text.secondary">
          {BOOKING_UI.travelGap(event.options.travelMinutes)}
        </Typography>
      ) : null}
      {arrange.isError ? (
        <Alert severity="warning" role="alert">
          {bookingErrorLines(arrange.error).join(' ')}
        </Alert>
      ) : null}
      {proposal ? (
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Typography component="h3" variant="subtitle2" sx={{ fontWeight: 600 }}>
            {BOOKING_UI.proposalTitle}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {proposal.message}
          </Typography>
          <List dense aria-label={BOOKING_UI.proposalTitle}>
            {proposal.items.map((item) => (
              <ListItem key={`${item.studentId}:${item.teacherId}`} disableGutters>
                <ListItemText
                  primary={`${item.time} – ${item.endTime}`}
                  secondary={[item.teacherName, forWhom(item)].filter(Boolean).join(' · ')}
                />
              </ListItem>
            ))}
          </List>
          <Button
            variant="contained"
            disabled={book.isPending}
            onClick={() =>
              book.mutate(proposalRequest(columns, proposal.items), {
                // A lost race makes the proposal stale; after a network failure it stays, to retry as is.
                onError: (error) => {
                  if (bookingConflictOf(error)) setProposal(null);
                },
              })
            }
          >
            {BOOKING_UI.bookThese}
          </Button>
        </Paper>
      ) : null}
    </Stack>
  );
}

/** Step 3: "Arrange for me", or pick a time per teacher from the live grid (re-read every 15 s and on focus). */
/** "Arrange for me" / "Pick times": drawn again only when the mode changes, not at every pick. */
const ModeTabs = memo(function ModeTabs({
  mode,
  onMode,
}: {
  mode: TimesMode;
  onMode: (mode: TimesMode) => void;
}) {
  return (
    <Tabs
      value={mode}
      onChange={(_event, value: TimesMode) => onMode(value)}
      variant="fullWidth"
      aria-label={BOOKING_UI.steps.times}
    >
      <Tab value="arrange" label={BOOKING_UI.arrangeTab} />
      <Tab value="pick" label={BOOKING_UI.pickTab} />
    </Tabs>
  );
});

export function TimesStep({
  access,
  page,
  items,
  childList,
  initialMode,
  initialChanging,
  onBooked,
  onCancel,
}: Props) {
  const isMobile = useIsMobile();
  const { token } = useSession();
  const { event } = page;
  const slotsOptions = userSlotsQuery(access, event.id, items);
  const slots = useQuery(slotsOptions);
  const [mode, setMode] = useState<TimesMode>(initialMode);
  const [picks, setPicks] = useState<Picks>({});
  const [changing, setChanging] = useState<string | null>(initialChanging);

  const teacherNames = useMemo(
    () => new Map(page.teachers.map((teacher) => [teacher.teacherId, teacher.name])),
    [page.teachers],
  );
  const subjectNames = useMemo(
    () =>
      new Map([
        ...page.teachers.flatMap((teacher) =>
          teacher.subjects.map((subject) => [subject.id, subject.name] as const),
        ),
        ...page.children.flatMap((child) =>
          child.teachers.flatMap((teacher) =>
            teacher.subjectId !== null && teacher.subjectName
              ? [[teacher.subjectId, teacher.subjectName] as const]
              : [],
          ),
        ),
      ]),
    [page.teachers, page.children],
  );
  const grid = slots.data?.grid ?? [];
  const bookings = page.bookings;
  const columns = useMemo(
    () => buildColumns(items, grid, bookings, childList, teacherNames, subjectNames),
    [items, grid, bookings, childList, teacherNames, subjectNames],
  );
  // Picks the fresh grid no longer allows (taken meanwhile) fall away on their own.
  const draft = useMemo(
    () => buildTimesGrid(columns, grid, bookings, picks, changing),
    [columns, grid, bookings, picks, changing],
  );
  const livePicks = useMemo(() => validPicks(draft, picks), [draft, picks]);
  const model = useMemo(
    () => (livePicks === picks ? draft : buildTimesGrid(columns, grid, bookings, livePicks, changing)),
    [draft, livePicks, picks, columns, grid, bookings, changing],
  );

  const book = useBookAction(access, event.id, slotsOptions.queryKey, (result) => {
    setPicks({});
    setChanging(null);
    onBooked(result);
  });
  const request = pickRequest(columns, livePicks);

  const actions: GridActions = {
    canBook: event.isOpen,
    changing,
    onPick: (column, cell) => {
      book.reset();
      // A transition: the tap's own answer (the button's ripple) is painted first, and the grid with the
      // slot picked in the frames after, rather than the tap waiting for the whole step to be drawn.
      startTransition(() =>
        setPicks((current) => togglePick(validPicks(model, current), column.key, cell.slotId)),
      );
    },
    onChange: (column) => {
      book.reset();
      setChanging(column.key);
      setMode('pick');
    },
    onKeep: (column) => {
      setChanging(null);
      setPicks((current) => {
        const { [column.key]: _dropped, ...rest } = current;
        return rest;
      });
    },
    onCancel,
  };

  const changingColumn = columns.find((column) => column.key === changing);
  const hasChange = request.cancelBookingIds.length > 0;
  const times = new Set(request.items.map((item) => item.slotId)).size;

  return (
    <Stack spacing={2}>
      <ModeTabs mode={mode} onMode={setMode} />
      {book.isError ? (
        <Alert severity="warning" role="alert">
          {bookingErrorLines(book.error).join(' ')}
        </Alert>
      ) : null}
      {slots.isError && !slots.data ? (
        <Alert severity="error">{errorLines(slots.error, BOOKING_UI.loadFailed).join(' ')}</Alert>
      ) : null}
      {!slots.data ? (
        <Skeleton variant="rounded" height={240} aria-label="Loading" />
      ) : mode === 'arrange' ? (
        <ArrangePanel access={access} page={page} columns={columns} book={book} />
      ) : model.sections.length === 0 ? (
        <Alert severity="info">{BOOKING_UI.noSlots}</Alert>
      ) : (
        <Stack spacing={1.5}>
          <Typography variant="body2" color="text.secondary">
            {changingColumn ? BOOKING_UI.changeHint(changingColumn.teacherName) : BOOKING_UI.pickHint}
          </Typography>
          {isMobile ? (
            <TimesList model={model} actions={actions} />
          ) : (
            <TimesTable model={model} actions={actions} />
          )}
          <Box
            sx={{
              position: 'sticky',
              bottom: isMobile && token ? BOTTOM_BAR_OFFSET : 0,
              zIndex: 2,
              py: 1,
              bgcolor: 'background.paper',
              display: 'flex',
              justifyContent: 'flex-end',
            }}
          >
            <Button
              variant="contained"
              disabled={request.items.length === 0 || book.isPending || !event.isOpen}
              onClick={() => book.mutate(request)}
              fullWidth={isMobile}
            >
              {hasChange ? BOOKING_UI.savePicks : BOOKING_UI.bookPicks(times)}
            </Button>
          </Box>
        </Stack>
      )}
      <TimeZoneNote timeZone={event.timeZone} />
    </Stack>
  );
}
