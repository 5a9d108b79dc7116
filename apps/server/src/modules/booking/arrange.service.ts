import { type ArrangeNeed, arrangeSchedule } from '@parley/domain/arrange';
import { type ArrangeRequest, BOOKING_STATE_TEXT, BOOKING_TEXT } from '@parley/domain/booking';
import { formatLocalTime, localToInstant } from '@parley/domain/time-zone';
import type { AppContext } from '../../context';
import { conflict } from '../../lib/http-error';
import * as events from '../events/events.repository';
import { type Booker, requireOpen } from './booker';
import * as repo from './booking.repository';
import { checkOpenFor, checkStudents, eventFor, partyOf } from './booking.service';

// Arrange for me: the most compact schedule of free slots for the chosen teachers (a proposal only).

/** POST events/arrange-slots: the most compact schedule of free slots for the chosen teachers. */
export async function arrange(ctx: AppContext, booker: Booker, eventId: number, body: ArrangeRequest) {
  const event = await eventFor(ctx, booker, eventId);
  const party = partyOf(booker);
  const items = body.items.map((item) => ({ ...item, subjectId: item.subjectId ?? null }));
  // A family the recipients leave out is refused before anything about its children is said.
  const open = await requireOpen(ctx.db, event, party);
  await checkStudents(
    ctx.db,
    event.school_id,
    party,
    items.map((item) => item.studentId),
  );
  checkOpenFor(
    open,
    items.map((item) => item.studentId),
  );
  const [slots, mine, sections] = await Promise.all([
    repo.gridSlots(
      ctx.db,
      event.school_id,
      event.id,
      items.map((item) => item.teacherId),
    ),
    repo.partyBookings(ctx.db, event.school_id, event.id, party),
    events.listSections(ctx.db, event.school_id, event.id),
  ]);
  const zone = event.timezone;
  const tried = body.sectionId ? sections.filter((section) => section.id === body.sectionId) : sections;
  for (const section of tried) {
    const earliest = body.earliest ? localToInstant(section.date, body.earliest, zone) : null;
    const latest = body.latest ? localToInstant(section.date, body.latest, zone) : null;
    // One appointment per teacher: siblings who share a teacher are seen together in one slot.
    const needs: ArrangeNeed[] = [...new Set(items.map((item) => item.teacherId))].map((teacherId) => ({
      key: String(teacherId),
      candidates: slots
        .filter(
          (slot) =>
            slot.section_id === section.id &&
            slot.teacher_id === teacherId &&
            slot.booked_count < slot.capacity,
        )
        .map((slot) => ({ slotId: slot.id, startsAt: slot.starts_at, endsAt: slot.ends_at })),
    }));
    const picks = arrangeSchedule({
      needs,
      busy: mine.map((booking) => ({ startsAt: booking.starts_at, endsAt: booking.ends_at })),
      travelMinutes: event.travel_minutes,
      earliest,
      latest,
    });
    if (!picks) continue;
    const names = new Map(slots.map((slot) => [slot.id, slot.teacher_name ?? '']));
    const byTeacher = new Map(picks.map((pick) => [Number(pick.key), pick]));
    return {
      message: BOOKING_TEXT.arranged,
      items: items
        .flatMap((item) => {
          const pick = byTeacher.get(item.teacherId);
          if (!pick) return [];
          return [
            {
              slotId: pick.slotId,
              studentId: item.studentId,
              teacherId: item.teacherId,
              subjectId: item.subjectId,
              teacherName: names.get(pick.slotId) ?? '',
              startsAt: pick.startsAt.toISOString(),
              time: formatLocalTime(pick.startsAt, zone),
              endTime: formatLocalTime(pick.endsAt, zone),
            },
          ];
        })
        .sort((a, b) => a.startsAt.localeCompare(b.startsAt) || a.studentId - b.studentId),
    };
  }
  throw conflict(BOOKING_STATE_TEXT.noArrangement);
}
