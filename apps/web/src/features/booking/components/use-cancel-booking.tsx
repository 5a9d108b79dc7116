import { BOOKING_TEXT, type MyBooking } from '@parley/domain/booking';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useSnackbar } from '../../../components/snackbar';
import { afterBookingChange, type BookingAccess, refreshBookings, removeBooking } from '../api';
import { BOOKING_UI } from '../booking-text';
import { bookingErrorLines } from '../use-booking-actions';
import { bookingWho } from './booking-list';

/** Cancel a booking after a confirm dialog (remove-booking); the result refreshes the page and the grid. */
export function useCancelBooking(access: BookingAccess, eventId: number) {
  const showSnackbar = useSnackbar();
  const [target, setTarget] = useState<MyBooking | null>(null);
  const mutation = useMutation({
    mutationFn: (booking: MyBooking) => removeBooking(access, eventId, booking.id),
    onSuccess: async (result) => {
      setTarget(null);
      showSnackbar(result.message || BOOKING_TEXT.cancelled, 'success');
      await afterBookingChange(access, result);
    },
    onError: async (error) => {
      setTarget(null);
      showSnackbar(bookingErrorLines(error).join(' '), 'error');
      // Perhaps cancelled meanwhile (by the other parent, the child or the school): show them as they are.
      await refreshBookings(access);
    },
  });
  const what = target ? [target.timeLabel, bookingWho(target)].filter(Boolean).join(', ') : '';
  const dialog = (
    <ConfirmDialog
      open={target !== null}
      title={BOOKING_UI.cancelTitle}
      message={BOOKING_UI.cancelText(what)}
      confirmLabel={BOOKING_UI.cancelConfirm}
      cancelLabel={BOOKING_UI.keep}
      destructive
      pending={mutation.isPending}
      onCancel={() => setTarget(null)}
      onConfirm={() => {
        if (target) mutation.mutate(target);
      }}
    />
  );
  return { ask: setTarget, dialog, pending: mutation.isPending };
}
