import CloudDoneIcon from '@mui/icons-material/CloudDoneOutlined';
import CloudOffIcon from '@mui/icons-material/CloudOff';
import CloudUploadIcon from '@mui/icons-material/CloudUploadOutlined';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { formatIsoTime } from '@parley/domain/time-zone';
import type { DoorSnapshot } from '../offline-door';
import { TICKETS_UI } from '../tickets-text';

type Props = {
  state: DoorSnapshot;
  /** The scanner shows whether its list is ready; the door page only the network and the queue. */
  scanning: boolean;
  onDismiss: () => void;
};

/** An offline door's state (decision 013): offline and how many scans wait, the list, the last sync. */
export function OfflineStatus({ state, scanning, onDismiss }: Props) {
  const taken = state.listTakenAt ? formatIsoTime(state.listTakenAt, state.timeZone) : '';
  let network = null;
  if (state.offline) {
    const help =
      state.listState === 'fresh'
        ? TICKETS_UI.offlineChecking(taken)
        : state.listState === 'stale'
          ? TICKETS_UI.staleList(taken)
          : TICKETS_UI.noListOffline;
    network = (
      <Alert
        severity={state.listState === 'fresh' ? 'warning' : 'error'}
        icon={<CloudOffIcon />}
        data-testid="door-offline"
      >
        <AlertTitle sx={{ mb: 0 }}>{TICKETS_UI.offline(state.waiting)}</AlertTitle>
        <Typography variant="body2">{help}</Typography>
      </Alert>
    );
  } else if (state.waiting > 0) {
    network = (
      <Alert severity="info" icon={<CloudUploadIcon />}>
        {state.syncing ? TICKETS_UI.sending(state.waiting) : TICKETS_UI.waiting(state.waiting)}
      </Alert>
    );
  } else if (scanning && state.listState !== 'missing') {
    network = (
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', color: 'text.secondary' }}>
        <CloudDoneIcon fontSize="small" />
        <Typography variant="body2">{TICKETS_UI.listReady(state.listCount, taken)}</Typography>
      </Stack>
    );
  } else if (scanning && state.listLoading) {
    network = (
      <Typography variant="body2" color="text.secondary">
        {TICKETS_UI.listTaking}
      </Typography>
    );
  }

  const report = state.report;
  const problems = report ? [...report.duplicates, ...report.invalid] : [];
  return (
    <Stack spacing={1} role="status" aria-live="polite" sx={{ '&:empty': { display: 'none' } }}>
      {network}
      {report ? (
        <Alert severity={problems.length > 0 ? 'warning' : 'success'} onClose={onDismiss}>
          {TICKETS_UI.synced(report.sent, report.admitted)}
          {problems.length > 0 ? (
            <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2.5 }}>
              {problems.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </Box>
          ) : null}
        </Alert>
      ) : null}
      {state.syncError ? (
        <Alert severity="error" onClose={onDismiss}>
          {state.syncError}
        </Alert>
      ) : null}
    </Stack>
  );
}
