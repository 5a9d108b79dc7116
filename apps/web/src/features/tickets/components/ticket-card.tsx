import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { TICKET_QR_SIZE, TICKET_TEXT, type Ticket } from '@parley/domain/tickets';
import { formatIsoDateTime } from '@parley/domain/time-zone';
import { TICKETS_UI } from '../tickets-text';
import { TicketQr } from './ticket-qr';

type Props = { ticket: Ticket; eventName: string };

/**
 * "Scanned: …" when the ticket is scanned and the date is known, in the school's zone and style; else
 * nothing. Here, in the dialog's own chunk, so the booking page's ticket button loads no date formatting.
 */
export const scannedLine = (ticket: Pick<Ticket, 'scanned' | 'scannedDate' | 'timeZone'>): string | null =>
  ticket.scanned && ticket.scannedDate
    ? TICKET_TEXT.scannedAt(formatIsoDateTime(ticket.scannedDate, ticket.timeZone))
    : null;

/** One ticket as "Your Ticket" shows it (spec §2): who, what, the QR, its state and the notes. */
export function TicketCard({ ticket, eventName }: Props) {
  const scanned = scannedLine(ticket);
  return (
    <Stack spacing={1.5} sx={{ alignItems: 'center', textAlign: 'center' }} data-testid="ticket">
      <Box>
        <Typography component="h3" variant="h6" sx={{ fontWeight: 600, lineHeight: 1.3 }}>
          {ticket.eventName || eventName}
        </Typography>
        <Typography variant="subtitle1">{ticket.userName}</Typography>
        {ticket.eventDateLabel ? (
          <Typography variant="body2" color="text.secondary">
            {ticket.eventDateLabel}
          </Typography>
        ) : null}
        {ticket.location ? (
          <Typography variant="body2" color="text.secondary">
            {ticket.location}
          </Typography>
        ) : null}
      </Box>
      <Box sx={{ p: 0.5, bgcolor: '#fff', borderRadius: 1, lineHeight: 0 }}>
        <TicketQr text={ticket.qrCodeUrl} size={TICKET_QR_SIZE} label={TICKETS_UI.qrLabel(ticket.userName)} />
      </Box>
      {ticket.scanned ? (
        <Chip color="success" variant="filled" label={TICKET_TEXT.scannedChip} />
      ) : (
        <Chip color="warning" variant="outlined" label={TICKET_TEXT.readyChip} />
      )}
      {scanned ? <Typography variant="body2">{scanned}</Typography> : null}
      <Box>
        <Typography variant="body2" color="text.secondary">
          {TICKET_TEXT.showToStaff}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {TICKET_TEXT.keepTicket}
        </Typography>
      </Box>
    </Stack>
  );
}
