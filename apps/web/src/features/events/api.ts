import type { MessageResponse } from '@parley/domain/auth';
import type { BookingResult, UpdateSlotByAdminRequest } from '@parley/domain/booking';
import type {
  EventBookingsPage,
  EventBookingsQuery,
  EventSlotsAnswer,
  RecipientCounts,
  RecipientsPage,
  RecipientsQuery,
} from '@parley/domain/event-lists';
import type {
  AddRecipientsRequest,
  EventConflict,
  EventListItem,
  EventMessageType,
  EventsIndexResponse,
  EventTypeItem,
  EventUpdateRequest,
  EventViewResponse,
  RecipientsPreview,
  SectionRequest,
} from '@parley/domain/events';
import { JOB_POLL_MS, type JobProgress } from '@parley/domain/jobs';
import type { PersonDetail } from '@parley/domain/people';
import { queryOptions } from '@tanstack/react-query';
import { ApiError, api } from '../../lib/api-client';
import { downloadFile } from '../../lib/download';
import { cachedQuery, queryClient } from '../../lib/query-client';

// Calls of spec §7 Events and Messages, and the events list cache of spec §4.

export type Saved = { id: number; message: string };
export type EventsData = { events: EventListItem[]; eventTypes: EventTypeItem[] };
export type PersonRef = { id: number; name: string; email: string };

// ---- The list ----

/** Fetches events/index (one of the cached queries of spec §4). `forced` is the refresh flag. */
export async function fetchEvents(forced = false): Promise<EventsData> {
  const data = await api.get<EventsIndexResponse>('events/index', {
    query: forced ? { forceRefresh: '1' } : {},
  });
  return { events: data.events, eventTypes: data.eventTypes };
}

export const eventsQuery = queryOptions({
  queryKey: ['events', 'list'],
  queryFn: () => fetchEvents(false),
  ...cachedQuery(),
});

/** The refresh button and pull-to-refresh: a forced reload. */
export async function refreshEvents(): Promise<EventsData> {
  const data = await fetchEvents(true);
  queryClient.setQueryData(eventsQuery.queryKey, data);
  return data;
}

/** After any change: the stored list, the home data and the open event are reloaded. */
export async function afterEventChange(eventId?: number): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: ['events', 'list'] }),
    queryClient.invalidateQueries({ queryKey: ['home'] }),
    eventId === undefined
      ? Promise.resolve()
      : queryClient.invalidateQueries({ queryKey: ['events', 'view', eventId] }),
  ]);
}

export const createEvent = (body: { name: string; eventTypeId: number }) =>
  api.post<Saved>('events/create', body);

// ---- One event ----

export const eventQuery = (id: number | 'current') =>
  queryOptions({
    queryKey: ['events', 'view', id],
    queryFn: ({ signal }) => api.get<EventViewResponse>('events/view', { query: { id }, signal }),
  });

/**
 * A page of the event's recipients, searched on the server (decision 035). Under the event's own key, so
 * a change to the event reloads it too; the page shown stays while the next one loads.
 */
export const recipientsQuery = (eventId: number, query: Omit<RecipientsQuery, 'eventId'>) =>
  queryOptions({
    queryKey: ['events', 'view', eventId, 'recipients', query],
    queryFn: ({ signal }) =>
      api.get<RecipientsPage>('events/recipients', { query: { eventId, ...query }, signal }),
    placeholderData: (previous) => previous,
  });

/**
 * Columns of the slot grid (decision 035): of one section and the teachers named, or every column (a
 * general event has one a section). Under the event's key, so a change to the event reloads them.
 */
export const eventSlotsQuery = (eventId: number, only: { sectionId?: number; teacherIds?: number[] }) =>
  queryOptions({
    queryKey: ['events', 'view', eventId, 'slots', only],
    queryFn: ({ signal }) =>
      api.get<EventSlotsAnswer>('events/slots', {
        query: {
          eventId,
          ...(only.sectionId !== undefined && { sectionId: only.sectionId }),
          ...(only.teacherIds !== undefined && { teacherIds: only.teacherIds.join(',') }),
        },
        signal,
      }),
  });

/** The recipients list's counts: once as the card opens, not with every page (they cost more than one). */
export const recipientCountsQuery = (eventId: number) =>
  queryOptions({
    queryKey: ['events', 'view', eventId, 'recipient-counts'],
    queryFn: ({ signal }) =>
      api.get<RecipientCounts>('events/recipient-counts', { query: { eventId }, signal }),
  });

/** A page of the event's bookings, searched on the server (decision 035); kept under the event's key too. */
export const eventBookingsQuery = (eventId: number, query: Omit<EventBookingsQuery, 'eventId'>) =>
  queryOptions({
    queryKey: ['events', 'view', eventId, 'bookings', query],
    queryFn: ({ signal }) =>
      api.get<EventBookingsPage>('events/bookings', { query: { eventId, ...query }, signal }),
    placeholderData: (previous) => previous,
  });

export const currentEventQuery = queryOptions({
  queryKey: ['events', 'current'],
  queryFn: ({ signal }) => api.get<{ id: number }>('events/current', { signal }),
  retry: false,
});

export type ConfirmBody = { confirm?: boolean };

export const updateEvent = (id: number, body: EventUpdateRequest) =>
  api.post<Saved>('events/update', body, { query: { id } });

export const setBookingNotifications = (id: number, bookingNotifications: boolean) =>
  api.post<{ bookingNotifications: boolean; message: string }>(
    'events/update-booking-notification-status',
    { bookingNotifications },
    { query: { id } },
  );

export const deleteEvent = (id: number, body: ConfirmBody = {}) =>
  api.post<Saved>('events/delete', body, { query: { id } });

export type SectionSaved = { id: number; message: string; slotCount: number; cancelledBookings: number };

export const createSection = (eventId: number, body: SectionRequest) =>
  api.post<SectionSaved>('events/create-section', body, { query: { eventId } });

export const updateSection = (id: number, body: SectionRequest) =>
  api.post<SectionSaved>('events/update-section', body, { query: { id } });

export const deleteSection = (eventId: number, sectionId: number, body: ConfirmBody = {}) =>
  api.post<SectionSaved>('events/delete-section', body, { query: { eventId, sectionId } });

/** A 409 that lists the bookings a change would cancel (repeat with confirm: true to apply it). */
export function conflictOf(error: unknown): EventConflict | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const body = error.body as EventConflict | null;
  return body?.confirmRequired && Array.isArray(body.affectedBookings) ? body : null;
}

// ---- Recipients, scanners ----

export const addRecipients = (eventId: number, body: AddRecipientsRequest, save: boolean) =>
  api.post<RecipientsPreview>('events/add-recipients', body, {
    query: save ? { eventId, saveme: 1 } : { eventId },
  });

export const removeRecipient = (eventId: number, userId: number) =>
  api.post<MessageResponse>('events/remove-recipient', { userId }, { query: { eventId } });

export const searchScanners = (q: string, signal?: AbortSignal) =>
  api.get<{ items: PersonRef[] }>('users/search-can-scan-users', { query: { q }, signal });

export const setScanners = (id: number, canScanUserIds: number[]) =>
  api.post<{ canScanUserIds: number[]; message: string }>(
    'events/update-can-scan-user-ids',
    { canScanUserIds },
    { query: { id } },
  );

export const removeScanner = (eventId: number, userId: number) =>
  api.post<{ canScanUserIds: number[]; message: string }>(
    'events/remove-can-scan-user',
    { userId },
    { query: { eventId } },
  );

// ---- Messages, export ----

export type Sent = { message: string; sent?: number; job?: JobProgress };

export const sendEventMessage = (
  eventId: number,
  messageTypeName: EventMessageType,
  audience: 'all' | 'notBooked',
) => api.post<Sent>('message-types/send', { messageTypeName, audience }, { query: { eventId } });

export const sendToOne = (eventId: number, userId: number, messageTypeName: EventMessageType) =>
  api.post<Sent>('message-types/send-to-single-recipient', { eventId, userId, messageTypeName });

/**
 * The event's messages still being sent, or ended in the last ten minutes (decision 037), asked again
 * every second while one is running.
 */
export const eventJobsQuery = (eventId: number) =>
  queryOptions({
    queryKey: ['events', 'view', eventId, 'jobs'],
    queryFn: ({ signal }) =>
      api.get<{ items: JobProgress[] }>('jobs/of-event', { query: { eventId }, signal }),
    refetchInterval: (query) =>
      query.state.data?.items.some((job) => job.status === 'running') ? JOB_POLL_MS : false,
  });

export const downloadBookings = (eventId: number) =>
  downloadFile('events/download-bookings', { eventId }, `bookings-${eventId}.csv`);

// ---- Bookings made, moved, confirmed or removed by the admin (issue 5) ----

/** Book for a family (no bookingId) or move bookingId to slotId; the family is mailed either way. */
export const updateSlotByAdmin = (eventId: number, body: UpdateSlotByAdminRequest) =>
  api.post<BookingResult>('events/update-slot-by-admin', body, { query: { id: eventId } });

export const confirmBooking = (eventId: number, bookingId: number) =>
  api.post<BookingResult>('events/confirm-booking', { bookingId }, { query: { eventId } });

export const removeBooking = (eventId: number, bookingId: number) =>
  api.post<BookingResult>('events/remove-booking', { bookingId }, { query: { eventId } });

/** A parent with their children, or a student with their subjects and teachers (the directory's views). */
export const familyPersonQuery = (kind: 'parents' | 'students', id: number) =>
  queryOptions({
    // The directory's key for the same call: an edit there refreshes it here.
    queryKey: ['person', kind, id],
    queryFn: ({ signal }) =>
      api.get<PersonDetail>(`users/view-${kind === 'parents' ? 'parent' : 'student'}-for-admin`, {
        query: { id },
        signal,
      }),
    staleTime: 60_000,
  });
