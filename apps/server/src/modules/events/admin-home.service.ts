import { timeUntil } from '@parley/domain/relative-time';
import type { AppContext } from '../../context';
import * as repo from './events.repository';

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
