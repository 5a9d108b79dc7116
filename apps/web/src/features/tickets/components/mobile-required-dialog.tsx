import PhoneIphoneIcon from '@mui/icons-material/PhoneIphone';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { TICKET_TEXT } from '@parley/domain/tickets';
import { useId } from 'react';
import { TICKETS_UI } from '../tickets-text';

/** Spec §2/§5: "Scan Tickets" on a device without a touch screen or camera. */
export function MobileRequiredDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const titleId = useId();
  const textId = useId();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} aria-describedby={textId} maxWidth="xs">
      <DialogTitle id={titleId}>{TICKET_TEXT.mobileRequired}</DialogTitle>
      <DialogContent>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start' }}>
          <PhoneIphoneIcon color="primary" sx={{ fontSize: 40 }} />
          <DialogContentText id={textId}>{TICKETS_UI.mobileRequiredBody}</DialogContentText>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose}>
          {TICKETS_UI.ok}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
