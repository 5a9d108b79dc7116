import VisibilityIcon from '@mui/icons-material/Visibility';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { EventListItem } from '@parley/domain/events';
import { timeAgo } from '@parley/domain/relative-time';
import { routeTo } from '@parley/domain/routes';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { DataList } from '../../../components/data-list';
import type { DataColumn } from '../../../components/data-list-types';
import { PageHeading } from '../../../components/page-heading';
import { useSnackbar } from '../../../components/snackbar';
import { serverMessage } from '../../../lib/api-client';
import { EVENTS_TEXT } from '../../../lib/ui-text';
import { eventsQuery, refreshEvents } from '../api';
import { EventFormDialog } from './event-form-dialog';
import { EventStatusChip } from './event-status-chip';

const viewPath = (id: number) => routeTo('events.view', { id });

/** Each section's dates and times; on one line each in the table, wrapped in a phone's card. */
function SectionTimes({ event, oneLine = false }: { event: EventListItem; oneLine?: boolean }) {
  if (event.sectionTimeLabels.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        {EVENTS_TEXT.noSections}
      </Typography>
    );
  }
  return (
    <Stack spacing={0.25}>
      {event.sectionTimeLabels.map((label, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: two sections may share a label
        <Typography key={index} variant="body2" sx={oneLine ? { whiteSpace: 'nowrap' } : undefined}>
          {label}
        </Typography>
      ))}
    </Stack>
  );
}

/** "3 days ago", computed now (a cached list would otherwise keep the age it had when fetched). */
export function createdHuman(event: Pick<EventListItem, 'createdAt' | 'createdAtHuman'>, now = new Date()) {
  const created = new Date(event.createdAt);
  return Number.isNaN(created.getTime()) ? event.createdAtHuman : timeAgo(created, now);
}

/** /events: spec §2 Events list. */
export function EventsListPage() {
  const navigate = useNavigate();
  const showSnackbar = useSnackbar();
  const list = useQuery(eventsQuery);
  const [adding, setAdding] = useState(false);
  const [refreshing, setRefreshing] = useState(false);

  useEffect(() => {
    if (list.isError) showSnackbar(serverMessage(list.error, EVENTS_TEXT.loadFailed), 'error');
  }, [list.isError, list.error, showSnackbar]);

  const refresh = useCallback(async () => {
    setRefreshing(true);
    try {
      await refreshEvents();
    } catch (error) {
      showSnackbar(serverMessage(error, EVENTS_TEXT.loadFailed), 'error');
    } finally {
      setRefreshing(false);
    }
  }, [showSnackbar]);

  const columns = useMemo<DataColumn<EventListItem>[]>(
    () => [
      {
        key: 'status',
        label: EVENTS_TEXT.columns.status,
        render: (row) => <EventStatusChip status={row.status} />,
        sortValue: (row) => row.statusLabel.text,
        searchText: (row) => row.statusLabel.text,
        width: 110,
      },
      {
        key: 'name',
        label: EVENTS_TEXT.columns.name,
        render: (row) => (
          <Stack spacing={0.25}>
            <Link component={RouterLink} to={viewPath(row.id)} underline="hover" color="inherit">
              {row.name}
            </Link>
            <Typography variant="caption" color="text.secondary">
              {row.eventTypeName}
            </Typography>
          </Stack>
        ),
        sortValue: (row) => row.name,
        searchText: (row) => `${row.name} ${row.eventTypeName}`,
      },
      {
        key: 'sections',
        label: EVENTS_TEXT.columns.sections,
        render: (row) => <SectionTimes event={row} oneLine />,
        sortValue: (row) => row.sections[0]?.startsAt ?? null,
        searchText: (row) => row.sectionTimeLabels.join(' '),
      },
      {
        key: 'code',
        label: EVENTS_TEXT.columns.code,
        render: (row) => (
          <Typography variant="body2" sx={{ fontFamily: 'monospace' }}>
            {row.code}
          </Typography>
        ),
        sortValue: (row) => row.code,
        searchText: (row) => row.code,
      },
      {
        key: 'bookings',
        label: EVENTS_TEXT.columns.bookings,
        align: 'right',
        render: (row) => row.bookingCountForEvent,
        sortValue: (row) => row.bookingCountForEvent,
        width: 110,
      },
      {
        key: 'created',
        label: EVENTS_TEXT.columns.created,
        render: (row) => (
          <Tooltip title={row.createdAtLabel}>
            <span>{createdHuman(row)}</span>
          </Tooltip>
        ),
        sortValue: (row) => row.createdAt,
        width: 140,
      },
      {
        key: 'actions',
        label: EVENTS_TEXT.columns.actions,
        align: 'right',
        width: 90,
        render: (row) => (
          <Tooltip title={EVENTS_TEXT.view}>
            <IconButton
              aria-label={EVENTS_TEXT.viewEvent(row.name)}
              component={RouterLink}
              to={viewPath(row.id)}
              size="small"
            >
              <VisibilityIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        ),
      },
    ],
    [],
  );

  const nameOf = useCallback((row: EventListItem) => row.name, []);

  return (
    <>
      <PageHeading>{EVENTS_TEXT.heading}</PageHeading>
      <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
        {EVENTS_TEXT.tableTitle}
      </Typography>
      <DataList
        label={EVENTS_TEXT.tableTitle}
        rows={list.data?.events ?? (list.isError ? [] : undefined)}
        columns={columns}
        rowKey={(row) => row.id}
        nameOf={nameOf}
        onOpen={(row) => navigate(viewPath(row.id))}
        onRefresh={refresh}
        refreshing={refreshing || list.isFetching}
        onAdd={() => setAdding(true)}
        addLabel={EVENTS_TEXT.add}
        emptyText={EVENTS_TEXT.empty}
        renderCard={(row) => (
          <Stack spacing={0.75}>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
              <Typography sx={{ fontWeight: 600 }}>{row.name}</Typography>
              <EventStatusChip status={row.status} />
            </Stack>
            <SectionTimes event={row} />
            <Typography variant="caption" color="text.secondary">
              {`${row.eventTypeName} · ${EVENTS_TEXT.bookings(row.bookingCountForEvent)}`}
            </Typography>
          </Stack>
        )}
      />
      <EventFormDialog
        open={adding}
        onClose={() => setAdding(false)}
        eventTypes={list.data?.eventTypes ?? []}
      />
    </>
  );
}
