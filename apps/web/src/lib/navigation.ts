import { routeTo } from '@parley/domain/routes';

// Navigation outside React components (the API client's logout, the logout action). The app registers
// the router's navigate at start; until then a full page load does the job.

type Navigate = (path: string) => void;

let navigateImpl: Navigate = (path) => {
  window.location.assign(path);
};

export function setNavigate(navigate: Navigate): void {
  navigateImpl = navigate;
}

export function navigateTo(path: string): void {
  navigateImpl(path);
}

/** Login, coming back to `path` afterwards (home needs no return). */
export function loginFor(path: string): string {
  return path === routeTo('home') || path === '/'
    ? routeTo('login')
    : routeTo('login', {}, { returnTo: path });
}

/** Where a login may return to: a path of this app only (never another site, never an auth page). */
export function safeReturnTo(value: string | null | undefined): string | null {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  return value.startsWith('/auth/') ? null : value;
}
