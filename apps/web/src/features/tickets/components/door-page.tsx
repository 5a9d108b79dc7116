import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import HomeIcon from '@mui/icons-material/Home';
import SearchIcon from '@mui/icons-material/Search';
import UndoIcon from '@mui/icons-material/Undo';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import InputAdornment from '@mui/material/InputAdornment';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { routeTo } from '@parley/domain/routes';
import { type DoorState, type DoorTicket, TICKET_TEXT } from '@parley/domain/tickets';
import { formatIsoDateTime } from '@parley/domain/time-zone';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { PageHeading } from '../../../components/page-heading';
import { PageSkeleton } from '../../../components/page-skeleton';
import { SectionCard } from '../../../components/section-card';
import { useSnackbar } from '../../../components/snackbar';
import { TextField } from '../../../components/text-field';
import { useIsMobile } from '../../../components/use-is-mobile';
import { serverMessage } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { afterDoorChange, checkIn, doorQuery, doorSearchQuery, randomNonce, undoScan } from '../api';
import { DOOR_SEARCH_MIN, doorSearchTerm } from '../door-logic';
import { checkInById, type ScanPanel, scannedSnackbar } from '../scan-logic';
import { TICKETS_UI } from '../tickets-text';
import { useOfflineDoor } from '../use-offline-door';
import { OfflineStatus } from './offline-status';
import { ScanTicketsButton } from './scan-tickets-button';

/** A search waits this long after the last key before asking the server. */
const SEARCH_DEBOUNCE_MS = 250;

function Counts({ door, compact }: { door: DoorState; compact: boolean }) {
  const figures = [
    { label: TICKETS_UI.expected, value: door.expected },
    { label: TICKETS_UI.admitted, value: door.admitted },
    { label: TICKETS_UI.toCome, value: door.toCome },
  ];
  return (
    <SectionCard title={TICKETS_UI.counts}>
      <Box
        component="dl"
        sx={{ display: 'grid', gridTemplateColumns: 'repeat(3, minmax(0, 1fr))', gap: 1, m: 0 }}
      >
        {figures.map((figure) => (
          <Box key={figure.label} sx={{ textAlign: 'center' }}>
            <Typography component="dt" variant="body2" color="text.secondary">
              {figure.label}
            </Typography>
            <Typography
              component="dd"
              variant={compact ? 'h4' : 'h3'}
              sx={{ m: 0, fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}
              aria-label={`${figure.label}: ${figure.value}`}
            >
              {figure.value}
            </Typography>
          </Box>
        ))}
      </Box>
      <LinearProgress
        variant="determinate"
        value={door.expected > 0 ? Math.min(100, (door.admitted / door.expected) * 100) : 0}
        aria-hidden="true"
        sx={{ mt: 2, height: 6, borderRadius: 3 }}
      />
      {door.guestsExpected > 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {TICKETS_UI.guestsLine(door.guestsAdmitted, door.guestsExpected)}
        </Typography>
      ) : null}
    </SectionCard>
  );
}

/** Tickets an offline door admitted after another door had: people let in twice, for the staff to see. */
function Duplicates({ items, timeZone }: { items: DoorState['duplicates']; timeZone: string }) {
  return (
    <SectionCard title={TICKETS_UI.duplicates}>
      <Typography variant="body2" color="text.secondary">
        {TICKETS_UI.duplicatesHelp}
      </Typography>
      <List aria-label={TICKETS_UI.duplicates} dense>
        {items.map((item) => (
          <ListItem key={`${item.ticket.id}-${item.receivedAt}`} divider>
            <ListItemText
              primary={item.ticket.userName}
              secondary={TICKETS_UI.duplicateLine(
                formatIsoDateTime(item.scannedAt ?? item.receivedAt, timeZone),
                item.byName,
                item.ticket.scannedDate ? formatIsoDateTime(item.ticket.scannedDate, timeZone) : null,
              )}
            />
          </ListItem>
        ))}
      </List>
    </SectionCard>
  );
}

type TicketRowProps = {
  ticket: DoorTicket;
  /** The school's zone, the row's time is shown in. */
  timeZone: string;
  canUndo: boolean;
  busy: boolean;
  onAdmit?: (ticket: DoorTicket) => void;
  onUndo: (ticket: DoorTicket) => void;
};

/** The door's result panel: a manual check-in names its ticket by id. */
type DoorPanel = ScanPanel<DoorTicket, number>;

function TicketRow({ ticket, timeZone, canUndo, busy, onAdmit, onUndo }: TicketRowProps) {
  const when = ticket.scanned && ticket.scannedDate ? formatIsoDateTime(ticket.scannedDate, timeZone) : null;
  const by = ticket.scannedByName ? ` · ${ticket.scannedByName}` : '';
  let action = null;
  if (!ticket.scanned && onAdmit) {
    action = (
      <Button variant="contained" size="small" disabled={busy} onClick={() => onAdmit(ticket)}>
        {TICKETS_UI.admit}
      </Button>
    );
  } else if (ticket.scanned && canUndo) {
    action = (
      <Button
        size="small"
        color="warning"
        startIcon={<UndoIcon />}
        disabled={busy}
        onClick={() => onUndo(ticket)}
      >
        {TICKETS_UI.undo}
      </Button>
    );
  }
  return (
    <ListItem divider aria-label={ticket.userName} sx={{ gap: 1, px: { xs: 0.5, md: 2 } }}>
      <Box sx={{ flex: '1 1 auto', minWidth: 0 }}>
        <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography sx={{ fontWeight: 500 }}>{ticket.userName}</Typography>
          {ticket.scanned ? (
            <Chip size="small" color="success" variant="filled" label={TICKET_TEXT.scannedChip} />
          ) : (
            <Chip size="small" color="warning" variant="outlined" label={TICKETS_UI.notAdmitted} />
          )}
        </Stack>
        {when ? (
          <Typography variant="body2" color="text.secondary">
            {`${when}${by}`}
          </Typography>
        ) : null}
      </Box>
      {action}
    </ListItem>
  );
}

function ResultAlert({
  panel,
  busy,
  onRetry,
  onClose,
}: {
  panel: DoorPanel;
  busy: boolean;
  onRetry: () => void;
  onClose: () => void;
}) {
  return (
    <Alert
      severity={panel.outcome === 'success' ? 'success' : 'error'}
      onClose={onClose}
      action={
        panel.retry ? (
          <Button color="inherit" size="small" disabled={busy} onClick={onRetry}>
            {TICKET_TEXT.tryAgain}
          </Button>
        ) : undefined
      }
    >
      <AlertTitle>{panel.title}</AlertTitle>
      {[panel.ticket?.userName, panel.message].filter(Boolean).join(' · ')}
      {panel.detail ? <Box>{panel.detail}</Box> : null}
    </Alert>
  );
}

/** /events/door/{id}: the live count, a scanner, a manual check-in and the latest admissions. */
export function DoorPage() {
  const { id } = useParams();
  const eventId = Number(id);
  const valid = Number.isInteger(eventId) && eventId > 0;
  const isMobile = useIsMobile();
  const showSnackbar = useSnackbar();
  const { user } = useSession();
  const isAdmin = Boolean(user?.isAdmin);
  const searchId = useId();

  const door = useQuery({ ...doorQuery(eventId), enabled: valid });
  // This phone's offline scans (decision 013): whether any wait to be sent, and what the last sync said.
  const offline = useOfflineDoor(valid ? eventId : 0, false);
  const [input, setInput] = useState('');
  const [term, setTerm] = useState<string | null>(null);
  const search = useQuery({ ...doorSearchQuery(eventId, term ?? ''), enabled: valid && term !== null });
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<DoorPanel | null>(null);
  const [undoing, setUndoing] = useState<DoorTicket | null>(null);

  useEffect(() => {
    const timer = setTimeout(() => setTerm(doorSearchTerm(input)), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [input]);

  const send = async (id: number, clientNonce: string, ticket: DoorTicket | null) => {
    setBusy(true);
    const outcome = await checkInById(checkIn, id, eventId, clientNonce, ticket);
    setResult(outcome.panel);
    const text = scannedSnackbar(outcome.scanned);
    if (text) showSnackbar(text, 'success');
    await afterDoorChange(eventId);
    setBusy(false);
  };

  const undo = async () => {
    const ticket = undoing;
    if (!ticket) return;
    setBusy(true);
    try {
      const answer = await undoScan(ticket.id);
      showSnackbar(answer.data.message || TICKET_TEXT.scanUndone, 'success');
      setResult(null);
    } catch (error) {
      showSnackbar(serverMessage(error, TICKETS_UI.undoFailed), 'error');
    } finally {
      setUndoing(null);
      setBusy(false);
      await afterDoorChange(eventId);
    }
  };

  if (!valid) return <Problem message={TICKETS_UI.badEvent} isAdmin={false} eventId={null} />;
  if (!door.data) {
    if (door.isError) {
      return (
        <Problem
          message={serverMessage(door.error, TICKETS_UI.doorFailed)}
          isAdmin={isAdmin}
          eventId={eventId}
        />
      );
    }
    return <PageSkeleton />;
  }

  const state = door.data;
  const rowProps = {
    timeZone: state.timeZone,
    canUndo: isAdmin,
    busy,
    onUndo: setUndoing,
  };

  const checkInCard = (
    <SectionCard title={TICKETS_UI.checkIn}>
      <TextField
        id={searchId}
        label={TICKETS_UI.search}
        value={input}
        onChange={(event) => setInput(event.target.value)}
        fullWidth
        size="small"
        type="search"
        autoComplete="off"
        helperText={input.trim().length > 0 && term === null ? TICKETS_UI.searchHint(DOOR_SEARCH_MIN) : ' '}
        slotProps={{
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchIcon />
              </InputAdornment>
            ),
          },
        }}
      />
      {result ? (
        <Box sx={{ mt: 1 }}>
          <ResultAlert
            panel={result}
            busy={busy}
            onClose={() => setResult(null)}
            onRetry={() =>
              result.retry && void send(result.retry.ticketId, result.retry.clientNonce, result.ticket)
            }
          />
        </Box>
      ) : null}
      {term !== null && search.data ? (
        search.data.matches.length === 0 ? (
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            {TICKETS_UI.noMatches}
          </Typography>
        ) : (
          <List aria-label={TICKETS_UI.matches} dense={isMobile}>
            {search.data.matches.map((ticket) => (
              <TicketRow
                key={ticket.id}
                ticket={ticket}
                {...rowProps}
                onAdmit={(picked) => void send(picked.id, randomNonce(), picked)}
              />
            ))}
          </List>
        )
      ) : null}
      {term !== null && search.isError ? (
        <Alert severity="error" sx={{ mt: 1 }}>
          {serverMessage(search.error, TICKETS_UI.doorFailed)}
        </Alert>
      ) : null}
    </SectionCard>
  );

  const recent = (
    <SectionCard title={TICKETS_UI.recent}>
      {state.recent.length === 0 ? (
        <Typography color="text.secondary">{TICKETS_UI.noneYet}</Typography>
      ) : (
        <List aria-label={TICKETS_UI.recent} dense>
          {state.recent.map((ticket) => (
            <TicketRow key={ticket.id} ticket={ticket} {...rowProps} />
          ))}
        </List>
      )}
    </SectionCard>
  );

  return (
    <Stack spacing={2}>
      <Box>
        {isAdmin ? (
          <Button
            component={RouterLink}
            to={routeTo('events.view', { id: eventId })}
            startIcon={<ArrowBackIcon />}
            size="small"
            sx={{ mb: 1 }}
          >
            {TICKETS_UI.backToEvent}
          </Button>
        ) : null}
        <PageHeading>{TICKETS_UI.doorTitle(state.eventName)}</PageHeading>
      </Box>
      {offline.door && offline.state ? (
        <OfflineStatus
          state={offline.state}
          scanning={false}
          onDismiss={() => offline.door?.dismissReport()}
        />
      ) : null}
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(0, 3fr) minmax(0, 2fr)' },
          alignItems: 'start',
        }}
      >
        <Stack spacing={2}>
          <Counts door={state} compact={isMobile} />
          <ScanTicketsButton
            eventId={eventId}
            size="large"
            variant="contained"
            onScanned={() => void afterDoorChange(eventId)}
          />
          {checkInCard}
        </Stack>
        <Stack spacing={2}>
          {state.duplicates.length > 0 ? (
            <Duplicates items={state.duplicates} timeZone={state.timeZone} />
          ) : null}
          {recent}
        </Stack>
      </Box>
      <ConfirmDialog
        open={undoing !== null}
        title={TICKETS_UI.undoTitle(undoing?.userName ?? '')}
        message={TICKETS_UI.undoText}
        confirmLabel={TICKETS_UI.undo}
        destructive
        pending={busy}
        onCancel={() => setUndoing(null)}
        onConfirm={() => void undo()}
      />
    </Stack>
  );
}

function Problem({
  message,
  isAdmin,
  eventId,
}: {
  message: string;
  isAdmin: boolean;
  eventId: number | null;
}) {
  return (
    <Stack spacing={2} sx={{ maxWidth: 560 }}>
      <PageHeading>{TICKETS_UI.door}</PageHeading>
      <Alert severity="warning">{message}</Alert>
      <div>
        {isAdmin && eventId !== null ? (
          <Button
            variant="outlined"
            startIcon={<ArrowBackIcon />}
            component={RouterLink}
            to={routeTo('events.view', { id: eventId })}
          >
            {TICKETS_UI.backToEvent}
          </Button>
        ) : (
          <Button variant="outlined" startIcon={<HomeIcon />} component={RouterLink} to={routeTo('home')}>
            {TICKETS_UI.home}
          </Button>
        )}
      </div>
    </Stack>
  );
}
