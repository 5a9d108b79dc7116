import { EVENT_GROUPS, type EventGroup } from '@parley/domain/event-groups';
import {
  type AddRecipientsRequest,
  bookingPath,
  DEFAULT_CAPACITY,
  EVENT_STATUS_LABELS,
  EVENT_TEXT,
  type EventCreateRequest,
  type EventDetail,
  type EventListItem,
  type EventUpdateRequest,
  guestCountOptions,
  type SectionSummary,
  type SlotGroup,
} from '@parley/domain/events';
import { SERVER_TEXT } from '@parley/domain/messages';
import { timeAgo, timeUntil } from '@parley/domain/relative-time';
import type { Role } from '@parley/domain/roles';
import { formatLocalTime, instantToLocal, localToInstant } from '@parley/domain/time-zone';
import type { Updateable } from 'kysely';
import type { AppContext } from '../../context';
import type { Db } from '../../db/database';
import type { EventsTable } from '../../db/schema';
import type { Actor } from '../../lib/actor';
import { conflict, notFound, unprocessable } from '../../lib/http-error';
import { newPublicCode } from '../../lib/tokens';
import { pushEventNews } from '../../push/push-messages';
import { recordAudit } from '../audit/audit.service';
import { bookingPeople, eventSubject, eventUpdateEntry } from '../audit/audit-entries';
import { assertMayCreateEvents } from '../billing/billing.service';
import { bookingsCsv, csvFileName } from './bookings-csv';
import { findEventType, listEventTypes } from './event-types.repository';
import * as repo from './events.repository';
import {
  affectedConflict,
  cancelAndNotify,
  loadSchool,
  regenerateEventSlots,
  type School,
} from './sections.service';
import { dateTimeLabel, perInstant, sectionLabel } from './slot-planner';

const isUniqueViolation = (error: unknown, constraint: string) =>
  (error as { code?: string })?.code === '23505' &&
  (error as { constraint?: string })?.constraint === constraint;
const isCheckViolation = (error: unknown) => (error as { code?: string })?.code === '23514';

const toTypeItem = (row: { id: number; name: string; group_int: EventGroup }) => ({
  id: row.id,
  name: row.name,
  groupInt: row.group_int,
});

type OptionColumns = Pick<
  repo.EventRow,
  | 'slot_minutes'
  | 'break_minutes'
  | 'travel_minutes'
  | 'capacity'
  | 'guest_allowance'
  | 'gown_sizes'
  | 'max_appointments_per_child'
>;

/** An event's options, and the guest and gown choices a family gets from them. */
export function eventChoices(event: OptionColumns) {
  return {
    options: {
      slotMinutes: event.slot_minutes,
      breakMinutes: event.break_minutes,
      travelMinutes: event.travel_minutes,
      usersPerSlot: event.capacity,
      guestAllowance: event.guest_allowance,
      gownSizes: event.gown_sizes,
      maxAppointmentsPerChild: event.max_appointments_per_child,
    },
    guestCountOptions: guestCountOptions(event.guest_allowance),
    gownOptions: event.gown_sizes.map((size) => ({ id: size, name: size })),
  };
}

export function toSectionSummary(row: repo.SectionRow, timeZone: string): SectionSummary {
  return {
    id: row.id,
    date: row.date,
    start: row.start_time,
    end: row.end_time,
    startsAt: row.starts_at.toISOString(),
    endsAt: row.ends_at.toISOString(),
    location: row.location,
    label: sectionLabel(row.starts_at, row.ends_at, timeZone),
  };
}

/** "1 slot", "3 slots". */
export const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

const statusOf = (status: number) => (status === 1 ? 1 : 0);

function toListItem(row: repo.EventRow, sections: SectionSummary[], now: Date): EventListItem {
  const status = statusOf(row.status);
  return {
    id: row.id,
    name: row.name,
    eventTypeId: row.event_type_id,
    eventTypeName: row.type_name,
    eventTypeGroupInt: row.group_int,
    status,
    statusLabel: EVENT_STATUS_LABELS[status],
    code: row.code,
    sections,
    sectionTimeLabels: sections.map((section) => section.label),
    bookingCountForEvent: row.booking_count,
    createdAt: row.created_at.toISOString(),
    createdAtHuman: timeAgo(row.created_at, now),
  };
}

// ── list, create, view ───────────────────────────────────────────────────────────────────────────────

export async function listEvents(ctx: AppContext, schoolId: number) {
  const [school, events, sections, types] = await Promise.all([
    loadSchool(ctx.db, schoolId),
    repo.listEvents(ctx.db, schoolId),
    repo.listSections(ctx.db, schoolId),
    listEventTypes(ctx.db, schoolId),
  ]);
  const byEvent = new Map<number, SectionSummary[]>();
  for (const section of sections) {
    const list = byEvent.get(section.event_id) ?? [];
    list.push(toSectionSummary(section, school.timezone));
    byEvent.set(section.event_id, list);
  }
  const now = new Date();
  return {
    events: events.map((event) => toListItem(event, byEvent.get(event.id) ?? [], now)),
    eventTypes: types.map(toTypeItem),
    message: EVENT_TEXT.listed,
  };
}

/**
 * Inserts an event with a fresh public code. Outside a transaction a collision (about 1 in 10^15) just
 * draws again; inside one (signup's sample events) it fails the transaction like any other error.
 */
export async function insertEventWithCode(
  db: Db,
  values: Omit<Parameters<typeof repo.insertEvent>[1], 'code'>,
  attempts = 3,
): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await repo.insertEvent(db, { ...values, code: newPublicCode() });
    } catch (error) {
      if (attempt >= attempts || !isUniqueViolation(error, 'events_code_key')) throw error;
    }
  }
}

export async function createEvent(ctx: AppContext, schoolId: number, body: EventCreateRequest) {
  await assertMayCreateEvents(ctx, schoolId);
  const type = await findEventType(ctx.db, schoolId, Number(body.eventTypeId));
  if (!type) {
    throw unprocessable(SERVER_TEXT.invalidInput, { eventTypeId: [EVENT_TEXT.unknownEventType] });
  }
  const id = await insertEventWithCode(ctx.db, {
    school_id: schoolId,
    event_type_id: type.id,
    name: body.name,
    // Disabled until the admin has set it up (spec §4: "Review settings and enable to allow bookings").
    status: 0,
    capacity: DEFAULT_CAPACITY[type.group_int],
  });
  return { id, message: EVENT_TEXT.created };
}

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
  const event = await repo.findEvent(ctx.db, schoolId, eventId);
  if (!event) throw notFound(EVENT_TEXT.notFound);
  const [school, sections, teachers, slots, bookings, recipients, scanners, types] = await Promise.all([
    loadSchool(ctx.db, schoolId),
    repo.listSections(ctx.db, schoolId, eventId),
    repo.listSectionTeachers(ctx.db, schoolId, { eventId }),
    repo.listSlots(ctx.db, schoolId, eventId),
    repo.listBookings(ctx.db, schoolId, eventId),
    repo.listRecipients(ctx.db, schoolId, eventId),
    repo.listScanners(ctx.db, schoolId, eventId),
    listEventTypes(ctx.db, schoolId),
  ]);
  return {
    event: toDetail(ctx, school, event, { sections, teachers, slots, bookings, recipients, scanners }),
    eventTypes: types.map(toTypeItem),
  };
}

function toDetail(
  ctx: AppContext,
  school: School,
  event: repo.EventRow,
  parts: {
    sections: repo.SectionRow[];
    teachers: repo.SectionTeacherRow[];
    slots: repo.SlotRow[];
    bookings: repo.ViewBookingRow[];
    recipients: repo.RecipientRow[];
    scanners: Array<{ id: number; name: string; email: string }>;
  },
): EventDetail {
  const tz = school.timezone;
  const now = new Date();
  const status = statusOf(event.status);
  const slotStats = new Map<number, { slots: number; booked: number }>();
  for (const slot of parts.slots) {
    const stats = slotStats.get(slot.section_id) ?? { slots: 0, booked: 0 };
    stats.slots += 1;
    stats.booked += slot.booked_count;
    slotStats.set(slot.section_id, stats);
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
      })),
    slotCount: slotStats.get(section.id)?.slots ?? 0,
    bookedCount: slotStats.get(section.id)?.booked ?? 0,
  }));
  const path = bookingPath(event.group_int, event.code);
  const labelOf = perInstant((instant) => dateTimeLabel(instant, tz));
  // A recipient has booked when a live booking names them, as parent or as student.
  const bookedUsers = new Set<number>();
  for (const booking of parts.bookings) {
    if (booking.status !== 'booked') continue;
    if (booking.parent_id !== null) bookedUsers.add(booking.parent_id);
    if (booking.student_id !== null) bookedUsers.add(booking.student_id);
  }
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
    opensAtLabel: event.opens_at ? dateTimeLabel(event.opens_at, tz) : null,
    closesAtLabel: event.closes_at ? dateTimeLabel(event.closes_at, tz) : null,
    ...eventChoices(event),
    bookingNotifications: event.booking_notifications,
    sections,
    sectionTimeLabels: sections.map((section) => section.label),
    slots: slotGroups(event, parts.sections, parts.teachers, parts.slots, tz),
    bookings: parts.bookings.map((booking) => ({
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
    })),
    recipients: parts.recipients.map((recipient) => ({
      id: recipient.id,
      name: recipient.name,
      email: recipient.email,
      roles: recipient.roles.filter(
        (role): role is 'parent' | 'student' => role === 'parent' || role === 'student',
      ),
      booked: bookedUsers.has(recipient.id),
    })),
    canScanUserIds: parts.scanners.map((scanner) => scanner.id),
    scanners: parts.scanners,
    bookingCountForEvent: event.booking_count,
    createdAt: event.created_at.toISOString(),
    createdAtHuman: timeAgo(event.created_at, now),
  };
}

// ── update, delete ───────────────────────────────────────────────────────────────────────────────────

/** An instant with an offset, or a wall time in the school's zone ("2026-03-01T09:00"). */
function parseDateTime(value: string, timeZone: string): Date | null {
  if (/(Z|[+-]\d{2}:\d{2})$/.test(value)) {
    const instant = new Date(value);
    return Number.isNaN(instant.getTime()) ? null : instant;
  }
  const [date = '', time = ''] = value.split('T');
  try {
    return localToInstant(date, time.slice(0, 5), timeZone);
  } catch {
    return null;
  }
}

export async function updateEvent(
  ctx: AppContext,
  schoolId: number,
  eventId: number,
  body: EventUpdateRequest,
  actor: Actor,
) {
  return ctx.db.transaction().execute(async (trx) => {
    const event = await repo.lockEvent(trx, schoolId, eventId);
    if (!event) throw notFound(EVENT_TEXT.notFound);
    const school = await loadSchool(trx, schoolId);
    const errors: Record<string, string[]> = {};
    const fields: Updateable<EventsTable> = {};

    if (body.eventTypeId !== undefined && Number(body.eventTypeId) !== event.event_type_id) {
      const type = await findEventType(trx, schoolId, Number(body.eventTypeId));
      if (!type) errors.eventTypeId = [EVENT_TEXT.unknownEventType];
      else if (
        type.group_int !== event.group_int &&
        (await repo.listSections(trx, schoolId, eventId)).length > 0
      ) {
        errors.eventTypeId = [EVENT_TEXT.typeChangeWithSections];
      } else fields.event_type_id = type.id;
    }
    const window: Record<'opensAt' | 'closesAt', Date | null> = {
      opensAt: event.opens_at,
      closesAt: event.closes_at,
    };
    for (const key of ['opensAt', 'closesAt'] as const) {
      const value = body[key];
      if (value === undefined) continue;
      const parsed = value === null ? null : parseDateTime(value, school.timezone);
      if (value !== null && !parsed) errors[key] = [EVENT_TEXT.invalidDateTime];
      window[key] = parsed;
    }
    if (window.opensAt && window.closesAt && window.opensAt >= window.closesAt && !errors.opensAt) {
      errors.closesAt = [EVENT_TEXT.opensBeforeCloses];
    }
    if (Object.keys(errors).length) throw unprocessable(SERVER_TEXT.invalidInput, errors);

    if (body.opensAt !== undefined) fields.opens_at = window.opensAt;
    if (body.closesAt !== undefined) fields.closes_at = window.closesAt;
    if (body.name !== undefined) fields.name = body.name;
    if (body.status !== undefined) fields.status = body.status;
    if (body.bookingPageMessage !== undefined) fields.booking_page_message = body.bookingPageMessage;
    if (body.slotMinutes !== undefined) fields.slot_minutes = body.slotMinutes;
    if (body.breakMinutes !== undefined) fields.break_minutes = body.breakMinutes;
    if (body.travelMinutes !== undefined) fields.travel_minutes = body.travelMinutes;
    if (body.usersPerSlot !== undefined) fields.capacity = body.usersPerSlot;
    if (body.guestAllowance !== undefined) fields.guest_allowance = body.guestAllowance;
    if (body.gownSizes !== undefined) fields.gown_sizes = [...new Set(body.gownSizes)];
    if (body.maxAppointmentsPerChild !== undefined)
      fields.max_appointments_per_child = body.maxAppointmentsPerChild;
    if (body.bookingNotifications !== undefined) fields.booking_notifications = body.bookingNotifications;
    await repo.updateEvent(trx, schoolId, eventId, fields);

    const updated = { ...event, ...fields } as repo.EventRow;
    let cancelled = 0;
    const timing =
      (fields.slot_minutes !== undefined && fields.slot_minutes !== event.slot_minutes) ||
      (fields.break_minutes !== undefined && fields.break_minutes !== event.break_minutes);
    if (timing) cancelled = await regenerateEventSlots(ctx, trx, school, updated, body.confirm === true);
    if (fields.capacity !== undefined && fields.capacity !== event.capacity) {
      await setCapacity(trx, schoolId, eventId, Number(fields.capacity));
    }
    await recordAudit(trx, actor, eventUpdateEntry(event, fields, school.timezone, cancelled));
    // Enabled: its recipients hear that booking is open (push; issue 12).
    if (fields.status === 1 && event.status !== 1)
      await pushEventNews(trx, schoolId, updated, 'opened', [
        ...(await repo.recipientIds(trx, schoolId, eventId)),
      ]);
    return {
      id: eventId,
      message: cancelled
        ? `${EVENT_TEXT.saved} ${plural(cancelled, 'booking')} cancelled and the families told.`
        : EVENT_TEXT.saved,
    };
  });
}

async function setCapacity(trx: Db, schoolId: number, eventId: number, capacity: number) {
  try {
    return await repo.setSlotsCapacity(trx, schoolId, eventId, capacity);
  } catch (error) {
    // slots_booked_count: a slot already holds more bookings than the new capacity.
    if (isCheckViolation(error))
      throw conflict(EVENT_TEXT.capacityBelowBookings, { capacity: [EVENT_TEXT.capacityBelowBookings] });
    throw error;
  }
}

export async function toggleBookingNotifications(
  ctx: AppContext,
  schoolId: number,
  eventId: number,
  value: boolean | undefined,
  actor: Actor,
) {
  return ctx.db.transaction().execute(async (trx) => {
    const event = await repo.lockEvent(trx, schoolId, eventId);
    if (!event) throw notFound(EVENT_TEXT.notFound);
    const next = value ?? !event.booking_notifications;
    await repo.updateEvent(trx, schoolId, eventId, { booking_notifications: next });
    await recordAudit(trx, actor, eventUpdateEntry(event, { booking_notifications: next }, 'UTC'));
    return {
      bookingNotifications: next,
      message: next ? EVENT_TEXT.notificationsOn : EVENT_TEXT.notificationsOff,
    };
  });
}

/** Deletes an event; one with live bookings needs confirm, and then its families are told. */
export async function deleteEvent(
  ctx: AppContext,
  schoolId: number,
  eventId: number,
  confirm: boolean,
  actor: Actor,
) {
  return ctx.db.transaction().execute(async (trx) => {
    const event = await repo.lockEvent(trx, schoolId, eventId);
    if (!event) throw notFound(EVENT_TEXT.notFound);
    await repo.lockSlots(trx, schoolId, { eventId });
    const live = await repo.liveBookingsOfEvent(trx, schoolId, eventId);
    const school = await loadSchool(trx, schoolId);
    if (live.length > 0 && !confirm) throw affectedConflict(live, school.timezone, 'Deleting this event');
    await cancelAndNotify(ctx, trx, school, event, live, 'eventDeleted');
    await recordAudit(trx, actor, {
      action: 'event.deleted',
      subject: eventSubject(event),
      eventId,
      people: bookingPeople(live),
      detail: { bookingsCancelled: live.length },
    });
    await repo.deleteEvent(trx, schoolId, eventId);
    return { id: eventId, message: EVENT_TEXT.deleted };
  });
}

// ── slots ────────────────────────────────────────────────────────────────────────────────────────────

export async function updateAllSlots(
  ctx: AppContext,
  schoolId: number,
  eventId: number,
  body: { capacity?: number | undefined; location?: string | null | undefined },
) {
  return ctx.db.transaction().execute(async (trx) => {
    const event = await repo.lockEvent(trx, schoolId, eventId);
    if (!event) throw notFound(EVENT_TEXT.notFound);
    let updated = 0;
    if (body.capacity !== undefined) {
      updated = await setCapacity(trx, schoolId, eventId, body.capacity);
      await repo.updateEvent(trx, schoolId, eventId, { capacity: body.capacity });
    }
    if (body.location !== undefined) {
      updated = await repo.setSlotsLocation(trx, schoolId, { eventId }, body.location);
    }
    return { updated, message: `${plural(updated, 'slot')} updated.` };
  });
}

export async function updateSlotLocation(
  ctx: AppContext,
  schoolId: number,
  body: {
    slotId?: number | undefined;
    sectionId?: number | undefined;
    teacherId?: number | undefined;
    location: string | null;
  },
) {
  return ctx.db.transaction().execute(async (trx) => {
    if (body.slotId !== undefined) {
      const slot = await repo.findSlot(trx, schoolId, body.slotId);
      if (!slot) throw notFound(EVENT_TEXT.slotNotFound);
      const updated = await repo.setSlotsLocation(trx, schoolId, { slotId: slot.id }, body.location);
      return { updated, message: `${plural(updated, 'slot')} updated.` };
    }
    const section = await repo.findSection(trx, schoolId, body.sectionId ?? 0);
    if (!section) throw notFound(EVENT_TEXT.sectionNotFound);
    if (body.teacherId !== undefined) {
      // The teacher's room for the section: their slots follow it unless one was given its own.
      const found = await repo.setSectionTeacherLocation(
        trx,
        schoolId,
        section.id,
        body.teacherId,
        body.location,
      );
      if (!found) throw notFound(EVENT_TEXT.slotNotFound);
    }
    const updated = await repo.setSlotsLocation(
      trx,
      schoolId,
      { sectionId: section.id, ...(body.teacherId !== undefined && { teacherId: body.teacherId }) },
      body.teacherId !== undefined ? null : body.location,
    );
    return { updated, message: `${plural(updated, 'slot')} updated.` };
  });
}

// ── recipients and scanners ──────────────────────────────────────────────────────────────────────────

async function requireEvent(db: Db, schoolId: number, eventId: number) {
  const event = await repo.findEvent(db, schoolId, eventId);
  if (!event) throw notFound(EVENT_TEXT.notFound);
  return event;
}

export async function addRecipients(
  ctx: AppContext,
  schoolId: number,
  eventId: number,
  body: AddRecipientsRequest,
  save: boolean,
) {
  return ctx.db.transaction().execute(async (trx) => {
    await requireEvent(trx, schoolId, eventId);
    const families: Role[] = ['parent', 'student'];
    let candidates: Array<{ id: number; name: string; email: string }>;
    if (body.userIds !== undefined) {
      const ids = [...new Set(body.userIds)];
      candidates = await repo.peopleWithRoles(trx, schoolId, families, { ids });
      const known = new Set(candidates.map((person) => person.id));
      const unknown = ids.filter((id) => !known.has(id));
      if (unknown.length) {
        throw unprocessable(SERVER_TEXT.invalidInput, {
          userIds: [`${EVENT_TEXT.unknownRecipient}: ${unknown.join(', ')}`],
        });
      }
    } else {
      const role: Role = body.all === 'students' ? 'student' : 'parent';
      candidates = await repo.peopleWithRoles(trx, schoolId, [role], { activeOnly: true });
    }
    const already = await repo.recipientIds(trx, schoolId, eventId);
    const toAdd = candidates.filter((person) => !already.has(person.id));
    const alreadyAdded = candidates.filter((person) => already.has(person.id));
    if (!save) {
      return {
        toAdd,
        alreadyAdded,
        added: 0,
        message: `${toAdd.length} to add, ${alreadyAdded.length} already added.`,
      };
    }
    const added = await repo.addMembers(
      trx,
      'event_recipients',
      schoolId,
      eventId,
      toAdd.map((person) => person.id),
    );
    return { toAdd, alreadyAdded, added, message: `${plural(added, 'recipient')} added.` };
  });
}

export async function removeRecipient(ctx: AppContext, schoolId: number, eventId: number, userId: number) {
  await requireEvent(ctx.db, schoolId, eventId);
  if (!(await repo.removeMember(ctx.db, 'event_recipients', schoolId, eventId, userId))) {
    throw notFound(EVENT_TEXT.recipientNotFound);
  }
  return { message: EVENT_TEXT.recipientRemoved };
}

const SCANNER_ROLES: Role[] = ['admin', 'teacher', 'student'];

export async function setScanners(ctx: AppContext, schoolId: number, eventId: number, userIds: number[]) {
  return ctx.db.transaction().execute(async (trx) => {
    const event = await repo.lockEvent(trx, schoolId, eventId);
    if (!event) throw notFound(EVENT_TEXT.notFound);
    const ids = [...new Set(userIds)];
    const known = new Set(
      (await repo.peopleWithRoles(trx, schoolId, SCANNER_ROLES, { ids })).map((p) => p.id),
    );
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length) {
      throw unprocessable(SERVER_TEXT.invalidInput, {
        canScanUserIds: [`${EVENT_TEXT.unknownScanner}: ${unknown.join(', ')}`],
      });
    }
    await repo.clearScanners(trx, schoolId, eventId);
    await repo.addMembers(trx, 'event_scanners', schoolId, eventId, ids);
    const scanners = await repo.listScanners(trx, schoolId, eventId);
    return { canScanUserIds: scanners.map((scanner) => scanner.id), message: EVENT_TEXT.scannersSaved };
  });
}

export async function removeScanner(ctx: AppContext, schoolId: number, eventId: number, userId: number) {
  await requireEvent(ctx.db, schoolId, eventId);
  if (!(await repo.removeMember(ctx.db, 'event_scanners', schoolId, eventId, userId))) {
    throw notFound(SERVER_TEXT.notFound);
  }
  const scanners = await repo.listScanners(ctx.db, schoolId, eventId);
  return { canScanUserIds: scanners.map((scanner) => scanner.id), message: EVENT_TEXT.scannerRemoved };
}

export async function allOfRole(ctx: AppContext, schoolId: number, role: 'parent' | 'student') {
  return { items: await repo.peopleWithRoles(ctx.db, schoolId, [role], { activeOnly: true }) };
}

// ── home ─────────────────────────────────────────────────────────────────────────────────────────────

/** The admin part of the home data (spec §2 Home, §3 Home data and Active event item). */
export async function adminHomeData(ctx: AppContext, schoolId: number) {
  const now = new Date();
  const [eventsCount, teachersCount, parentsCount, studentsCount, active] = await Promise.all([
    repo.countEvents(ctx.db, schoolId),
    repo.countRole(ctx.db, schoolId, 'teacher'),
    repo.countRole(ctx.db, schoolId, 'parent'),
    repo.countRole(ctx.db, schoolId, 'student'),
    repo.activeEvents(ctx.db, schoolId, now, 50),
  ]);
  return {
    eventsCount,
    teachersCount,
    parentsCount,
    studentsCount,
    activeEvents: active.map((event) => ({
      id: event.id,
      name: event.name,
      bookingCountForEvent: event.booking_count,
      timeToEvent: timeUntil(new Date(event.next_starts_at), now),
    })),
  };
}

/** The event's bookings as a CSV file (spec: Download bookings), in the school's zone. */
export async function bookingsExport(ctx: AppContext, schoolId: number, eventId: number) {
  const event = await repo.findEvent(ctx.db, schoolId, eventId);
  if (!event) throw notFound('Event not found.');
  const [info, rows] = await Promise.all([
    loadSchool(ctx.db, schoolId),
    repo.exportBookings(ctx.db, schoolId, event.id),
  ]);
  return { fileName: csvFileName(event.name), csv: bookingsCsv(rows, info.timezone) };
}
