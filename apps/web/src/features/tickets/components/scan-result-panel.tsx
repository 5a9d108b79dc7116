import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ErrorIcon from '@mui/icons-material/Error';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { TICKET_TEXT } from '@parley/domain/tickets';
import { useId } from 'react';
import { resultLines, type ScanPanel } from '../scan-logic';
import { TicketLines } from './ticket-lines';

type Props = {
  panel: ScanPanel;
  /** "Scan Another" (the scanner); absent on the door page, where the next search is the next step. */
  onNext?: () => void;
  /** Sends the failed request again with the same nonce. */
  onRetry?: () => void;
  busy?: boolean;
};

/** Spec §2: the result of a scan — icon, title, message and the ticket's Name, Email, Event, Scanned. */
export function ScanResultPanel({ panel, onNext, onRetry, busy = false }: Props) {
  const titleId = useId();
  const ok = panel.outcome === 'success';
  const lines = panel.ticket ? resultLines(panel.ticket) : (panel.lines ?? []);
  return (
    <Stack
      role="status"
      aria-labelledby={titleId}
      spacing={1.5}
      sx={{ alignItems: 'center', textAlign: 'center', py: 1 }}
    >
      {ok ? (
        <CheckCircleIcon color="success" sx={{ fontSize: 64 }} />
      ) : (
        <ErrorIcon color="error" sx={{ fontSize: 64 }} />
      )}
      <Typography id={titleId} component="h3" variant="h6" sx={{ fontWeight: 600 }}>
        {panel.title}
      </Typography>
      {panel.message ? <Typography>{panel.message}</Typography> : null}
      {panel.detail ? (
        <Typography variant="body2" color="text.secondary">
          {panel.detail}
        </Typography>
      ) : null}
      {lines.length > 0 ? <TicketLines lines={lines} /> : null}
      {onRetry || onNext ? (
        <Stack direction="row" spacing={1} sx={{ pt: 1 }}>
          {panel.retry && onRetry ? (
            <Button variant="outlined" onClick={onRetry} disabled={busy}>
              {TICKET_TEXT.tryAgain}
            </Button>
          ) : null}
          {onNext ? (
            <Button variant="contained" onClick={onNext} disabled={busy}>
              {TICKET_TEXT.scanAnother}
            </Button>
          ) : null}
        </Stack>
      ) : null}
    </Stack>
  );
}
