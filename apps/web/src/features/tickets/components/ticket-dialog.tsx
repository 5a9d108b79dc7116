import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import CloseIcon from '@mui/icons-material/Close';
import PrintIcon from '@mui/icons-material/PrintOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import GlobalStyles from '@mui/material/GlobalStyles';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { UI_TEXT } from '@parley/domain/messages';
import { TICKET_TEXT } from '@parley/domain/tickets';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { queryClient } from '../../../lib/query-client';
import { eventTicketQuery } from '../api';
import { missingInfo, ticketLoadErrorText } from '../ticket-logic';
import { TICKETS_UI } from '../tickets-text';
import { TicketCard } from './ticket-card';

export type TicketDialogProps = {
  open: boolean;
  eventId: number | null;
  userId: number | null;
  eventName?: string;
  userName?: string;
  onClose: () => void;
};

// Printing shows the tickets only: the app behind the dialog is hidden and the dialog lays out on paper,
// black on white, one ticket a page. MUI's styles go through emotion, whose tags carry the CSP nonce.
const PRINT_PAGE = { '@media print': { '#root': { display: 'none' } } };
const printDialog = {
  '@media print': {
    position: 'static',
    '& .MuiBackdrop-root': { display: 'none' },
    '& .MuiDialog-container': { display: 'block', height: 'auto' },
    '& .MuiDialog-paper': {
      m: 0,
      maxWidth: 'none',
      maxHeight: 'none',
      boxShadow: 'none',
      bgcolor: '#fff',
      backgroundImage: 'none',
      color: '#000',
    },
    '& .MuiTypography-root': { color: '#000' },
  },
};
const screenOnly = { '@media print': { display: 'none' } };

/** Spec §2 "Your Ticket": the person's ticket (and their guests'), persistent, with a close button. */
export function TicketDialog({
  open,
  eventId,
  userId,
  eventName = '',
  userName = '',
  onClose,
}: TicketDialogProps) {
  const titleId = useId();
  const [shown, setShown] = useState(0);
  const missing = missingInfo(eventId, userId);
  const ticket = useQuery({
    ...eventTicketQuery(eventId ?? 0, userId ?? 0),
    enabled: open && !missing,
  });

  // Spec §4: closing resets ticket, error and loading — the next opening loads afresh.
  useEffect(() => {
    if (open) return;
    setShown(0);
    queryClient.removeQueries({ queryKey: eventTicketQuery(eventId ?? 0, userId ?? 0).queryKey });
  }, [open, eventId, userId]);

  const loading = ticket.isFetching;
  const result = ticket.data ?? null;
  const error = ticket.isError ? ticketLoadErrorText(ticket.error) : (result?.error ?? null);
  const tickets = !loading && !error ? (result?.tickets ?? []) : [];
  const current = Math.min(shown, Math.max(tickets.length - 1, 0));

  let body: ReactNode;
  if (missing) {
    body = <Alert severity="error">{TICKET_TEXT.missingInfo}</Alert>;
  } else if (loading) {
    body = (
      <Stack spacing={2} sx={{ alignItems: 'center', py: 4 }} role="status">
        <CircularProgress />
        <Typography>{TICKET_TEXT.loading}</Typography>
      </Stack>
    );
  } else if (error) {
    body = (
      <Stack spacing={2} sx={{ alignItems: 'center', py: 2 }}>
        <Alert severity="error" sx={{ width: '100%' }}>
          {error}
        </Alert>
        <Button variant="outlined" onClick={() => void ticket.refetch()}>
          {TICKET_TEXT.tryAgain}
        </Button>
      </Stack>
    );
  } else if (tickets.length > 0) {
    body = (
      <Stack spacing={2}>
        {tickets.length > 1 ? (
          <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'center', ...screenOnly }}>
            <IconButton
              aria-label={TICKETS_UI.previousTicket}
              disabled={current === 0}
              onClick={() => setShown(current - 1)}
            >
              <ChevronLeftIcon />
            </IconButton>
            <Typography variant="body2" aria-live="polite" sx={{ minWidth: 110, textAlign: 'center' }}>
              {TICKETS_UI.ticketOf(current + 1, tickets.length)}
            </Typography>
            <IconButton
              aria-label={TICKETS_UI.nextTicket}
              disabled={current === tickets.length - 1}
              onClick={() => setShown(current + 1)}
            >
              <ChevronRightIcon />
            </IconButton>
          </Stack>
        ) : null}
        {tickets.map((ticket, index) => (
          <Box
            key={ticket.ticketId}
            hidden={index !== current}
            sx={{
              '@media print': {
                display: 'block',
                breakInside: 'avoid',
                ...(index < tickets.length - 1 ? { breakAfter: 'page' } : {}),
              },
            }}
          >
            <TicketCard ticket={ticket} eventName={eventName} />
          </Box>
        ))}
      </Stack>
    );
  } else {
    body = (
      <Typography color="text.secondary" sx={{ py: 2, textAlign: 'center' }}>
        {TICKET_TEXT.noTicket}
      </Typography>
    );
  }

  return (
    <Dialog
      open={open}
      aria-labelledby={titleId}
      fullWidth
      slotProps={{ paper: { sx: { maxWidth: 400 } } }}
      sx={printDialog}
    >
      {open ? <GlobalStyles styles={PRINT_PAGE} /> : null}
      <DialogTitle id={titleId} sx={{ pr: 6 }}>
        {TICKET_TEXT.yourTicket}
      </DialogTitle>
      <IconButton
        aria-label={UI_TEXT.close}
        onClick={onClose}
        sx={{ position: 'absolute', right: 8, top: 8, ...screenOnly }}
      >
        <CloseIcon />
      </IconButton>
      <DialogContent dividers>
        {userName && tickets.length === 0 ? (
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {[userName, eventName].filter(Boolean).join(' · ')}
          </Typography>
        ) : null}
        {body}
      </DialogContent>
      {tickets.length > 0 ? (
        <DialogActions sx={screenOnly}>
          <Button startIcon={<PrintIcon />} onClick={() => window.print()}>
            {TICKETS_UI.print}
          </Button>
        </DialogActions>
      ) : null}
    </Dialog>
  );
}
