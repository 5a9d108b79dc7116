import RefreshIcon from '@mui/icons-material/Refresh';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { MY_EVENTS_TEXT, type OpenEventSummaryItem } from '@parley/domain/booking';
import type { HomeData } from '@parley/domain/home';
import type { Role } from '@parley/domain/roles';
import { type ReactNode, useEffect, useId, useMemo, useState } from 'react';
import { LazyTooltip } from '../../../components/lazy-tooltip';
import { useSnackbar } from '../../../components/snackbar';
import { CALENDAR_TEXT } from '../../../lib/calendar-event';
import { addEventToCalendar, isInDeviceCalendar, isNative } from '../../../lib/native';
import { readCalendarEntries, readLastViewAs, rememberCalendarEntry, writeLastViewAs } from '../api';
import {
  calendarAdded,
  defaultViewAs,
  isViewAsRole,
  itemActions,
  openEventsFor,
  roleMissing,
  showsViewAsSelector,
  type ViewAsRole,
  viewAsOptions,
} from '../my-events-logic';
import { MY_EVENTS_UI } from '../my-events-text';
import { AddToCalendarDialog } from './add-to-calendar-dialog';
import { OpenEventCard } from './open-event-card';

/** Spec §9: the selector menu is at most 310 high. */
const SELECTOR_MENU_MAX_HEIGHT = 310;

const EMPTY_TEXT: Record<ViewAsRole, string> = {
  teacher: MY_EVENTS_TEXT.noTeacherEvents,
  parent: MY_EVENTS_TEXT.noParentEvents,
  student: MY_EVENTS_TEXT.noStudentEvents,
};

/** Whether the user gets a "My Events" section at all: some teacher, parent or student role applies. */
export const hasMyEvents = (data: HomeData | undefined, roles: readonly Role[]): boolean =>
  viewAsOptions(data?.viewAsSelectorItems, roles).length > 0;

type Props = {
  data: HomeData | undefined;
  roles: readonly Role[];
  onRefresh: () => Promise<unknown>;
  refreshing: boolean;
};

/** Spec §2 Home "My Events": the "View as" selector and the chosen role's open events. */
export function MyEvents({ data, roles, onRefresh, refreshing }: Props) {
  const headingId = useId();
  const showSnackbar = useSnackbar();
  const options = viewAsOptions(data?.viewAsSelectorItems, roles);
  const [chosen, setChosen] = useState<string | null>(readLastViewAs);
  const role = defaultViewAs(options, chosen);
  const [calendarEntries, setCalendarEntries] = useState(readCalendarEntries);
  const [calendarItem, setCalendarItem] = useState<OpenEventSummaryItem | null>(null);
  const [calendarOpen, setCalendarOpen] = useState(false);
  const [adding, setAdding] = useState(false);

  const choose = (value: string) => {
    if (!isViewAsRole(value)) return;
    setChosen(value);
    writeLastViewAs(value);
  };

  const addToCalendar = async () => {
    if (!calendarItem) return;
    setAdding(true);
    const { id, name, eventDate, location } = calendarItem;
    const result = await addEventToCalendar({ id, name, eventDate, location });
    setAdding(false);
    if (result.status === 'denied' || result.status === 'failed') {
      showSnackbar(result.message, 'error');
      if (result.status === 'denied') setCalendarOpen(false);
      return;
    }
    // Spec §4: added after a successful add, or when the device calendar already holds the event.
    setCalendarEntries(rememberCalendarEntry({ id, name }));
    const text = {
      added: CALENDAR_TEXT.added,
      exists: MY_EVENTS_UI.calendarAlreadyThere,
      downloaded: MY_EVENTS_UI.calendarDownloaded,
    }[result.status];
    showSnackbar(text, 'success');
    setCalendarOpen(false);
  };

  const items = useMemo(() => (data && role !== null ? openEventsFor(data, role) : undefined), [data, role]);

  // Spec §4: on a device, an event the calendar already holds counts as added (calendarStatus).
  useEffect(() => {
    if (!items || role === null || !isNative()) return;
    let current = true;
    const unknown = items.filter(
      (item) => itemActions(role, item).addToCalendar && !calendarAdded(item, readCalendarEntries()),
    );
    void (async () => {
      for (const item of unknown) {
        if (!(await isInDeviceCalendar(item)) || !current) continue;
        setCalendarEntries(rememberCalendarEntry({ id: item.id, name: item.name }));
      }
    })();
    return () => {
      current = false;
    };
  }, [items, role]);

  if (role === null) return null;
  const roleLabel = options.find((option) => option.value === role)?.label ?? role;

  let body: ReactNode;
  if (roleMissing(role, roles)) {
    body = <Alert severity="warning">{MY_EVENTS_TEXT.roleMissing}</Alert>;
  } else if (items === undefined) {
    body = (
      <Stack spacing={1} role="status" aria-busy="true" aria-label={MY_EVENTS_UI.loading}>
        <Skeleton variant="rounded" height={120} />
        <Skeleton variant="rounded" height={120} />
      </Stack>
    );
  } else if (items.length === 0) {
    body = <Typography color="text.secondary">{EMPTY_TEXT[role]}</Typography>;
  } else {
    body = (
      <Box
        component="ul"
        aria-label={MY_EVENTS_UI.listLabel(roleLabel)}
        sx={{
          display: 'grid',
          gridTemplateColumns: {
            xs: 'minmax(0, 1fr)',
            lg: 'repeat(2, minmax(0, 1fr))',
            xl: 'repeat(3, minmax(0, 1fr))',
          },
          gap: { xs: 1, md: 2 },
          listStyle: 'none',
          p: 0,
          m: 0,
        }}
      >
        {items.map((item) => (
          <OpenEventCard
            key={item.id}
            role={role}
            item={item}
            inCalendar={calendarAdded(item, calendarEntries)}
            onAddToCalendar={(picked) => {
              setCalendarItem(picked);
              setCalendarOpen(true);
            }}
          />
        ))}
      </Box>
    );
  }

  return (
    <Stack component="section" aria-labelledby={headingId} spacing={2} sx={{ pt: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
        <Typography id={headingId} component="h2" variant="h6" sx={{ fontWeight: 600, flex: '1 1 auto' }}>
          {MY_EVENTS_TEXT.heading}
        </Typography>
        {showsViewAsSelector(options) ? (
          <TextField
            select
            size="small"
            label={MY_EVENTS_TEXT.viewAs}
            value={role}
            onChange={(event) => choose(event.target.value)}
            sx={{ width: 160, flex: 'none' }}
            slotProps={{
              select: {
                MenuProps: { slotProps: { paper: { sx: { maxHeight: SELECTOR_MENU_MAX_HEIGHT } } } },
              },
            }}
          >
            {options.map((option) => (
              <MenuItem key={option.value} value={option.value}>
                {option.label}
              </MenuItem>
            ))}
          </TextField>
        ) : null}
        <LazyTooltip title={MY_EVENTS_UI.refreshTooltip}>
          <span>
            <IconButton
              aria-label={MY_EVENTS_UI.refresh}
              onClick={() => void onRefresh()}
              disabled={refreshing}
            >
              {refreshing ? <CircularProgress size={20} /> : <RefreshIcon />}
            </IconButton>
          </span>
        </LazyTooltip>
      </Box>
      {body}
      <AddToCalendarDialog
        open={calendarOpen}
        item={calendarItem}
        pending={adding}
        notice={isNative() ? null : CALENDAR_TEXT.notNative}
        onCancel={() => setCalendarOpen(false)}
        onConfirm={() => void addToCalendar()}
      />
    </Stack>
  );
}
