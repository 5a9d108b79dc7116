import QrCodeScannerIcon from '@mui/icons-material/QrCodeScanner';
import Button, { type ButtonProps } from '@mui/material/Button';
import { MY_EVENTS_TEXT } from '@parley/domain/booking';
import type { Ticket } from '@parley/domain/tickets';
import { lazy, Suspense, useState } from 'react';
import { LoadingOverlay } from '../../../components/loading-overlay';
import { canScanOnDevice, deviceTraits } from '../device-check';
import { MobileRequiredDialog } from './mobile-required-dialog';

// The scanner is its own chunk: the camera and decoder code load when someone opens it, never for a
// parent who books.
const ScannerDialog = lazy(() =>
  import('./scanner-dialog').then((module) => ({ default: module.ScannerDialog })),
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
      <MobileRequiredDialog open={mobileRequired} onClose={() => setMobileRequired(false)} />
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
