import type {
  ArrangedItem,
  ArrangeRequest,
  BookingConflict,
  BookingPage,
  BookingResult,
  SubjectTeacherItem,
  UpdateSlotForBookingRequest,
  UserSlots,
} from '@parley/domain/booking';
import { queryOptions } from '@tanstack/react-query';
import { ApiError, api } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { bookingLinkHeaders } from './booking-link';
import { withFreshColumns } from './conflict-grid';

// Calls of the public booking pages (spec §7 Events: book-event, user-slots-for-pt, update-slot-for-booking,
// update-gown-size, remove-booking; plus arrange-slots). Every call for a code carries its personal link.

/** Which booking page: its code and, when opened from an invitation mail, the personal link token. */
export type BookingAccess = { code: string; link: string | null };

/** How often the times step re-reads the grid while it is open. */
export const GRID_POLL_MS = 15_000;

const headers = (access: BookingAccess) => bookingLinkHeaders(access.link);

export const bookingPageKey = (access: BookingAccess) =>
  ['booking', 'page', access.code, access.link] as const;

export const bookingPageQuery = (access: BookingAccess) =>
  queryOptions({
    queryKey: bookingPageKey(access),
    queryFn: ({ signal }) =>
      api.get<BookingPage>('events/book-event', {
        query: { code: access.code },
        headers: headers(access),
        signal,
      }),
  });

const slotsPrefix = (access: BookingAccess) => ['booking', 'slots', access.code, access.link] as const;

/** The live grid for the chosen teachers; the bookings it returns also refresh the page's list. */
export const userSlotsQuery = (
  access: BookingAccess,
  eventId: number,
  items: readonly SubjectTeacherItem[],
) =>
  queryOptions({
    queryKey: [...slotsPrefix(access), eventId, items] as const,
    queryFn: async ({ signal }) => {
      const data = await api.get<UserSlots>('events/user-slots-for-pt', {
        query: { eventId, subjectTeacherData: JSON.stringify(items) },
        headers: headers(access),
        signal,
      });
      setPageBookings(access, data.bookings);
      return data;
    },
    refetchInterval: GRID_POLL_MS,
    refetchOnWindowFocus: true,
  });

export const arrangeSlots = (access: BookingAccess, eventId: number, body: ArrangeRequest) =>
  api.post<{ items: ArrangedItem[]; message: string }>('events/arrange-slots', body, {
    query: { eventId },
    headers: headers(access),
  });

export const updateSlotForBooking = (
  access: BookingAccess,
  eventId: number,
  body: UpdateSlotForBookingRequest,
) =>
  api.post<BookingResult>('events/update-slot-for-booking', body, {
    query: { id: eventId },
    headers: headers(access),
  });

export const removeBooking = (access: BookingAccess, eventId: number, bookingId: number) =>
  api.post<BookingResult>(
    'events/remove-booking',
    { bookingId },
    { query: { eventId }, headers: headers(access) },
  );

export const updateGownSize = (
  access: BookingAccess,
  query: { eventId: number; studentId: number; gownSizeId: string; userSlotId: number },
) => api.post<BookingResult>('events/update-gown-size', {}, { query, headers: headers(access) });

// ---- keeping the page in step ----

function setPageBookings(access: BookingAccess, bookings: BookingPage['bookings']): void {
  queryClient.setQueryData<BookingPage>(bookingPageKey(access), (page) =>
    page ? { ...page, bookings } : page,
  );
}

/** After a booking call: the page and every open grid show the booker's bookings; the grids re-read. */
export async function afterBookingChange(access: BookingAccess, result: Pick<BookingResult, 'bookings'>) {
  setPageBookings(access, result.bookings);
  queryClient.setQueriesData<UserSlots>({ queryKey: slotsPrefix(access) }, (data) =>
    data ? { ...data, bookings: result.bookings } : data,
  );
  await refreshBookings(access);
}

/**
 * Reads the page and the grid again: a booking changed, here or elsewhere (the other parent, another
 * device). Home's "My Events" counts the bookings too: it asks again when next shown.
 */
export async function refreshBookings(access: BookingAccess) {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: slotsPrefix(access) }),
    queryClient.invalidateQueries({ queryKey: bookingPageKey(access) }),
    queryClient.invalidateQueries({ queryKey: ['home'] }),
  ]);
}

/** A 409 of a lost race or a booking rule, with the fresh grid when a slot was lost. */
export function bookingConflictOf(error: unknown): BookingConflict | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const body = (error.body ?? {}) as Partial<BookingConflict>;
  return { ...body, message: error.serverMessage ?? error.message } as BookingConflict;
}

/** Puts a conflict's fresh grid (and bookings) in place of the stale one, without a round trip. */
export function applyConflict(
  access: BookingAccess,
  conflict: BookingConflict,
  slotsKey: readonly unknown[] | null,
): void {
  const { grid, bookings } = conflict;
  if (bookings) setPageBookings(access, bookings);
  // The conflict brings the columns in question only: they replace theirs, the others stay.
  if (slotsKey && (grid || bookings)) {
    queryClient.setQueryData<UserSlots>(slotsKey, (data) => ({
      grid: grid ? withFreshColumns(data?.grid, grid) : (data?.grid ?? []),
      bookings: bookings ?? data?.bookings ?? [],
    }));
  }
  if (!slotsKey && grid) {
    queryClient.setQueryData<BookingPage>(bookingPageKey(access), (page) =>
      page ? { ...page, grid: withFreshColumns(page.grid, grid) } : page,
    );
  }
}

/** A request that got no answer: the same action may be retried with the same idempotency key. */
export const isNetworkFailure = (error: unknown) => error instanceof ApiError && error.status === 0;
