import type { EventGroup } from '@parley/domain/event-groups';
import { EVENT_TEXT } from '@parley/domain/events';
import type { Db } from '../../db/database';
import { conflict, notFound } from '../../lib/http-error';
import { isCheckViolation } from '../../lib/pg-errors';
import * as repo from './events.repository';

// What the events module's use cases share (one file each beside this one: list-events, create-event,
// view-event, update-event, delete-event, event-slots, recipients, scanners, admin-home,
// export-bookings), and the booking pages' views of an event.

export const toTypeItem = (row: { id: number; name: string; group_int: EventGroup }) => ({
  id: row.id,
  name: row.name,
  groupInt: row.group_int,
});

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
