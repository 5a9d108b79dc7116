import { EVENT_TEXT, type EventUpdateRequest } from '@parley/domain/events';
import { SERVER_TEXT } from '@parley/domain/messages';
import { localToInstant } from '@parley/domain/time-zone';
import type { Updateable } from 'kysely';
import type { AppContext } from '../../context';
import type { EventsTable } from '../../db/schema';
import type { Actor } from '../../lib/actor';
import { notFound, unprocessable } from '../../lib/http-error';
import { pushEventNews } from '../../push/push-messages';
import { recordAudit } from '../audit/audit.service';
import { eventUpdateEntry } from '../audit/audit-entries';
import { findEventType } from './event-types.repository';
import * as repo from './events.repository';
import { plural, setCapacity } from './events.service';
import { loadSchool, regenerateEventSlots } from './sections.service';

// An event's settings (spec §4 Event settings): a change of slot timing regenerates the slots (with
// confirm when bookings go), enabling it tells its recipients; and the booking notifications switch.

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
    if (body.dayBeforeReminder !== undefined) fields.day_before_reminder = body.dayBeforeReminder;
    if (body.meetingMode !== undefined)
      fields.meeting_mode = body.meetingMode === 'video' ? 'video' : 'in_person';
    if (body.scanOpensHoursBefore !== undefined) fields.scan_opens_hours_before = body.scanOpensHoursBefore;
    if (body.scanClosesHoursAfter !== undefined) fields.scan_closes_hours_after = body.scanClosesHoursAfter;
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
