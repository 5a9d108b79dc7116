import ConfirmationNumberIcon from '@mui/icons-material/ConfirmationNumberOutlined';
import LoginIcon from '@mui/icons-material/Login';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { TICKET_QR_SIZE, TICKET_TEXT, ticketPath } from '@parley/domain/tickets';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useMemo, useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { LoadingOverlay } from '../../../components/loading-overlay';
import { PageHeading } from '../../../components/page-heading';
import { useSnackbar } from '../../../components/snackbar';
import { loginFor } from '../../../lib/navigation';
import { useSession } from '../../../lib/session';
import { useSiteConfig } from '../../../lib/site-config';
import { randomNonce, scanCalls, validateTicket } from '../api';
import { admit, resultLines, type ScanPanel, scannedSnackbar } from '../scan-logic';
import { linkView } from '../ticket-link-logic';
import { TICKETS_UI } from '../tickets-text';
import { ScanResultPanel } from './scan-result-panel';
import { TicketLines } from './ticket-lines';
import { TicketQr } from './ticket-qr';

function Frame({ children }: { children: ReactNode }) {
  return (
    <Box sx={{ maxWidth: 440, mx: 'auto' }}>
      <Card variant="outlined">
        <CardContent sx={{ p: { xs: 2, md: 3 } }}>{children}</CardContent>
      </Card>
    </Box>
  );
}

/**
 * /t/{code}: the address in a ticket's QR, which a phone's own camera app opens. For anyone: this is a
 * ticket, show it at the door (with its QR again). For a signed-in admin or scanner of its event: the
 * ticket validated, and "Admit". The code goes to this app's API only, and only for a signed-in person.
 */
export function TicketLinkPage() {
  const { code = '' } = useParams();
  const { token, user } = useSession();
  const { config } = useSiteConfig();
  const showSnackbar = useSnackbar();
  const calls = useMemo(() => scanCalls(user?.id), [user?.id]);
  const signedIn = token !== null;
  const check = useQuery({
    queryKey: ['tickets', 'link', code, user?.id ?? null],
    queryFn: () => validateTicket(code),
    enabled: signedIn && code.length > 0,
    staleTime: 0,
    gcTime: 0,
  });
  const [result, setResult] = useState<ScanPanel | null>(null);
  const [busy, setBusy] = useState(false);

  const view = linkView({ signedIn, data: check.data?.data, error: check.error });

  const send = async (eventId: number, clientNonce: string, validated: ScanPanel['ticket']) => {
    setBusy(true);
    const outcome = await admit(calls, code, eventId, clientNonce, validated);
    setBusy(false);
    setResult(outcome.panel);
    const text = scannedSnackbar(outcome.scanned);
    if (text) showSnackbar(text, 'success');
  };

  if (result) {
    const retry = result.retry;
    const eventId = result.ticket?.eventId;
    return (
      <Frame>
        <ScanResultPanel
          panel={result}
          busy={busy}
          {...(retry && eventId
            ? { onRetry: () => void send(eventId, retry.clientNonce, result.ticket) }
            : {})}
        />
        <LoadingOverlay open={busy} />
      </Frame>
    );
  }

  if (view.kind === 'checking') {
    return (
      <Frame>
        <Stack spacing={2} sx={{ alignItems: 'center', py: 4 }} role="status">
          <CircularProgress />
          <Typography>{TICKETS_UI.validating}</Typography>
        </Stack>
      </Frame>
    );
  }

  if (view.kind === 'result') {
    const failed = view.panel.title === TICKET_TEXT.error;
    return (
      <Frame>
        <ScanResultPanel panel={view.panel} />
        {failed ? (
          <Box sx={{ textAlign: 'center', mt: 1 }}>
            <Button variant="outlined" onClick={() => void check.refetch()}>
              {TICKET_TEXT.tryAgain}
            </Button>
          </Box>
        ) : null}
      </Frame>
    );
  }

  if (view.kind === 'admit') {
    const { ticket } = view;
    return (
      <Frame>
        <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center' }}>
          <ConfirmationNumberIcon color="primary" sx={{ fontSize: 56 }} />
          <Typography component="h1" variant="h6" sx={{ fontWeight: 600 }}>
            {TICKETS_UI.linkCheck}
          </Typography>
          <Typography>{view.message}</Typography>
          <TicketLines lines={resultLines(ticket)} />
          <Button
            variant="contained"
            size="large"
            disabled={busy}
            onClick={() => void send(ticket.eventId, randomNonce(), ticket)}
          >
            {TICKETS_UI.admit}
          </Button>
        </Stack>
        <LoadingOverlay open={busy} />
      </Frame>
    );
  }

  // For anyone: what this is, and the QR again to show at the door.
  const here = `${window.location.origin}${ticketPath(encodeURIComponent(code))}`;
  return (
    <Frame>
      <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center' }}>
        <PageHeading>{TICKETS_UI.linkTitle(config.appName)}</PageHeading>
        <Typography>{TICKETS_UI.linkIntro(config.appName)}</Typography>
        <Box sx={{ p: 1, bgcolor: '#fff', borderRadius: 1, lineHeight: 0 }}>
          <TicketQr text={here} size={TICKET_QR_SIZE + 45} label={TICKETS_UI.linkQrLabel} />
        </Box>
        <Typography variant="body2" color="text.secondary">
          {TICKET_TEXT.showToStaff} {TICKET_TEXT.keepTicket}
        </Typography>
        {signedIn ? null : (
          <Stack spacing={1} sx={{ alignItems: 'center', pt: 1 }}>
            <Typography variant="body2">{TICKETS_UI.linkStaff}</Typography>
            <Button
              variant="outlined"
              startIcon={<LoginIcon />}
              component={RouterLink}
              to={loginFor(ticketPath(encodeURIComponent(code)))}
            >
              {TICKETS_UI.linkLogin}
            </Button>
          </Stack>
        )}
      </Stack>
    </Frame>
  );
}
