import { EVENT_TEXT } from '@parley/domain/events';
import type { AppContext } from '../../context';
import type { Actor } from '../../lib/actor';
import { notFound } from '../../lib/http-error';
import { recordAudit } from '../audit/audit.service';
import { bookingPeople, eventSubject } from '../audit/audit-entries';
import * as repo from './events.repository';
import { affectedConflict, cancelAndNotify, loadSchool } from './sections.service';

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
