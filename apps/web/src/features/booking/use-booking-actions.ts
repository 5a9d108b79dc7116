import type { BookingResult, UpdateSlotForBookingRequest } from '@parley/domain/booking';
import { useMutation } from '@tanstack/react-query';
import { useRef } from 'react';
import { errorLines } from '../../lib/api-client';
import {
  afterBookingChange,
  applyConflict,
  type BookingAccess,
  bookingConflictOf,
  isNetworkFailure,
  updateSlotForBooking,
} from './api';
import { BOOKING_UI } from './booking-text';
import { createIdempotencyKeys } from './idempotency';

export type BookBody = Omit<UpdateSlotForBookingRequest, 'idempotencyKey'>;

/**
 * Book and/or cancel in one update-slot-for-booking call. Each action gets a fresh idempotency key; the
 * same action retried after a network failure sends the same key. A 409 puts the fresh grid in place.
 * `slotsKey`: the grid query to replace on a conflict (null: the page's own grid).
 */
export function useBookAction(
  access: BookingAccess,
  eventId: number,
  slotsKey: readonly unknown[] | null,
  onBooked: (result: BookingResult) => void,
) {
  const keys = useRef(createIdempotencyKeys()).current;
  return useMutation({
    mutationFn: async (body: BookBody) => {
      const signature = JSON.stringify(body);
      const idempotencyKey = keys.keyFor(signature);
      try {
        const result = await updateSlotForBooking(access, eventId, { ...body, idempotencyKey });
        keys.settle(signature, 'done');
        return result;
      } catch (error) {
        keys.settle(signature, isNetworkFailure(error) ? 'retryable' : 'done');
        throw error;
      }
    },
    onSuccess: async (result) => {
      onBooked(result);
      await afterBookingChange(access, result);
    },
    onError: (error) => {
      const conflict = bookingConflictOf(error);
      if (conflict) applyConflict(access, conflict, slotsKey);
    },
  });
}

/** What to show for a failed booking call: the conflict's message, field messages, or a fallback. */
export function bookingErrorLines(error: unknown): string[] {
  const conflict = bookingConflictOf(error);
  if (conflict?.message) return [conflict.message];
  if (isNetworkFailure(error)) return [BOOKING_UI.offline];
  return errorLines(error, BOOKING_UI.saveFailed);
}
