import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import type { EventConflict } from '@parley/domain/events';
import { useCallback, useId, useState } from 'react';
import { useSnackbar } from '../../../components/snackbar';
import { serverMessage } from '../../../lib/api-client';
import { EVENTS_TEXT, LIST_TEXT } from '../../../lib/ui-text';
import { conflictOf } from '../api';

type Props = {
  conflict: EventConflict | null;
  pending: boolean;
  onConfirm: () => void;
  onCancel: () => void;
};

/** A 409 of a change that would cancel bookings: the list, and "Apply anyway and tell the families". */
export function AffectedBookingsDialog({ conflict, pending, onConfirm, onCancel }: Props) {
  const titleId = useId();
  const bookings = conflict?.affectedBookings ?? [];
  return (
    <Dialog
      open={conflict !== null}
      onClose={pending ? undefined : onCancel}
      aria-labelledby={titleId}
      fullWidth
      slotProps={{ paper: { sx: { maxWidth: 560 } } }}
    >
      <DialogTitle id={titleId}>{EVENTS_TEXT.affectedTitle}</DialogTitle>
      <DialogContent>
        <Alert severity="warning" sx={{ mb: 1 }}>
          {conflict?.message}
        </Alert>
        <List dense aria-label={EVENTS_TEXT.affectedIntro} sx={{ maxHeight: 320, overflow: 'auto' }}>
          {bookings.map((booking) => (
            <ListItem key={booking.bookingId} disableGutters>
              <ListItemText
                primary={booking.familyName}
                secondary={[booking.timeLabel, booking.teacherName].filter(Boolean).join(' · ')}
              />
            </ListItem>
          ))}
        </List>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onCancel} disabled={pending}>
          {LIST_TEXT.cancel}
        </Button>
        <Button variant="contained" color="warning" onClick={onConfirm} loading={pending}>
          {EVENTS_TEXT.applyAnyway}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

type Run<T> = (confirm: boolean) => Promise<T>;

/**
 * Runs a change that may answer 409 with affected bookings: the dialog asks, and "Apply anyway" runs it
 * again with confirm: true. Other failures show the server's message in a red snackbar.
 */
export function useConfirmedChange() {
  const showSnackbar = useSnackbar();
  const [state, setState] = useState<{ conflict: EventConflict; run: Run<unknown> } | null>(null);
  const [pending, setPending] = useState(false);

  const attempt = useCallback(
    async <T,>(run: Run<T>, fallback: string): Promise<T | undefined> => {
      try {
        return await run(false);
      } catch (error) {
        const conflict = conflictOf(error);
        if (conflict) setState({ conflict, run });
        else showSnackbar(serverMessage(error, fallback), 'error');
        return undefined;
      }
    },
    [showSnackbar],
  );

  const dialog = (
    <AffectedBookingsDialog
      conflict={state?.conflict ?? null}
      pending={pending}
      onCancel={() => setState(null)}
      onConfirm={async () => {
        if (!state) return;
        setPending(true);
        try {
          await state.run(true);
          setState(null);
        } catch (error) {
          showSnackbar(serverMessage(error, EVENTS_TEXT.saveFailed), 'error');
        } finally {
          setPending(false);
        }
      }}
    />
  );

  return { attempt, dialog };
}
