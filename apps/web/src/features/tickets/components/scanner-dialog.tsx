import CloseIcon from '@mui/icons-material/Close';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { UI_TEXT } from '@parley/domain/messages';
import { SCAN_INTERVAL_MS, TICKET_TEXT, type Ticket, ticketCodeFromScan } from '@parley/domain/tickets';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { LoadingOverlay } from '../../../components/loading-overlay';
import { useSnackbar } from '../../../components/snackbar';
import { defaultSleep } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { scanCalls } from '../api';
import { CameraError, openCamera, stopCamera } from '../camera';
import { createFrameDecoder, type FrameDecoder } from '../decoder';
import { checkAtDoor, scanAtDoor } from '../door-scan';
import type { DoorCheck } from '../offline-door';
import { admit, checkCode, type ScanPanel } from '../scan-logic';
import { TICKETS_UI } from '../tickets-text';
import { useOfflineDoor } from '../use-offline-door';
import { OfflineStatus } from './offline-status';
import { ScanResultPanel } from './scan-result-panel';

export type ScannerDialogProps = {
  open: boolean;
  eventId: number;
  onClose: () => void;
  /** Spec §2 "ticket-scanned": after a successful scan, with the ticket. */
  onScanned?: (ticket: Ticket) => void;
};

// Spec: at most 500 wide. On a phone the dialog keeps narrow margins, so the camera view is as large as it can be.
// (Responsive values: MUI narrows a dialog on small screens in a media query that a plain value loses to.)
const SCANNER_PAPER = {
  m: { xs: 1.5, md: 4 },
  width: { xs: 'calc(100% - 24px)', md: 'calc(100% - 64px)' },
  maxWidth: { xs: 'calc(100% - 24px)', md: 500 },
};

type Camera = { status: 'starting' | 'live' | 'failed'; notice: string | null; error: string | null };
const STARTING: Camera = { status: 'starting', notice: null, error: null };

type ScannerProps = {
  eventId: number;
  onScanned: ScannerDialogProps['onScanned'];
  /** "Try Again" after a camera error: the dialog mounts a fresh scanner. */
  onRestart: () => void;
};

const withName = (result: { panel: ScanPanel; scanned: Ticket | null }): DoorCheck => ({
  ...result,
  admittedName: result.scanned?.userName ?? null,
});

/**
 * The camera, the frame loop and the result. Mounted while the dialog is open: unmounting stops the
 * tracks and the loop (spec §4 "Closing stops the camera and loop").
 */
function CameraScanner({ eventId, onScanned, onRestart }: ScannerProps) {
  const showSnackbar = useSnackbar();
  const { user } = useSession();
  const calls = useMemo(() => scanCalls(user?.id), [user?.id]);
  // Decision 013: the event's list is kept on the phone, and without a network the door goes on with it.
  const { door, state: doorState } = useOfflineDoor(eventId, true);
  const [camera, setCamera] = useState<Camera>(STARTING);
  const [panel, setPanel] = useState<ScanPanel | null>(null);
  const [validating, setValidating] = useState(false);

  const video = useRef<HTMLVideoElement | null>(null);
  const stream = useRef<MediaStream | null>(null);
  const decoder = useRef<FrameDecoder | null>(null);
  const loop = useRef<ReturnType<typeof setInterval> | null>(null);
  /** Spec §5: no code is processed while another is; set from the code's arrival to "Scan Another". */
  const processing = useRef(false);
  const reading = useRef(false);
  const latest = useRef({ calls, door, eventId, onScanned, showSnackbar });
  latest.current = { calls, door, eventId, onScanned, showSnackbar };

  /** The result, the spec's snackbar for an admission, and "ticket-scanned" for one the server admitted. */
  const show = useCallback((result: DoorCheck) => {
    const { showSnackbar: snack, onScanned: scanned } = latest.current;
    setPanel(result.panel);
    if (result.admittedName) snack(TICKET_TEXT.scannedFor(result.admittedName), 'success');
    if (result.scanned) scanned?.(result.scanned);
  }, []);

  const stopLoop = useCallback(() => {
    if (loop.current !== null) clearInterval(loop.current);
    loop.current = null;
  }, []);

  const handle = useCallback(
    async (code: string) => {
      processing.current = true;
      stopLoop(); // spec §4: the loop pauses while a code is validated
      setValidating(true);
      const { calls: api, door: offline, eventId: event } = latest.current;
      const result: DoorCheck = offline
        ? await checkAtDoor(api, offline, code, event)
        : withName(await checkCode(api, code, event));
      setValidating(false);
      show(result);
    },
    [stopLoop, show],
  );

  const startLoop = useCallback(() => {
    stopLoop();
    loop.current = setInterval(() => {
      const node = video.current;
      const read = decoder.current;
      if (processing.current || reading.current || !node || !read) return;
      reading.current = true;
      read(node)
        .then((text) => {
          const code = text === null ? null : ticketCodeFromScan(text);
          if (code && !processing.current) void handle(code);
        })
        .catch(() => undefined) // a frame that cannot be read is skipped; the next one comes in 100 ms
        .finally(() => {
          reading.current = false;
        });
    }, SCAN_INTERVAL_MS);
  }, [handle, stopLoop]);

  const attach = useCallback((node: HTMLVideoElement | null) => {
    video.current = node;
    if (node && stream.current && node.srcObject !== stream.current) {
      node.srcObject = stream.current;
      void Promise.resolve(node.play()).catch(() => undefined);
    }
  }, []);

  // Mounting starts the camera; unmounting stops the tracks and the loop.
  useEffect(() => {
    let cancelled = false;
    const env = {
      mediaDevices: navigator.mediaDevices,
      permissions: navigator.permissions,
      sleep: defaultSleep,
    };
    openCamera(env, (notice) => {
      if (!cancelled) setCamera({ status: 'starting', notice, error: null });
    })
      .then(async (opened) => {
        if (cancelled) {
          stopCamera(opened);
          return;
        }
        stream.current = opened;
        attach(video.current);
        setCamera({ status: 'live', notice: null, error: null });
        decoder.current = await createFrameDecoder();
        if (!cancelled) startLoop();
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        const text = error instanceof CameraError ? error.message : TICKET_TEXT.cameraOther;
        setCamera({ status: 'failed', notice: null, error: text });
      });
    return () => {
      cancelled = true;
      stopLoop();
      stopCamera(stream.current);
      stream.current = null;
      decoder.current = null;
      if (video.current) video.current.srcObject = null;
    };
  }, [attach, startLoop, stopLoop]);

  const scanAnother = () => {
    setPanel(null);
    processing.current = false;
    if (camera.status === 'live') startLoop();
  };

  const retry = async () => {
    const failed = panel?.retry;
    if (!failed) return;
    setValidating(true);
    const { calls: api, door: offline, eventId: event } = latest.current;
    const result = offline
      ? await scanAtDoor(api, offline, failed.ticketId, event, failed.clientNonce, panel.ticket)
      : withName(await admit(api, failed.ticketId, event, failed.clientNonce, panel.ticket));
    setValidating(false);
    show(result);
  };

  return (
    <>
      {door && doorState ? (
        <Box sx={{ mb: 1.5, '&:has(> [role="status"]:empty)': { display: 'none' } }}>
          <OfflineStatus state={doorState} scanning onDismiss={() => door.dismissReport()} />
        </Box>
      ) : null}
      {camera.status === 'failed' ? (
        <Stack spacing={2} sx={{ alignItems: 'center', py: 2 }}>
          <Alert severity="error" sx={{ width: '100%' }}>
            {camera.error}
          </Alert>
          <Button variant="outlined" onClick={onRestart}>
            {TICKET_TEXT.tryAgain}
          </Button>
        </Stack>
      ) : null}
      {camera.status === 'starting' ? (
        <Stack spacing={2} sx={{ alignItems: 'center', py: 4 }} role="status">
          <CircularProgress />
          <Typography>{camera.notice ?? TICKET_TEXT.startingCamera}</Typography>
        </Stack>
      ) : null}
      {panel ? (
        <ScanResultPanel
          panel={panel}
          busy={validating}
          onNext={scanAnother}
          onRetry={panel.retry ? () => void retry() : undefined}
        />
      ) : null}
      <Box
        hidden={camera.status !== 'live' || panel !== null}
        sx={{
          position: 'relative',
          width: '100%',
          aspectRatio: '4 / 3',
          bgcolor: '#000',
          borderRadius: 1,
          overflow: 'hidden',
        }}
      >
        <Box
          component="video"
          ref={attach}
          aria-label={TICKETS_UI.cameraView}
          autoPlay
          muted
          playsInline
          sx={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }}
        />
        <Box
          aria-hidden="true"
          sx={{
            position: 'absolute',
            top: '44%',
            left: '50%',
            width: '52%',
            aspectRatio: '1',
            transform: 'translate(-50%, -50%)',
            border: '3px solid rgba(255, 255, 255, 0.9)',
            borderRadius: 2,
            boxShadow: '0 0 0 100vmax rgba(0, 0, 0, 0.35)',
          }}
        />
        <Typography
          sx={{
            position: 'absolute',
            bottom: 12,
            left: 0,
            right: 0,
            textAlign: 'center',
            color: '#fff',
            textShadow: '0 1px 3px rgba(0, 0, 0, 0.8)',
            px: 1,
          }}
        >
          {TICKET_TEXT.positionCode}
        </Typography>
      </Box>
      <LoadingOverlay open={validating} />
    </>
  );
}

/**
 * Spec §2 "Scan Ticket": the rear camera, a frame looked at every 100 ms, and for a code the
 * validate-then-scan of spec §4/§5. Persistent: only the close button closes it. Loaded on demand, so
 * the camera and decoder code are their own chunk.
 */
export function ScannerDialog({ open, eventId, onClose, onScanned }: ScannerDialogProps) {
  const titleId = useId();
  const [attempt, setAttempt] = useState(0);
  return (
    <Dialog open={open} aria-labelledby={titleId} fullWidth slotProps={{ paper: { sx: SCANNER_PAPER } }}>
      <DialogTitle id={titleId} sx={{ pr: 6 }}>
        {TICKET_TEXT.scanTicket}
      </DialogTitle>
      <IconButton
        aria-label={UI_TEXT.close}
        onClick={onClose}
        sx={{ position: 'absolute', right: 8, top: 8 }}
      >
        <CloseIcon />
      </IconButton>
      <DialogContent dividers>
        {open ? (
          <CameraScanner
            key={attempt}
            eventId={eventId}
            onScanned={onScanned}
            onRestart={() => setAttempt((count) => count + 1)}
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
