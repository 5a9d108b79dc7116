import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';

type Props = {
  open: boolean;
  title?: string;
  message: string;
  buttonLabel: string;
  onConfirm: () => void;
};

/** A persistent confirmation: one message, one button (e.g. the server's answer, then login). */
export function MessageDialog({ open, title, message, buttonLabel, onConfirm }: Props) {
  const titleId = useId();
  const textId = useId();
  return (
    <Dialog
      open={open}
      aria-labelledby={title ? titleId : textId}
      aria-describedby={textId}
      fullWidth
      maxWidth="xs"
    >
      {title ? <DialogTitle id={titleId}>{title}</DialogTitle> : null}
      <DialogContent>
        <DialogContentText id={textId}>{message}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onConfirm}>
          {buttonLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
