import { siteConfigResponse } from '@parley/domain/auth';
import { APP_VERSION } from '@parley/domain/constants';
import { homeDataResponse } from '@parley/domain/home';
import type { AppContext } from '../../context';
import { type Api, errorResponses } from '../../lib/api';
import { requireSession, sessionOf } from '../../plugins/auth';
import { homeData } from './site.service';

export function siteRoutes(api: Api, ctx: AppContext): void {
  const tags = ['site'];

  // What the app needs before anyone logs in: its name, the bot-check key, whether the dev mailbox is on.
  api.get('/site/config', { schema: { tags, response: { 200: siteConfigResponse } } }, async () => ({
    appName: ctx.config.appName,
    version: APP_VERSION,
    turnstileSiteKey: ctx.config.turnstileSiteKey ?? null,
    devMailbox: ctx.config.devMailbox,
  }));

  // Home data (spec §7 Home, §3 Home data).
  api.get(
    '/site/index',
    {
      onRequest: requireSession(ctx.db),
      schema: { tags, security: [{ bearer: [] }], response: { 200: homeDataResponse, ...errorResponses } },
    },
    async (request) => homeData(ctx, sessionOf(request)),
  );
}
