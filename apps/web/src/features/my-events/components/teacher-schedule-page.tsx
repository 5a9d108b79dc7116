import PrintIcon from '@mui/icons-material/Print';
import VideocamIcon from '@mui/icons-material/VideocamOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import GlobalStyles from '@mui/material/GlobalStyles';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { TeacherSchedule } from '@parley/domain/booking';
import { callPath } from '@parley/domain/routes';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link as RouterLink } from 'react-router';
import { PageHeading } from '../../../components/page-heading';
import { PageSkeleton } from '../../../components/page-skeleton';
import { useIsMobile } from '../../../components/use-is-mobile';
import { rememberCurrentEvent, teacherScheduleQuery } from '../api';
import { isTheNight, loadFailedText, type ScheduleLine, scheduleLines, updatedLabel } from '../details-logic';
import { DETAILS_TEXT, SCHEDULE_TEXT } from '../my-events-text';
import { DetailsProblem } from './details-states';
import { RunningLateCard } from './running-late-card';
import { useEventId } from './use-event-id';

const COLUMNS = SCHEDULE_TEXT.columns;

/** Printing: no app chrome, black on white, the table (also on a phone), no row split over pages. */
const PRINT_STYLES = {
  '@media print': {
    '@page': { margin: '12mm' },
    'html, body': { background: '#fff !important', color: '#000 !important' },
    [[
      '.MuiAppBar-root',
      '.MuiBottomNavigation-root',
      '.MuiPaper-root:has(> .MuiBottomNavigation-root)',
      '.MuiLinearProgress-root',
      '.MuiSnackbar-root',
      '[data-print="hide"]',
    ].join(', ')]: { display: 'none !important' },
    main: { padding: '0 !important', maxWidth: 'none !important' },
    '[data-print="root"], [data-print="root"] *': {
      color: '#000 !important',
      background: 'transparent !important',
      boxShadow: 'none !important',
    },
    '[data-print="root"] th, [data-print="root"] td': {
      borderBottom: '1px solid #999 !important',
      padding: '4px 8px !important',
    },
    '[data-print="root"] tr': { breakInside: 'avoid' },
    '[data-print="root"] h2': { breakAfter: 'avoid' },
    '[data-print="root"] [data-free="true"] td': { color: '#777 !important' },
    '[data-print="table"]': { display: 'block !important' },
  },
} as const;

const timeOf = (line: ScheduleLine) => `${line.time}–${line.endTime}`;

/** A booked line's video call, for an evening held by video. */
function CallLink({ line, video }: { line: ScheduleLine; video: boolean }) {
  if (!video || line.bookingId === null) return null;
  return (
    <Link component={RouterLink} to={callPath(line.bookingId)} variant="body2" data-print="hide">
      {SCHEDULE_TEXT.joinCall}
    </Link>
  );
}

function DayTable({ lines, hidden, video }: { lines: ScheduleLine[]; hidden: boolean; video: boolean }) {
  return (
    <TableContainer
      component={Paper}
      variant="outlined"
      data-print="table"
      sx={hidden ? { display: 'none' } : undefined}
    >
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell>{COLUMNS.time}</TableCell>
            <TableCell>{COLUMNS.family}</TableCell>
            <TableCell>{COLUMNS.child}</TableCell>
            <TableCell>{COLUMNS.subject}</TableCell>
            <TableCell>{COLUMNS.location}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {lines.map((line) => (
            <TableRow
              key={line.key}
              data-free={line.free ? 'true' : undefined}
              sx={line.free ? { '& td': { color: 'text.secondary' } } : undefined}
            >
              <TableCell sx={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
                {line.firstOfSlot ? timeOf(line) : ''}
              </TableCell>
              {line.free ? (
                <TableCell colSpan={3}>{SCHEDULE_TEXT.free}</TableCell>
              ) : (
                <>
                  <TableCell>
                    <Box sx={{ fontWeight: 600 }}>{line.family}</Box>
                    <CallLink line={line} video={video} />
                  </TableCell>
                  <TableCell>{line.child}</TableCell>
                  <TableCell>{line.subject}</TableCell>
                </>
              )}
              <TableCell>{line.firstOfSlot ? line.location : ''}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function DayCards({ lines, video }: { lines: ScheduleLine[]; video: boolean }) {
  return (
    <Stack component="ul" spacing={1} data-print="hide" sx={{ listStyle: 'none', p: 0, m: 0 }}>
      {lines.map((line) =>
        line.free ? (
          <Box
            component="li"
            key={line.key}
            data-free="true"
            sx={{ px: 2, py: 0.75, color: 'text.secondary', display: 'flex', gap: 2 }}
          >
            <Typography variant="body2" sx={{ fontVariantNumeric: 'tabular-nums' }}>
              {timeOf(line)}
            </Typography>
            <Typography variant="body2">{SCHEDULE_TEXT.free}</Typography>
          </Box>
        ) : (
          <Card component="li" key={line.key} variant="outlined">
            <CardContent sx={{ py: 1.5, '&:last-child': { pb: 1.5 } }}>
              <Stack direction="row" sx={{ justifyContent: 'space-between', gap: 1 }}>
                <Typography sx={{ fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}>
                  {timeOf(line)}
                </Typography>
                {line.location ? (
                  <Typography variant="body2" color="text.secondary">
                    {line.location}
                  </Typography>
                ) : null}
              </Stack>
              <Typography sx={{ fontWeight: 600 }}>{line.family}</Typography>
              <Typography variant="body2" color="text.secondary">
                {[line.child, line.subject].filter(Boolean).join(' · ')}
              </Typography>
              <CallLink line={line} video={video} />
            </CardContent>
          </Card>
        ),
      )}
    </Stack>
  );
}

/** The teacher's evening: per day, every time with who is coming, free times muted. */
export function TeacherScheduleView({
  schedule,
  fetching,
}: {
  schedule: TeacherSchedule;
  fetching: boolean;
}) {
  const isMobile = useIsMobile();
  const updated = updatedLabel(schedule.asOf, schedule.event.timeZone);
  const hasSlots = schedule.days.some((day) => day.rows.length > 0);
  const video = schedule.event.meetingMode === 'video';
  const tonight = isTheNight(
    schedule.days.flatMap((day) => day.rows),
    new Date(schedule.asOf),
  );
  return (
    <Stack spacing={2} data-print="root">
      <GlobalStyles styles={PRINT_STYLES} />
      <Box>
        <PageHeading>{schedule.event.name}</PageHeading>
        <Typography color="text.secondary" sx={{ mt: -1.5 }}>
          {schedule.event.subscriberName} · {schedule.teacher.name}
        </Typography>
        {schedule.event.sectionTimeLabels.map((label) => (
          <Typography key={label} variant="body2">
            {label}
          </Typography>
        ))}
        {schedule.teacher.videoUrl ? (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mt: 1 }}>
            <VideocamIcon fontSize="small" color="action" />
            <Typography variant="body2">
              {SCHEDULE_TEXT.videoLink}:{' '}
              <Link href={schedule.teacher.videoUrl} target="_blank" rel="noopener noreferrer">
                {schedule.teacher.videoUrl}
              </Link>
            </Typography>
          </Stack>
        ) : null}
      </Box>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <Chip
          size="small"
          color="success"
          variant="outlined"
          label={SCHEDULE_TEXT.booked(schedule.bookedCount)}
        />
        <Box sx={{ flexGrow: 1 }} aria-live="polite">
          {updated ? (
            <Typography variant="body2" component="span" sx={{ fontVariantNumeric: 'tabular-nums' }}>
              <Box
                component="span"
                aria-hidden
                data-print="hide"
                sx={{
                  display: 'inline-block',
                  width: 8,
                  height: 8,
                  borderRadius: '50%',
                  mr: 1,
                  bgcolor: fetching ? 'warning.main' : 'success.main',
                }}
              />
              {updated}
            </Typography>
          ) : null}
          <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }} data-print="hide">
            {SCHEDULE_TEXT.live}
          </Typography>
        </Box>
        <Button variant="outlined" startIcon={<PrintIcon />} onClick={() => window.print()} data-print="hide">
          {SCHEDULE_TEXT.print}
        </Button>
      </Stack>
      {tonight ? (
        <RunningLateCard
          eventId={schedule.event.id}
          teacherId={schedule.teacher.id}
          lateMinutes={schedule.lateMinutes}
        />
      ) : null}
      {hasSlots ? null : <Typography color="text.secondary">{SCHEDULE_TEXT.noSlots}</Typography>}
      {schedule.days
        .filter((day) => day.rows.length > 0)
        .map((day) => {
          const lines = scheduleLines(day.rows);
          return (
            <Stack key={day.sectionId} component="section" spacing={1}>
              <Typography component="h2" variant="h6" sx={{ fontWeight: 600 }}>
                {day.dateLabel}
              </Typography>
              {isMobile ? <DayCards lines={lines} video={video} /> : null}
              <DayTable lines={lines} hidden={isMobile} video={video} />
            </Stack>
          );
        })}
    </Stack>
  );
}

/** /event/details-teacher?eventId and /events/view-teacher-event/{id}. */
export function TeacherSchedulePage() {
  const eventId = useEventId();
  const schedule = useQuery({ ...teacherScheduleQuery(eventId ?? 0), enabled: eventId !== null });

  const loaded = schedule.data?.event;
  useEffect(() => {
    if (loaded) rememberCurrentEvent(loaded);
  }, [loaded]);

  if (eventId === null) return <DetailsProblem message={DETAILS_TEXT.noEvent} />;
  if (schedule.data) return <TeacherScheduleView schedule={schedule.data} fetching={schedule.isFetching} />;
  if (schedule.isError)
    return <DetailsProblem message={loadFailedText(schedule.error, SCHEDULE_TEXT.loadFailed)} />;
  return <PageSkeleton />;
}
