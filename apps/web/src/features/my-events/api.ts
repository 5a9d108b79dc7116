import type { BookingPage, BookingResult, TeacherSchedule } from '@parley/domain/booking';
import { STORAGE_KEYS } from '@parley/domain/constants';
import type { RunningLateResult } from '@parley/domain/live-schemas';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { readJson, writeJson } from '../../lib/storage';
import { SCHEDULE_REFRESH_MS } from './details-logic';

// The teacher's schedule and the family's bookings of one event (issue 5 "Teacher, parent and student
// views"): GET events/details-teacher, GET events/booking-view, POST events/remove-booking.

/** The teacher's evening; it refreshes itself every 15 s and when the window regains focus. */
export const teacherScheduleQuery = (eventId: number) =>
  queryOptions({
    queryKey: ['my-events', 'teacher-schedule', eventId],
    queryFn: ({ signal }) =>
      api.get<TeacherSchedule>('events/details-teacher', { query: { eventId }, signal }),
    refetchInterval: SCHEDULE_REFRESH_MS,
    refetchOnWindowFocus: 'always',
  });

/** The event as the family sees it, with their bookings. */
export const bookingViewQuery = (eventId: number) =>
  queryOptions({
    queryKey: ['my-events', 'booking-view', eventId],
    queryFn: ({ signal }) => api.get<BookingPage>('events/booking-view', { query: { eventId }, signal }),
  });

export const removeBooking = (eventId: number, bookingId: number) =>
  api.post<BookingResult>('events/remove-booking', { bookingId }, { query: { eventId } });

/** After a cancellation: this page and the home lists (whose booking lines changed) are reloaded. */
export async function afterBookingChange(eventId: number): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: ['my-events', 'booking-view', eventId] }),
    queryClient.invalidateQueries({ queryKey: ['home'] }),
  ]);
}

/** POST events/running-late: how late the teacher runs (0: back on time); families are told at once. */
export const markRunningLate = (eventId: number, teacherId: number, minutes: number) =>
  api.post<RunningLateResult>('events/running-late', { eventId, teacherId, minutes });

export const readCurrentEvent = (): unknown => readJson(STORAGE_KEYS.currentEvent);

/** Spec §3 currentEvent: the event last opened, so a details page without an id shows it again. */
export const rememberCurrentEvent = (event: { id: number; name: string }): void =>
  writeJson(STORAGE_KEYS.currentEvent, { id: event.id, name: event.name });
