import {
  type BookableGroup,
  type BookingChild,
  type BookingEvent,
  bookingWindow,
  type MyBooking,
} from '@parley/domain/booking';
import type { EventGroup } from '@parley/domain/event-groups';
import { bookingPath, EVENT_STATUS_LABELS, eventChoices, toSectionSummary } from '@parley/domain/events';
import {
  formatLocalDate,
  formatLocalDateTime,
  formatLocalTime,
  isoString,
  perInstant,
  sectionLabel,
} from '@parley/domain/time-zone';
import type { SectionRow } from '../events/events.repository';
import type {
  BookingEventRow,
  childrenWithTeachers,
  EventTeacherRow,
  GridSlotRow,
  PartyBookingRow,
} from './booking.repository';

// Rows to the shapes of @parley/domain/booking. Every time is labelled in the school's zone here, so the
// app never formats an instant in the browser's zone.

/** Whether the event takes bookings now, and if not why (its opening time in the school's zone). */
export function bookingWindowOf(event: BookingEventRow, now: Date) {
  const opensAtLabel = event.opens_at ? formatLocalDateTime(event.opens_at, event.timezone) : null;
  const window = bookingWindow(
    {
      status: event.status,
      opensAt: event.opens_at,
      closesAt: event.closes_at,
      lastEndsAt: event.last_ends_at,
    },
    now,
    opensAtLabel,
  );
  return { isOpen: window.isOpen, reason: window.reason, opensAtLabel };
}

export function bookingEventView(event: BookingEventRow, sections: SectionRow[], now: Date): BookingEvent {
  const zone = event.timezone;
  const window = bookingWindowOf(event, now);
  const { opensAtLabel } = window;
  const summaries = sections.map((section) => toSectionSummary(section, zone));
  return {
    id: event.id,
    name: event.name,
    code: event.code,
    eventTypeName: event.type_name,
    eventTypeGroupInt: event.group_int as EventGroup,
    status: event.status,
    statusLabel: EVENT_STATUS_LABELS[event.status === 1 ? 1 : 0],
    subscriberName: event.school_name,
    bookingPageMessage: event.booking_page_message,
    timeZone: zone,
    opensAt: event.opens_at?.toISOString() ?? null,
    closesAt: event.closes_at?.toISOString() ?? null,
    opensAtLabel,
    closesAtLabel: event.closes_at ? formatLocalDateTime(event.closes_at, zone) : null,
    isOpen: window.isOpen,
    closedReason: window.reason,
    ...eventChoices(event),
    sections: summaries,
    sectionTimeLabels: summaries.map((section) => section.label),
    bookingPath: bookingPath(event.group_int, event.code),
    meetingMode: event.meeting_mode === 'video' ? 'video' : 'inPerson',
  };
}

export function myBookingView(row: PartyBookingRow, timeZone: string): MyBooking {
  const time = formatLocalTime(row.starts_at, timeZone);
  const endTime = formatLocalTime(row.ends_at, timeZone);
  return {
    id: row.id,
    slotId: row.slot_id,
    sectionId: row.section_id,
    startsAt: isoString(row.starts_at),
    endsAt: isoString(row.ends_at),
    timeLabel: sectionLabel(row.starts_at, row.ends_at, timeZone),
    time,
    endTime,
    teacherId: row.teacher_id,
    teacherName: row.teacher_name,
    videoUrl: row.video_url,
    studentId: row.student_id,
    studentName: row.student_name,
    parentId: row.parent_id,
    parentName: row.parent_name,
    subjectId: row.subject_id,
    subjectName: row.subject_name,
    location: row.location,
    guests: row.guests,
    gownSize: row.gown_size,
    status: row.status,
    confirmed: row.confirmed_at !== null,
  };
}

/** Grid columns: one per section and teacher (one per section for events without teachers). */
export function gridView(
  slots: GridSlotRow[],
  mine: PartyBookingRow[],
  teachers: EventTeacherRow[],
  timeZone: string,
): BookableGroup[] {
  const myBySlot = new Map(mine.filter((b) => b.slot_id !== null).map((b) => [b.slot_id, b.id]));
  const subjectsOf = new Map(teachers.map((teacher) => [teacher.teacher_id, teacher.subjects]));
  const time = perInstant((instant) => formatLocalTime(instant, timeZone));
  const day = perInstant((instant) => formatLocalDate(instant, timeZone));
  const groups = new Map<string, BookableGroup>();
  for (const slot of slots) {
    const key = `${slot.section_id}:${slot.teacher_id ?? 0}`;
    let group = groups.get(key);
    if (!group) {
      group = {
        sectionId: slot.section_id,
        dateLabel: day(slot.section_starts_at),
        teacherId: slot.teacher_id,
        teacherName: slot.teacher_name,
        subjects: (slot.teacher_id && subjectsOf.get(slot.teacher_id)) || [],
        location: slot.location,
        slots: [],
      };
      groups.set(key, group);
    }
    group.slots.push({
      id: slot.id,
      startsAt: isoString(slot.starts_at),
      endsAt: isoString(slot.ends_at),
      time: time(slot.starts_at),
      endTime: time(slot.ends_at),
      free: Math.max(0, slot.capacity - slot.booked_count),
      capacity: slot.capacity,
      myBookingId: myBySlot.get(slot.id) ?? null,
      location: slot.location,
    });
  }
  return [...groups.values()];
}

type ChildRow = Awaited<ReturnType<typeof childrenWithTeachers>>[number];

/** Children (or one student) with their directory teachers; inEvent marks those taking appointments. */
export function childrenView(rows: ChildRow[], eventTeacherIds: Set<number>): BookingChild[] {
  const children = new Map<number, BookingChild>();
  for (const row of rows) {
    let child = children.get(row.student_id);
    if (!child) {
      child = { id: row.student_id, name: row.student_name, teachers: [] };
      children.set(row.student_id, child);
    }
    if (row.teacher_id !== null && row.teacher_name !== null) {
      child.teachers.push({
        teacherId: row.teacher_id,
        teacherName: row.teacher_name,
        subjectId: row.subject_id,
        subjectName: row.subject_name,
        inEvent: eventTeacherIds.has(row.teacher_id),
      });
    }
  }
  return [...children.values()];
}

export function teachersView(rows: EventTeacherRow[]) {
  return rows.map((row) => ({
    teacherId: row.teacher_id,
    name: row.name,
    subjects: row.subjects,
    location: row.location,
  }));
}
