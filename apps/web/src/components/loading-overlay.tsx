import Backdrop from '@mui/material/Backdrop';
import CircularProgress from '@mui/material/CircularProgress';

/** Spec §9: overlays sit at z-index 2000. */
export const OVERLAY_Z_INDEX = 2000;

export function LoadingOverlay({ open }: { open: boolean }) {
  return (
    <Backdrop open={open} sx={{ zIndex: OVERLAY_Z_INDEX, color: '#fff' }}>
      <CircularProgress color="inherit" aria-label="Loading" />
    </Backdrop>
  );
}
