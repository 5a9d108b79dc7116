import type { AppContext } from '../../context';
import type { Db } from '../../db/database';
import * as events from '../events/events.repository';
import { cancelAndNotify, loadSchool } from '../events/sections.service';

/**
 * A teacher leaves (their teacher role is removed): their appointments still to come are cancelled and each
 * family is told, and their future slots go, so no family is left booked with nobody. Past appointments
 * stay as the school's records. Decision 008's lock order: each event, then its slots, then bookings.
 */
export async function withdrawTeacher(
  ctx: AppContext,
  trx: Db,
  schoolId: number,
  teacherId: number,
): Promise<number> {
  const eventIds = await events.eventsWithFutureSlotsOf(trx, schoolId, teacherId);
  if (eventIds.length === 0) return 0;
  const school = await loadSchool(trx, schoolId);
  let cancelled = 0;
  for (const eventId of eventIds) {
    const event = await events.lockEvent(trx, schoolId, eventId);
    if (!event) continue;
    const slotIds = await events.lockFutureSlotsOf(trx, schoolId, eventId, teacherId);
    const bookings = await events.liveBookingsOnSlots(trx, schoolId, slotIds);
    await cancelAndNotify(ctx, trx, school, event, bookings, 'teacherLeft');
    await events.deleteSlots(trx, schoolId, slotIds);
    cancelled += bookings.length;
  }
  // Future sections no longer list them; sections already held keep them for the record.
  await events.removeTeacherFromFutureSections(trx, schoolId, teacherId);
  return cancelled;
}
