import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';
import { LIST_TEXT } from '../lib/ui-text';

type Props = {
  open: boolean;
  title: string;
  message: string;
  confirmLabel: string;
  /** The dismiss button, when "Cancel" would read like the action itself (cancelling a booking). */
  cancelLabel?: string;
  onConfirm: () => void;
  onCancel: () => void;
  /** A destructive action gets a red button. */
  destructive?: boolean;
  pending?: boolean;
};

/** Asks before an action that cannot simply be undone (deactivate, remove, delete). */
export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel,
  cancelLabel = LIST_TEXT.cancel,
  onConfirm,
  onCancel,
  destructive = false,
  pending = false,
}: Props) {
  const titleId = useId();
  const textId = useId();
  return (
    <Dialog
      open={open}
      onClose={pending ? undefined : onCancel}
      aria-labelledby={titleId}
      aria-describedby={textId}
      fullWidth
      maxWidth="xs"
    >
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId}>{message}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={pending}>
          {cancelLabel}
        </Button>
        <Button
          variant="contained"
          color={destructive ? 'error' : 'primary'}
          onClick={onConfirm}
          disabled={pending}
        >
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
