import { BOOKINGS_PAGE_SIZE, type EventBookingsQuery } from '@parley/domain/event-lists';
import type { BookingItem } from '@parley/domain/events';
import { formatLocalDateTime, perInstant } from '@parley/domain/time-zone';
import type { AppContext } from '../../context';
import * as repo from './events.repository';
import { requireEvent } from './events.service';
import { loadSchool } from './sections.service';

// The bookings card of an event's page (spec §4 Event): a page at a time, searched on the server (decision
// 035). An evening of 600 teachers holds thousands of bookings; the page sends the 50 it shows.

/** GET events/bookings: a page of the event's bookings in time order, and how many match. */
export async function bookingsOfEvent(ctx: AppContext, schoolId: number, query: EventBookingsQuery) {
  await requireEvent(ctx.db, schoolId, query.eventId);
  const [school, page] = await Promise.all([
    loadSchool(ctx.db, schoolId),
    repo.bookingsPage(ctx.db, schoolId, query.eventId, {
      q: query.q,
      cancelled: query.cancelled === 1,
      limit: BOOKINGS_PAGE_SIZE,
      offset: (query.page - 1) * BOOKINGS_PAGE_SIZE,
    }),
  ]);
  const labelOf = perInstant((instant) => formatLocalDateTime(instant, school.timezone));
  return {
    items: page.rows.map((booking): BookingItem => toBookingItem(booking, labelOf)),
    total: page.total,
    page: query.page,
    pageSize: BOOKINGS_PAGE_SIZE,
    cancelledCount: page.cancelled,
  };
}

function toBookingItem(booking: repo.ViewBookingRow, labelOf: (instant: Date) => string): BookingItem {
  return {
    id: booking.id,
    slotId: booking.slot_id,
    sectionId: booking.section_id,
    startsAt: booking.starts_at.toISOString(),
    endsAt: booking.ends_at.toISOString(),
    timeLabel: labelOf(booking.starts_at),
    teacherId: booking.teacher_id,
    teacherName: booking.teacher_name,
    parentId: booking.parent_id,
    parentName: booking.parent_name,
    studentId: booking.student_id,
    studentName: booking.student_name,
    subjectId: booking.subject_id,
    subjectName: booking.subject_name,
    guests: booking.guests,
    gownSize: booking.gown_size,
    status: booking.status,
    confirmed: booking.confirmed_at !== null,
    createdAt: booking.created_at.toISOString(),
  };
}
