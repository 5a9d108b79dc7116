import type { SiteConfig } from '@parley/domain/auth';
import { APP_VERSION, DEFAULT_APP_NAME } from '@parley/domain/constants';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client';
import { firstSiteConfig } from './first-answers';

// Public site settings: app name (the heading when logged out), bot-check key, dev mailbox switch.

export const FALLBACK_SITE_CONFIG: SiteConfig = {
  appName: DEFAULT_APP_NAME,
  version: APP_VERSION,
  turnstileSiteKey: null,
  devMailbox: false,
};

export const siteConfigQuery = queryOptions({
  queryKey: ['site', 'config'],
  queryFn: ({ signal }) => api.get<SiteConfig>('site/config', { signal }),
  staleTime: Number.POSITIVE_INFINITY,
  // A booking link's page brings it (lib/first-answers.ts).
  initialData: () => firstSiteConfig<SiteConfig>()?.data,
});

/** The site config, or the fallback while it loads or when the server cannot be reached. */
export function useSiteConfig(): { config: SiteConfig; isPending: boolean } {
  const query = useQuery(siteConfigQuery);
  return { config: query.data ?? FALLBACK_SITE_CONFIG, isPending: query.isPending };
}
