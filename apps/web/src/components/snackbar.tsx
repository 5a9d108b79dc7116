import Alert, { type AlertColor } from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Snackbar from '@mui/material/Snackbar';
import { SNACKBAR_TIMEOUT_MS } from '@parley/domain/constants';
import { UI_TEXT } from '@parley/domain/messages';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';

// Spec §2: a snackbar shows messages with a Close button and auto-hides after 4000 ms.

type SnackbarMessage = { key: number; text: string; color: AlertColor };
type ShowSnackbar = (text: string, color?: AlertColor) => void;

const SnackbarContext = createContext<ShowSnackbar>(() => {});

export function SnackbarProvider({ children }: { children: ReactNode }) {
  const [message, setMessage] = useState<SnackbarMessage | null>(null);
  const [open, setOpen] = useState(false);

  const show = useCallback<ShowSnackbar>((text, color = 'info') => {
    setMessage({ key: Date.now(), text, color });
    setOpen(true);
  }, []);

  const close = useCallback((_event?: unknown, reason?: string) => {
    if (reason === 'clickaway') return;
    setOpen(false);
  }, []);

  const value = useMemo(() => show, [show]);

  return (
    <SnackbarContext.Provider value={value}>
      {children}
      <Snackbar
        key={message?.key}
        open={open}
        autoHideDuration={SNACKBAR_TIMEOUT_MS}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
        // On a phone, clear of the bottom bar (56 px) rather than over Home and Account.
        sx={{ bottom: { xs: 72, md: 24 } }}
      >
        <Alert
          severity={message?.color ?? 'info'}
          variant="filled"
          sx={{ width: '100%', minWidth: 'min(344px, calc(100vw - 16px))', alignItems: 'center' }}
          action={
            <Button color="inherit" size="small" onClick={() => close()}>
              {UI_TEXT.close}
            </Button>
          }
        >
          {message?.text}
        </Alert>
      </Snackbar>
    </SnackbarContext.Provider>
  );
}

export function useSnackbar(): ShowSnackbar {
  return useContext(SnackbarContext);
}
