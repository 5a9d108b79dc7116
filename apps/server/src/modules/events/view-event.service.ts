import { EVENT_GROUPS } from '@parley/domain/event-groups';
import type { EventSlotsQuery } from '@parley/domain/event-lists';
import {
  bookingPath,
  EVENT_STATUS_LABELS,
  EVENT_TEXT,
  type EventDetail,
  eventChoices,
  type SlotGroup,
  toSectionSummary,
} from '@parley/domain/events';
import { timeAgo } from '@parley/domain/relative-time';
import { formatLocalDateTime, formatLocalTime, instantToLocal, perInstant } from '@parley/domain/time-zone';
import type { AppContext } from '../../context';
import { notFound } from '../../lib/http-error';
import { listEventTypes } from './event-types.repository';
import * as repo from './events.repository';
import { requireEvent, statusOf, toTypeItem } from './events.service';
import { loadSchool, type School } from './sections.service';

// An event as its admin page shows it (spec §4 Event): settings, sections with their teachers and counts,
// scanners, and how many recipients and bookings; the slot grid a few columns at a time (the recipients and
// bookings are paged by their own services); and "the current event" for the home's shortcut.

/** Local "YYYY-MM-DDTHH:MM" of an instant, for a datetime-local input. */
const localInput = (instant: Date | null, timeZone: string) => {
  if (!instant) return null;
  const local = instantToLocal(instant, timeZone);
  return `${local.date}T${local.time}`;
};

function slotGroups(
  event: repo.EventRow,
  sections: repo.SectionRow[],
  teachers: repo.SectionTeacherRow[],
  slots: repo.SlotRow[],
  timeZone: string,
): SlotGroup[] {
  const sectionLocation = new Map(sections.map((section) => [section.id, section.location]));
  // Sixty teachers share one grid: a few dozen distinct instants, each formatted once.
  const timeOf = perInstant((instant) => formatLocalTime(instant, timeZone));
  const groups = new Map<string, SlotGroup>();
  const keyOf = (sectionId: number, teacherId: number | null) => `${sectionId}/${teacherId ?? 0}`;
  // The grid's columns in order: each section, then its teachers by name (or the section's own series).
  for (const section of sections) {
    if (event.group_int === EVENT_GROUPS.parentTeacher) {
      for (const teacher of teachers.filter((row) => row.section_id === section.id)) {
        groups.set(keyOf(section.id, teacher.teacher_id), {
          sectionId: section.id,
          teacherId: teacher.teacher_id,
          teacherName: teacher.name,
          location: teacher.location ?? section.location,
          slots: [],
        });
      }
    } else {
      groups.set(keyOf(section.id, null), {
        sectionId: section.id,
        teacherId: null,
        teacherName: null,
        location: section.location,
        slots: [],
      });
    }
  }
  for (const slot of slots) {
    const key = keyOf(slot.section_id, slot.teacher_id);
    let group = groups.get(key);
    if (!group) {
      // A slot of a teacher no longer listed (kept for its bookings until the admin changes it).
      group = {
        sectionId: slot.section_id,
        teacherId: slot.teacher_id,
        teacherName: null,
        location: sectionLocation.get(slot.section_id) ?? null,
        slots: [],
      };
      groups.set(key, group);
    }
    group.slots.push({
      id: slot.id,
      startsAt: slot.starts_at.toISOString(),
      endsAt: slot.ends_at.toISOString(),
      time: timeOf(slot.starts_at),
      endTime: timeOf(slot.ends_at),
      capacity: slot.capacity,
      bookedCount: slot.booked_count,
      location: slot.location ?? group.location,
    });
  }
  return [...groups.values()];
}

export async function resolveEventId(ctx: AppContext, schoolId: number, id: number | 'current') {
  if (id !== 'current') return id;
  const [current] = await repo.activeEvents(ctx.db, schoolId, new Date(), 1);
  if (!current) throw notFound(EVENT_TEXT.noCurrentEvent);
  return current.id;
}

export async function currentEvent(ctx: AppContext, schoolId: number) {
  return { id: await resolveEventId(ctx, schoolId, 'current') };
}

export async function viewEvent(ctx: AppContext, schoolId: number, idOrCurrent: number | 'current') {
  const eventId = await resolveEventId(ctx, schoolId, idOrCurrent);
  const event = await requireEvent(ctx.db, schoolId, eventId);
  const [school, sections, teachers, counts, recipientCount, scanners, types] = await Promise.all([
    loadSchool(ctx.db, schoolId),
    repo.listSections(ctx.db, schoolId, eventId),
    repo.listSectionTeachers(ctx.db, schoolId, { eventId }),
    repo.slotCounts(ctx.db, schoolId, eventId),
    repo.recipientCount(ctx.db, schoolId, eventId),
    repo.listScanners(ctx.db, schoolId, eventId),
    listEventTypes(ctx.db, schoolId),
  ]);
  return {
    event: toDetail(ctx, school, event, { sections, teachers, counts, recipientCount, scanners }),
    eventTypes: types.map(toTypeItem),
  };
}

/**
 * GET events/slots: columns of the event's slot grid, of one section and of the teachers named (decision
 * 035). An evening of 600 teachers holds some 20,000 slots; the page asks for the few columns it shows.
 */
export async function slotsOfEvent(ctx: AppContext, schoolId: number, query: EventSlotsQuery) {
  const event = await requireEvent(ctx.db, schoolId, query.eventId);
  const only = { sectionId: query.sectionId, teacherIds: query.teacherIds };
  const [school, sections, teachers, slots] = await Promise.all([
    loadSchool(ctx.db, schoolId),
    repo.listSections(ctx.db, schoolId, query.eventId),
    repo.listSectionTeachers(ctx.db, schoolId, { eventId: query.eventId, ...only }),
    repo.listSlots(ctx.db, schoolId, query.eventId, only),
  ]);
  const shown = sections.filter((section) => query.sectionId === undefined || section.id === query.sectionId);
  return { items: slotGroups(event, shown, teachers, slots, school.timezone) };
}

function toDetail(
  ctx: AppContext,
  school: School,
  event: repo.EventRow,
  parts: {
    sections: repo.SectionRow[];
    teachers: repo.SectionTeacherRow[];
    counts: Awaited<ReturnType<typeof repo.slotCounts>>;
    recipientCount: number;
    scanners: Array<{ id: number; name: string; email: string }>;
  },
): EventDetail {
  const tz = school.timezone;
  const now = new Date();
  const status = statusOf(event.status);
  const sectionStats = new Map<number, { slots: number; booked: number }>();
  const freeOf = new Map<string, number>();
  for (const column of parts.counts) {
    const stats = sectionStats.get(column.section_id) ?? { slots: 0, booked: 0 };
    stats.slots += column.slots;
    stats.booked += column.booked;
    sectionStats.set(column.section_id, stats);
    freeOf.set(`${column.section_id}/${column.teacher_id}`, column.free);
  }
  const sections = parts.sections.map((section) => ({
    ...toSectionSummary(section, tz),
    teachers: parts.teachers
      .filter((teacher) => teacher.section_id === section.id)
      .map((teacher) => ({
        teacherId: teacher.teacher_id,
        name: teacher.name,
        location: teacher.location,
        unavailable: teacher.unavailable,
        freeSlots: freeOf.get(`${section.id}/${teacher.teacher_id}`) ?? 0,
      })),
    slotCount: sectionStats.get(section.id)?.slots ?? 0,
    bookedCount: sectionStats.get(section.id)?.booked ?? 0,
  }));
  const path = bookingPath(event.group_int, event.code);
  return {
    id: event.id,
    name: event.name,
    eventTypeId: event.event_type_id,
    eventTypeName: event.type_name,
    eventTypeGroupInt: event.group_int,
    status,
    statusLabel: EVENT_STATUS_LABELS[status],
    disabledNotice: status === 1 ? null : EVENT_TEXT.disabledNotice,
    bookingPageMessage: event.booking_page_message,
    subscriberName: school.name,
    code: event.code,
    bookingPath: path,
    bookingUrl: `${ctx.config.appUrl}${path}`,
    timeZone: tz,
    opensAt: event.opens_at?.toISOString() ?? null,
    closesAt: event.closes_at?.toISOString() ?? null,
    opensAtLocal: localInput(event.opens_at, tz),
    closesAtLocal: localInput(event.closes_at, tz),
    opensAtLabel: event.opens_at ? formatLocalDateTime(event.opens_at, tz) : null,
    closesAtLabel: event.closes_at ? formatLocalDateTime(event.closes_at, tz) : null,
    ...eventChoices(event),
    scanOpensHoursBefore: event.scan_opens_hours_before,
    scanClosesHoursAfter: event.scan_closes_hours_after,
    bookingNotifications: event.booking_notifications,
    dayBeforeReminder: event.day_before_reminder,
    meetingMode: event.meeting_mode === 'video' ? 'video' : 'inPerson',
    sections,
    sectionTimeLabels: sections.map((section) => section.label),
    recipientCount: parts.recipientCount,
    canScanUserIds: parts.scanners.map((scanner) => scanner.id),
    scanners: parts.scanners,
    bookingCountForEvent: event.booking_count,
    createdAt: event.created_at.toISOString(),
    createdAtHuman: timeAgo(event.created_at, now),
  };
}
