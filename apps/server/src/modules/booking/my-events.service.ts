import {
  MY_EVENTS_TEXT,
  type MyEventsFields,
  type OpenEventSummaryItem,
  type TeacherSchedule,
} from '@parley/domain/booking';
import { isTicketedGroup } from '@parley/domain/event-groups';
import { bookingPath, EVENT_STATUS_LABELS, EVENT_TEXT } from '@parley/domain/events';
import { timeUntil } from '@parley/domain/relative-time';
import type { Role } from '@parley/domain/roles';
import { formatLocalDate, formatLocalTime, sectionLabel } from '@parley/domain/time-zone';
import type { AppContext } from '../../context';
import { forbidden, notFound } from '../../lib/http-error';
import * as events from '../events/events.repository';
import { plural } from '../events/events.service';
import { lateMinutesOf, lateNotesByEvent } from '../live/timing.service';
import type { Booker } from './booker';
import { bookerFor, bookingRole, requireOpen } from './booker';
import * as repo from './booking.repository';
import { bookingCalendar, calendarAttachment } from './booking-mails';

// Home "My Events" (spec §2, §3 Open event summary item), a teacher's evening (/event/details-teacher)
// and the calendar file behind "Add to Calendar".

const DETAILS_ROUTE = {
  teacher: '/event/details-teacher',
  parent: '/event/details-parent',
  student: '/event/details-student',
} as const;

type ViewerRole = 'teacher' | 'parent' | 'student';

async function summaries(
  ctx: AppContext,
  schoolId: number,
  userId: number,
  role: ViewerRole,
  now: Date,
): Promise<OpenEventSummaryItem[]> {
  const [rows, late] = await Promise.all([
    repo.openEventsFor(ctx.db, schoolId, userId, role, now),
    role === 'teacher' ? new Map() : lateNotesByEvent(ctx.db, schoolId, userId, role, now),
  ]);
  return rows.map((row) => {
    const zone = row.timezone;
    const mine = Number(row.my_bookings);
    const isEnabled = row.status === 1;
    const closes = row.closes_at ?? row.last_ends_at;
    const isActive = (row.opens_at === null || row.opens_at <= now) && (closes === null || closes > now);
    const bookingDetails =
      mine === 0
        ? MY_EVENTS_TEXT.noBookings
        : role === 'teacher'
          ? `${plural(mine, 'appointment')} booked`
          : `${plural(mine, 'booking')} made`;
    const toEvent = row.first_starts_at ? timeUntil(row.first_starts_at, now) : null;
    return {
      id: row.id,
      name: row.name,
      subscriber: row.school_name,
      statusLabel: EVENT_STATUS_LABELS[isEnabled ? 1 : 0],
      link: `${DETAILS_ROUTE[role]}?eventId=${row.id}`,
      bookingLink: bookingPath(row.group_int, row.code),
      enableTicket: isTicketedGroup(row.group_int),
      eventTypeGroupInt: row.group_int,
      iCanScan: Boolean(row.i_can_scan),
      isActive,
      isEnabled,
      eventDate: row.first_starts_at?.toISOString() ?? null,
      eventDetails:
        row.first_starts_at && row.last_ends_at
          ? sectionLabel(row.first_starts_at, row.last_ends_at, zone)
          : MY_EVENTS_TEXT.datesToCome,
      location: row.location,
      calendarStatus: 'notAdded',
      teacherBookingDetails: role === 'teacher' ? bookingDetails : null,
      parentBookingDetails: role === 'parent' ? bookingDetails : null,
      studentBookingDetails: role === 'student' ? bookingDetails : null,
      bookingDetails,
      teacherBookingsCountForEvent: role === 'teacher' ? mine : 0,
      parentTimeToBooking: role === 'parent' ? toEvent : null,
      studentTimeToBooking: role === 'student' ? toEvent : null,
      lateNotes: late.get(row.id) ?? [],
    };
  });
}

/** The My Events lists of site/index, for the roles the user holds. */
export async function myEvents(
  ctx: AppContext,
  session: { userId: number; schoolId: number; roles: Role[] },
): Promise<MyEventsFields> {
  const now = new Date();
  const list = (role: ViewerRole) =>
    session.roles.includes(role)
      ? summaries(ctx, session.schoolId, session.userId, role, now)
      : Promise.resolve([]);
  const [teacher, parent, student] = await Promise.all([list('teacher'), list('parent'), list('student')]);
  return {
    teacherEventsCount: teacher.length,
    parentEventsCount: parent.length,
    studentEventsCount: student.length,
    teacherOpenEventsSummary: teacher,
    parentOpenEventsSummary: parent,
    studentOpenEventsSummary: student,
  };
}

/** GET events/details-teacher: the teacher's evening, free slots included (an admin may look at anyone's). */
export async function teacherSchedule(
  ctx: AppContext,
  session: { userId: number; schoolId: number; roles: Role[] },
  eventId: number,
  teacherId: number | undefined,
): Promise<TeacherSchedule> {
  const who = teacherId ?? session.userId;
  if (who !== session.userId && !session.roles.includes('admin'))
    throw forbidden('Only admins can see another teacher’s schedule.');
  if (who === session.userId && !session.roles.includes('teacher') && !session.roles.includes('admin'))
    throw forbidden('Only teachers have a schedule.');
  const event = await repo.findEventById(ctx.db, session.schoolId, eventId);
  if (!event) throw notFound(EVENT_TEXT.notFound);
  const [teacher, sections, slots, lateMinutes] = await Promise.all([
    repo.findScheduleTeacher(ctx.db, session.schoolId, who),
    events.listSections(ctx.db, session.schoolId, eventId),
    repo.teacherSlots(ctx.db, session.schoolId, eventId, who),
    lateMinutesOf(ctx.db, session.schoolId, eventId, who),
  ]);
  if (!teacher) throw notFound(EVENT_TEXT.unknownTeacher);
  const zone = event.timezone;
  const days = sections
    .map((section) => ({
      sectionId: section.id,
      dateLabel: formatLocalDate(section.starts_at, zone),
      rows: slots
        .filter((slot) => slot.section_id === section.id)
        .map((slot) => ({
          slotId: slot.id,
          sectionId: slot.section_id,
          startsAt: slot.starts_at.toISOString(),
          endsAt: slot.ends_at.toISOString(),
          time: formatLocalTime(slot.starts_at, zone),
          endTime: formatLocalTime(slot.ends_at, zone),
          location: slot.location,
          bookings: slot.bookings,
        })),
    }))
    .filter((day) => day.rows.length > 0);
  return {
    event: {
      id: event.id,
      name: event.name,
      subscriberName: event.school_name,
      timeZone: zone,
      sectionTimeLabels: sections.map((section) => sectionLabel(section.starts_at, section.ends_at, zone)),
      status: event.status,
      meetingMode: event.meeting_mode === 'video' ? 'video' : 'inPerson',
    },
    teacher: {
      id: teacher.id,
      name: `${teacher.first_name} ${teacher.last_name}`,
      videoUrl: teacher.video_conference_url,
    },
    days,
    bookedCount: slots.reduce((sum, slot) => sum + slot.bookings.length, 0),
    lateMinutes,
    asOf: new Date().toISOString(),
  };
}

/**
 * GET events/calendar-file?eventId: an .ics of the caller's appointments at the event, or of the event
 * itself when they have none (a student adding a school event to their calendar).
 */
export async function calendarFileFor(ctx: AppContext, booker: Booker, eventId: number) {
  const event = await repo.findEventById(ctx.db, booker.schoolId, eventId);
  if (!event || !bookerFor(booker, event)) throw notFound(EVENT_TEXT.notFound);
  const isParent = booker.roles.includes('parent');
  const mine = await repo.partyBookings(ctx.db, event.school_id, event.id, {
    parentId: isParent ? booker.userId : null,
    studentId: isParent ? null : booker.userId,
  });
  if (mine.length > 0) return bookingCalendar(ctx, event, mine, []);
  // A family the event's recipients leave out gets no entry for it (staff do).
  const role = bookingRole(booker);
  if (role) await requireOpen(ctx.db, event, { role, userId: booker.userId });
  // No appointments: the event itself (spec §9: default location "School", notes "School meeting event").
  const sections = await events.listSections(ctx.db, event.school_id, event.id);
  const host = new URL(ctx.config.appUrl).hostname;
  return calendarAttachment(
    ctx,
    event,
    sections.map((section) => ({
      uid: `event-${event.id}-section-${section.id}@${host}`,
      startsAt: section.starts_at,
      endsAt: section.ends_at,
      summary: event.name,
      description: `School meeting event: ${event.name}`,
      location: section.location ?? 'School',
      url: `${ctx.config.appUrl}${bookingPath(event.group_int, event.code)}`,
      status: 'CONFIRMED' as const,
    })),
  );
}
