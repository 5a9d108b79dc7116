import type { Role } from '@parley/domain/roles';
import { ROLE_LABELS } from '@parley/domain/roles';
import type { AppContext } from '../../context';
import { findSchool } from '../accounts/accounts.repository';
import { myEvents } from '../booking/my-events.service';
import { adminHomeData } from '../events/admin-home.service';

/** Home data (spec §7 Home, §3 Home data): the admin's tiles and Event Bookings list; zeros for others. */
export async function homeData(
  ctx: AppContext,
  session: { userId: number; schoolId: number; roles: Role[] },
) {
  const [school, home, mine] = await Promise.all([
    findSchool(ctx.db, session.schoolId),
    session.roles.includes('admin') ? adminHomeData(ctx, session.schoolId) : undefined,
    myEvents(ctx, session),
  ]);
  return {
    eventsCount: home?.eventsCount ?? 0,
    teachersCount: home?.teachersCount ?? 0,
    parentsCount: home?.parentsCount ?? 0,
    studentsCount: home?.studentsCount ?? 0,
    activeEvents: home?.activeEvents ?? [],
    ...mine,
    subscriberName: school.name,
    // "View as" offers the roles that have a "My Events" list: never Admin (spec §2 Home).
    viewAsSelectorItems: session.roles
      .filter((role) => role !== 'admin')
      .map((role) => ({ value: role, label: ROLE_LABELS[role] })),
  };
}
