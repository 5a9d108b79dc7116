import QrCodeScannerIcon from '@mui/icons-material/QrCodeScanner';
import Button, { type ButtonProps } from '@mui/material/Button';
import { MY_EVENTS_TEXT } from '@parley/domain/booking';
import type { Ticket } from '@parley/domain/tickets';
import { lazy, Suspense, useEffect, useState } from 'react';
import { LoadingOverlay } from '../../../components/loading-overlay';
import { canScanOnDevice, deviceTraits } from '../device-check';

// The scanner is its own chunk: the camera and decoder code load for the people who may scan (this
// button shows only to them), never for a parent who books. On a device that can scan it loads with the
// button, so a door whose network drops before "Scan Tickets" is tapped still has its scanner.
const loadScanner = () => import('./scanner-dialog');
const ScannerDialog = lazy(() => loadScanner().then((module) => ({ default: module.ScannerDialog })));
// Shown only when a computer is asked to scan: not in the home page's bytes either.
const MobileRequiredDialog = lazy(() =>
  import('./mobile-required-dialog').then((module) => ({ default: module.MobileRequiredDialog })),
);

type Props = {
  eventId: number;
  onScanned?: (ticket: Ticket) => void;
  size?: ButtonProps['size'];
  variant?: ButtonProps['variant'];
};

/** "Scan Tickets": the scanner on a phone or tablet with a camera, else "Mobile Device Required". */
export function ScanTicketsButton({ eventId, onScanned, size = 'small', variant = 'text' }: Props) {
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const [mobileRequired, setMobileRequired] = useState(false);

  useEffect(() => {
    if (canScanOnDevice(deviceTraits())) void loadScanner().catch(() => undefined); // loaded again on tap
  }, []);

  const start = () => {
    if (!canScanOnDevice(deviceTraits())) {
      setMobileRequired(true);
      return;
    }
    setLoaded(true);
    setOpen(true);
  };

  return (
    <>
      <Button size={size} variant={variant} startIcon={<QrCodeScannerIcon />} onClick={start}>
        {MY_EVENTS_TEXT.scanTickets}
      </Button>
      {mobileRequired ? (
        <Suspense fallback={null}>
          <MobileRequiredDialog open onClose={() => setMobileRequired(false)} />
        </Suspense>
      ) : null}
      {loaded ? (
        <Suspense fallback={<LoadingOverlay open />}>
          <ScannerDialog
            open={open}
            eventId={eventId}
            onClose={() => setOpen(false)}
            {...(onScanned ? { onScanned } : {})}
          />
        </Suspense>
      ) : null}
    </>
  );
}
