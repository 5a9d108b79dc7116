import { siteConfigResponse } from '@parley/domain/auth';
import { APP_VERSION } from '@parley/domain/constants';
import { homeDataResponse } from '@parley/domain/home';
import { ROLE_LABELS } from '@parley/domain/roles';
import type { AppContext } from '../../context';
import { type Api, errorResponses } from '../../lib/api';
import { requireSession, sessionOf } from '../../plugins/auth';
import { findSchool } from '../accounts/accounts.repository';
import { myEvents } from '../booking/my-events.service';
import { adminHomeData } from '../events/events.service';

export function siteRoutes(api: Api, ctx: AppContext): void {
  const tags = ['site'];

  // What the app needs before anyone logs in: its name, the bot-check key, whether the dev mailbox is on.
  api.get('/site/config', { schema: { tags, response: { 200: siteConfigResponse } } }, async () => ({
    appName: ctx.config.appName,
    version: APP_VERSION,
    turnstileSiteKey: ctx.config.turnstileSiteKey ?? null,
    devMailbox: ctx.config.devMailbox,
  }));

  // Home data (spec §7 Home, §3 Home data): the admin's tiles and Event Bookings list; zeros for others.
  api.get(
    '/site/index',
    {
      onRequest: requireSession(ctx.db),
      schema: { tags, security: [{ bearer: [] }], response: { 200: homeDataResponse, ...errorResponses } },
    },
    async (request) => {
      const session = sessionOf(request);
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
    },
  );
}
