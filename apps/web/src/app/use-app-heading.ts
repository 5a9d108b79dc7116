import { useEffect } from 'react';
import { useSession } from '../lib/session';
import { useSiteConfig } from '../lib/site-config';

/** The app heading: the school's name when logged in, otherwise the app name from the site config. */
export function useAppHeading(): string {
  const { token, user, subscriberName } = useSession();
  const { config } = useSiteConfig();
  const heading = token ? (user?.subscriberName ?? subscriberName ?? config.appName) : config.appName;
  useEffect(() => {
    document.title = heading === config.appName ? heading : `${heading} · ${config.appName}`;
  }, [heading, config.appName]);
  return heading;
}
