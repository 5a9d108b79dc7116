import { EVENT_TEXT, type EventGroup, guestCountOptions, type SectionSummary } from '@parley/domain/events';
import type { Db } from '../../db/database';
import { conflict, notFound } from '../../lib/http-error';
import { isCheckViolation } from '../../lib/pg-errors';
import * as repo from './events.repository';
import { sectionLabel } from './slot-planner';

// What the events module's use cases share (one file each beside this one: list-events, create-event,
// view-event, update-event, delete-event, event-slots, recipients, scanners, admin-home,
// export-bookings), and the booking pages' views of an event.

export const toTypeItem = (row: { id: number; name: string; group_int: EventGroup }) => ({
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

export const statusOf = (status: number) => (status === 1 ? 1 : 0);

export async function requireEvent(db: Db, schoolId: number, eventId: number) {
  const event = await repo.findEvent(db, schoolId, eventId);
  if (!event) throw notFound(EVENT_TEXT.notFound);
  return event;
}

/** Every slot of the event to a new capacity; 409 when one already holds more bookings. */
export async function setCapacity(trx: Db, schoolId: number, eventId: number, capacity: number) {
  try {
    return await repo.setSlotsCapacity(trx, schoolId, eventId, capacity);
  } catch (error) {
    // slots_booked_count: a slot already holds more bookings than the new capacity.
    if (isCheckViolation(error))
      throw conflict(EVENT_TEXT.capacityBelowBookings, { capacity: [EVENT_TEXT.capacityBelowBookings] });
    throw error;
  }
}
