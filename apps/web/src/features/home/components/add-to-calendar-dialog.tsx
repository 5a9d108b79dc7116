import EventIcon from '@mui/icons-material/Event';
import NotificationsActiveIcon from '@mui/icons-material/NotificationsActiveOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { MY_EVENTS_TEXT, type OpenEventSummaryItem } from '@parley/domain/booking';
import { useId } from 'react';
import { MY_EVENTS_UI } from '../my-events-text';

type Props = {
  open: boolean;
  item: Pick<OpenEventSummaryItem, 'name' | 'eventDetails' | 'location'> | null;
  pending: boolean;
  /** In a browser: spec §8 "only available on mobile devices"; the event comes as an .ics file instead. */
  notice?: string | null;
  onCancel: () => void;
  onConfirm: () => void;
};

/** Spec §2 Home dialogs: the "Add to Calendar" confirmation with name, date and "Reminder: 1 day before". */
export function AddToCalendarDialog({ open, item, pending, notice, onCancel, onConfirm }: Props) {
  const titleId = useId();
  return (
    <Dialog
      open={open && item !== null}
      onClose={pending ? undefined : onCancel}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="xs"
    >
      <DialogTitle id={titleId}>{MY_EVENTS_UI.calendarTitle}</DialogTitle>
      <DialogContent>
        <Stack spacing={1.5}>
          <Typography variant="subtitle1" component="p" sx={{ fontWeight: 600 }}>
            {item?.name}
          </Typography>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <EventIcon fontSize="small" color="action" />
            <Typography>{item?.eventDetails || MY_EVENTS_UI.calendarNoDate}</Typography>
          </Stack>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <NotificationsActiveIcon fontSize="small" color="action" />
            <Typography>{MY_EVENTS_TEXT.calendarReminder}</Typography>
          </Stack>
          {notice ? <Alert severity="info">{notice}</Alert> : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={pending}>
          {MY_EVENTS_UI.calendarCancel}
        </Button>
        <Button
          variant="contained"
          onClick={onConfirm}
          disabled={pending}
          startIcon={pending ? <CircularProgress size={16} /> : undefined}
        >
          {MY_EVENTS_UI.calendarConfirm}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
