import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Snackbar from '@mui/material/Snackbar';
import { useEffect, useSyncExternalStore } from 'react';
import { useIsMobile } from '../../components/use-is-mobile';
import { APP_UPDATE_TEXT } from './app-update-text';
import { type AppUpdates, appUpdates } from './app-updates';

const subscribeOnline = (listener: () => void) => {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
};

/** Mounted once in the app: the "new version" prompt and the offline notice. */
export function AppUpdateNotices({ updates = appUpdates }: { updates?: AppUpdates }) {
  useEffect(() => updates.start(), [updates]);
  const ready = useSyncExternalStore(updates.subscribe, updates.isReady);
  const online = useSyncExternalStore(subscribeOnline, () => navigator.onLine);
  const isMobile = useIsMobile();
  return (
    <>
      <Snackbar
        open={ready}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
        // Above the phone's bottom bar (56 px), like the app's other snackbar; above the offline notice.
        sx={{ bottom: { xs: isMobile ? (online ? 72 : 120) : 24 } }}
      >
        <Alert
          severity="info"
          variant="filled"
          sx={{ width: '100%', minWidth: 'min(344px, calc(100vw - 16px))', alignItems: 'center' }}
          action={
            <Button color="inherit" size="small" onClick={() => updates.activate()}>
              {APP_UPDATE_TEXT.reload}
            </Button>
          }
        >
          {APP_UPDATE_TEXT.ready}
        </Alert>
      </Snackbar>
      <Snackbar
        open={!online}
        // Wide screens: just under the header (64 px). Phones: above the bottom bar (56 px), where it
        // covers no heading or menu.
        anchorOrigin={{ vertical: isMobile ? 'bottom' : 'top', horizontal: 'center' }}
        // Breakpoint values: MUI's own offsets sit in media queries that a plain value would lose to.
        sx={isMobile ? { bottom: { xs: 72 } } : { top: { xs: 72 } }}
      >
        <Alert severity="warning" variant="filled" sx={{ py: 0 }}>
          {APP_UPDATE_TEXT.offline}
        </Alert>
      </Snackbar>
    </>
  );
}
