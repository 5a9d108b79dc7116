import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Snackbar from '@mui/material/Snackbar';
import { useEffect, useSyncExternalStore } from 'react';
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
  return (
    <>
      <Snackbar
        open={ready}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
        // Above the phone's bottom bar (56 px), like the app's other snackbar.
        sx={{ bottom: { xs: 72, md: 24 } }}
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
        anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
        // Just under the header (48 px on a phone, 64 px wide), not over its title and menus.
        sx={{ top: { xs: 56, md: 72 } }}
      >
        <Alert severity="warning" variant="filled" sx={{ py: 0 }}>
          {APP_UPDATE_TEXT.offline}
        </Alert>
      </Snackbar>
    </>
  );
}
