import { EVENT_TEXT } from '@parley/domain/events';
import type { AppContext } from '../../context';
import { notFound } from '../../lib/http-error';
import * as repo from './events.repository';
import { plural, setCapacity } from './events.service';

// Capacity and location for every slot of an event, or for one slot, a section or a teacher's column.

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
