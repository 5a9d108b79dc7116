import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlineOutlined';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import EventRepeatIcon from '@mui/icons-material/EventRepeat';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { BookingResult } from '@parley/domain/booking';
import { EVENT_GROUPS } from '@parley/domain/event-groups';
import type { BookingItem, EventDetail } from '@parley/domain/events';
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { useSnackbar } from '../../../components/snackbar';
import { ApiError, serverMessage } from '../../../lib/api-client';
import { queryClient } from '../../../lib/query-client';
import { LIST_TEXT } from '../../../lib/ui-text';
import { familyLabel, moveRequest, moveTargets, sharedDate, ADMIN_BOOKING_TEXT as T } from '../admin-booking';
import { afterEventChange, eventQuery, updateSlotByAdmin } from '../api';
import { useSlotColumns } from './use-slot-columns';

/**
 * Runs one booking change of the admin: the server's message in a green snackbar and the event reloaded,
 * or its message in a red one (a 409 reloads the event too: the slots have changed under the admin).
 */
export function useBookingChange(eventId: number) {
  const showSnackbar = useSnackbar();
  return useCallback(
    async (
      change: () => Promise<BookingResult>,
      onError?: (error: unknown) => void,
    ): Promise<BookingResult | null> => {
      try {
        const result = await change();
        showSnackbar(result.message, 'success');
        await afterEventChange(eventId);
        return result;
      } catch (error) {
        showSnackbar(serverMessage(error, T.failed), 'error');
        onError?.(error);
        if (error instanceof ApiError && error.status === 409) {
          await queryClient.invalidateQueries({ queryKey: eventQuery(eventId).queryKey });
        }
        return null;
      }
    },
    [eventId, showSnackbar],
  );
}

type MenuProps = {
  booking: BookingItem;
  confirmed: boolean;
  onMove: () => void;
  onConfirm: () => void;
  onRemove: () => void;
};

/** The "⋮" of a live booking: Move, Confirm, Remove (one button per row, so it fits a phone). */
export function BookingMenu({ booking, confirmed, onMove, onConfirm, onRemove }: MenuProps) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const pick = (action: () => void) => () => {
    setAnchor(null);
    action();
  };
  const label = T.actionsFor(familyLabel(booking), booking.timeLabel);
  return (
    <>
      <IconButton
        size="small"
        aria-label={label}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        <MoreVertIcon fontSize="small" />
      </IconButton>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <MenuItem onClick={pick(onMove)}>
          <ListItemIcon>
            <EventRepeatIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{T.move}</ListItemText>
        </MenuItem>
        <MenuItem onClick={pick(onConfirm)}>
          <ListItemIcon>
            <CheckCircleOutlineIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{confirmed ? T.confirmAgain : T.confirm}</ListItemText>
        </MenuItem>
        <MenuItem onClick={pick(onRemove)} sx={{ color: 'error.main' }}>
          <ListItemIcon sx={{ color: 'inherit' }}>
            <DeleteOutlineIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{T.remove}</ListItemText>
        </MenuItem>
      </Menu>
    </>
  );
}

/** Move a booking to another free slot (the same teacher's at a parent-teacher evening). */
export function MoveBookingDialog({
  event,
  booking,
  onClose,
}: {
  event: EventDetail;
  /** null: closed. */
  booking: BookingItem | null;
  onClose: () => void;
}) {
  const titleId = useId();
  const run = useBookingChange(event.id);
  const [slotId, setSlotId] = useState('');
  const [saving, setSaving] = useState(false);
  // The booking's teacher's column (or a general event's columns), asked for as the dialog opens.
  const columns = useSlotColumns(event, booking?.teacherId ?? null, booking !== null);
  const targets = useMemo(
    () => (booking ? moveTargets({ ...columns, eventTypeGroupInt: event.eventTypeGroupInt }, booking) : []),
    [columns, event.eventTypeGroupInt, booking],
  );

  useEffect(() => {
    if (booking) setSlotId('');
  }, [booking]);

  // A slot taken meanwhile (the event reloads after a 409) leaves the choice: clear it.
  useEffect(() => {
    if (slotId && !targets.some((target) => String(target.slotId) === slotId)) setSlotId('');
  }, [targets, slotId]);

  const submit = async () => {
    if (!booking || !slotId) return;
    setSaving(true);
    const result = await run(() => updateSlotByAdmin(event.id, moveRequest(booking, Number(slotId))));
    setSaving(false);
    if (result) onClose();
  };

  return (
    <Dialog
      open={booking !== null}
      onClose={saving ? undefined : onClose}
      aria-labelledby={titleId}
      fullWidth
      slotProps={{ paper: { sx: { maxWidth: 520 } } }}
    >
      <DialogTitle id={titleId}>{T.moveTitle}</DialogTitle>
      <DialogContent>
        {booking ? (
          <Stack spacing={2} sx={{ pt: 0.5 }}>
            <div>
              <Typography sx={{ fontWeight: 600 }}>{familyLabel(booking)}</Typography>
              <Typography variant="body2" color="text.secondary">
                {T.moveNow(
                  booking.teacherName
                    ? `${booking.timeLabel} with ${booking.teacherName}`
                    : booking.timeLabel,
                )}
              </Typography>
            </div>
            {columns.loading ? (
              <Typography color="text.secondary">{T.findingTimes}</Typography>
            ) : targets.length === 0 ? (
              <Alert severity="info">
                {booking.teacherName && event.eventTypeGroupInt === EVENT_GROUPS.parentTeacher
                  ? T.noMoveTargetsTeacher(booking.teacherName)
                  : T.noMoveTargets}
              </Alert>
            ) : (
              <TextField
                select
                label={T.newTime}
                value={slotId}
                onChange={(e) => setSlotId(e.target.value)}
                helperText={sharedDate(targets)}
                fullWidth
              >
                {targets.map((target) => (
                  <MenuItem key={target.slotId} value={String(target.slotId)}>
                    {target.label}
                  </MenuItem>
                ))}
              </TextField>
            )}
          </Stack>
        ) : null}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={saving}>
          {LIST_TEXT.cancel}
        </Button>
        <Button variant="contained" onClick={() => void submit()} disabled={!slotId} loading={saving}>
          {T.moveSubmit}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
