import type { BookingPage } from '@parley/domain/booking';
import type {
  CheckInResponse,
  DoorState,
  EventTicketResponse,
  OfflineList,
  ScanTicketResponse,
  SyncScansRequest,
  SyncScansResponse,
  ValidateTicketResponse,
} from '@parley/domain/tickets';
import { queryOptions } from '@tanstack/react-query';
import { ApiError, api } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { readString, writeString } from '../../lib/storage';
import type { ScanCalls } from './scan-logic';
import { ticketLoadResult } from './ticket-logic';

// Calls of spec §7 Tickets and the door (issue 10): get-event-ticket, validate-ticket, scan-ticket,
// undo-scan and door. Every answer but the door's is wrapped in `data`.

/** The door page's address: /events/door/{id}. */
export const doorPath = (eventId: number) => `/events/door/${eventId}`;

/** Door counts refresh every 3 s and when the window regains focus. */
export const DOOR_REFRESH_MS = 3000;

/** "Your Ticket": the person's tickets for the event, or the spec §8 "Ticket load" error as data. */
export const eventTicketQuery = (eventId: number, userId: number) =>
  queryOptions({
    queryKey: ['tickets', 'ticket', eventId, userId],
    queryFn: async ({ signal }) =>
      ticketLoadResult(
        (
          await api.get<EventTicketResponse>('tickets/get-event-ticket', {
            query: { eventId, userId },
            signal,
          })
        ).data,
      ),
    staleTime: 0,
    gcTime: 0,
  });

/**
 * At the door a request that hangs is as good as none: after this long the door works offline (the scan's
 * nonce makes a late arrival harmless). A sync of up to 500 scans may take longer.
 */
export const DOOR_REQUEST_TIMEOUT_MS = 8000;
export const SYNC_TIMEOUT_MS = 60_000;

/** An abort signal after `ms` (undefined where the browser has no AbortSignal.timeout). */
export const timeoutSignal = (ms: number): AbortSignal | undefined =>
  typeof AbortSignal !== 'undefined' && typeof AbortSignal.timeout === 'function'
    ? AbortSignal.timeout(ms)
    : undefined;

const doorOptions = () => {
  const signal = timeoutSignal(DOOR_REQUEST_TIMEOUT_MS);
  return signal ? { signal } : {};
};

/** GET tickets/validate-ticket; without an event it is validated for the ticket's own (the /t/ page). */
export const validateTicket = (ticketId: string, eventId?: number) =>
  api.get<ValidateTicketResponse>('tickets/validate-ticket', {
    query: { ticketId, eventId },
    ...doorOptions(),
  });

/** 128 random bits, hex: crypto.getRandomValues also works where randomUUID does not (plain http). */
export function randomNonce(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

const DEVICE_KEY = 'scannerDeviceId';

/** This device's id in the scan log: made once, kept across sign-ins (it names the phone, not the person). */
export function scannerDeviceId(): string {
  const known = readString(DEVICE_KEY);
  if (known) return known;
  const made = randomNonce();
  writeString(DEVICE_KEY, made);
  return made;
}

export const scanTicket = (ticketId: string, eventId: number, clientNonce: string, scannedBy?: number) =>
  api.post<ScanTicketResponse>(
    'tickets/scan-ticket',
    {
      ticketId,
      eventId,
      clientNonce,
      deviceId: scannerDeviceId(),
      ...(scannedBy ? { scannedBy } : {}),
    },
    doorOptions(),
  );

/** GET tickets/offline-list: the hashed list an offline door decides with (decision 013). */
export const offlineList = (eventId: number) =>
  api.get<OfflineList>('tickets/offline-list', { query: { eventId }, ...doorOptions() });

/** POST tickets/sync-scans: a batch of the scans an offline door admitted. */
export const syncScans = (body: SyncScansRequest) => {
  const signal = timeoutSignal(SYNC_TIMEOUT_MS);
  return api.post<SyncScansResponse>('tickets/sync-scans', body, signal ? { signal } : {});
};

/** POST tickets/check-in: the door's manual check-in by ticket id (the search shows no codes: issue 35). */
export const checkIn = (id: number, eventId: number, clientNonce: string) =>
  api.post<CheckInResponse>(
    'tickets/check-in',
    { id, eventId, clientNonce, deviceId: scannerDeviceId() },
    doorOptions(),
  );

/** Admins only, by the ticket id the door's lists show; answers like scan-ticket. */
export const undoScan = (id: number) => api.post<ScanTicketResponse>('tickets/undo-scan', { id });

/** The scanner's and the door's calls, as the scan rules (scan-logic.ts) take them. */
export const scanCalls = (scannedBy: number | undefined): ScanCalls => ({
  validate: validateTicket,
  scan: (ticketId, eventId, clientNonce) => scanTicket(ticketId, eventId, clientNonce, scannedBy),
  newNonce: randomNonce,
});

/**
 * A refusal that asking again will not change (signed out, not a scanner, no such event): the door stops
 * polling until the page is opened again (issue 36: a non-scanner's page sent 9 refused requests in
 * 20 s). The default retry already leaves a 4xx alone.
 */
export const isRefusal = (error: unknown): boolean =>
  error instanceof ApiError && (error.status === 401 || error.status === 403 || error.status === 404);

/** The live count and latest admissions. */
export const doorQuery = (eventId: number) =>
  queryOptions({
    queryKey: ['tickets', 'door', eventId],
    queryFn: ({ signal }) => api.get<DoorState>('tickets/door', { query: { eventId }, signal }),
    refetchInterval: (query) => (isRefusal(query.state.error) ? false : DOOR_REFRESH_MS),
    refetchOnWindowFocus: (query) => (isRefusal(query.state.error) ? false : 'always'),
  });

/** Tickets whose name matches, for a manual check-in. */
export const doorSearchQuery = (eventId: number, q: string) =>
  queryOptions({
    queryKey: ['tickets', 'door', eventId, 'search', q],
    queryFn: ({ signal }) => api.get<DoorState>('tickets/door', { query: { eventId, q }, signal }),
  });

/** After a scan, an admission or an undo: the door's figures and lists are read again. */
export const afterDoorChange = (eventId: number) =>
  queryClient.invalidateQueries({ queryKey: ['tickets', 'door', eventId] });

/** The family's bookings of an event: whose tickets a parent can show. */
export const familyBookings = (eventId: number) =>
  queryClient.fetchQuery({
    queryKey: ['tickets', 'family-bookings', eventId],
    queryFn: ({ signal }) => api.get<BookingPage>('events/booking-view', { query: { eventId }, signal }),
    staleTime: 0,
  });
