import { routeTo } from '@parley/domain/routes';
import { matchPath } from 'react-router';
import { loginFor, safeReturnTo } from '../lib/navigation';
import { ALIASES, ROUTES, type RouteEntry } from './route-table';

// Spec §4 route guard as a pure function of the address and the session:
// - root aliases redirect to their target, keeping the query string and hash;
// - an unauthenticated visitor is sent to login for every page except the public and guest ones
//   (auth pages, invite acceptance, set-password, verify pages, public booking pages, dev mailbox);
// - a logged-in user opening login, register, request-reset, reset-password or resend-invitation is
//   sent home (login with a safe ?returnTo= sends them there); verify-email and verify-school always
//   render (they clear the stored session);
// - an admin-only route sends other logged-in users home.

export type GuardInput = {
  pathname: string;
  search?: string;
  hash?: string;
  loggedIn: boolean;
  /** null/undefined while the current user is not known yet: admin-only routes then render. */
  isAdmin?: boolean | null;
};

export type GuardResult = { kind: 'render'; route: RouteEntry | null } | { kind: 'redirect'; to: string };

const isStatic = (route: RouteEntry) => !route.path.includes(':');
// Static paths win over dynamic ones (/events/view/id=current before /events/view/:id).
const ORDERED = [...ROUTES.filter(isStatic), ...ROUTES.filter((route) => !isStatic(route))];

function normalise(pathname: string): string {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return trimmed || '/';
}

/** The route table entry for an address, or null when no route matches. */
export function findRoute(pathname: string): RouteEntry | null {
  const clean = normalise(pathname);
  return ORDERED.find((route) => matchPath({ path: route.path, end: true }, clean) !== null) ?? null;
}

/** The target of a root alias with the query string and hash kept, or null when it is not an alias. */
export function resolveAlias(pathname: string, search = '', hash = ''): string | null {
  const target = ALIASES[normalise(pathname)];
  return target === undefined ? null : `${target}${search}${hash}`;
}

export function guardRoute({ pathname, search = '', hash = '', loggedIn, isAdmin }: GuardInput): GuardResult {
  const alias = resolveAlias(pathname, search, hash);
  if (alias !== null) return { kind: 'redirect', to: alias };

  const route = findRoute(pathname);
  const access = route?.access ?? 'private'; // unknown addresses: login first, then "not found"

  if (access === 'private' && !loggedIn) return { kind: 'redirect', to: loginFor(`${pathname}${search}`) };
  if (access === 'guest' && loggedIn) {
    // Login done: back to the page that asked for it (the login page's own navigation races this one).
    const back = route?.name === 'login' ? safeReturnTo(new URLSearchParams(search).get('returnTo')) : null;
    return { kind: 'redirect', to: back ?? routeTo('home') };
  }
  if (route?.adminOnly && loggedIn && isAdmin === false) return { kind: 'redirect', to: routeTo('home') };
  return { kind: 'render', route };
}
