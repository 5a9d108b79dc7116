import { describe, expect, it } from 'vitest';
import { safeReturnTo } from '../lib/navigation';
import { findRoute, guardRoute, resolveAlias } from './route-guard';
import { ROUTES } from './route-table';

// Spec §4 "Route guard", page by page.

/** Pages anyone may open: verify pages, invitation acceptance, set-password, logout, booking, dev mailbox. */
const PUBLIC_PAGES = [
  '/auth/verify-school',
  '/auth/verify-email',
  '/auth/logout',
  '/auth/set-new-password',
  '/auth/set-teacher-password',
  '/admins/accept-admin-invite',
  '/accept-teacher-invite',
  '/accept-parent-invite',
  '/accept-student-invite',
  '/book/event/:code',
  '/book/ptevent/:code',
  // Issue 41: a video appointment's call; a family may come by its mail's personal link.
  '/call/:bookingId',
  // Issue 10: a ticket's QR address, opened by a phone's own camera app.
  '/t/:code',
  '/dev/mailbox',
];

/** Auth pages for visitors: a logged-in user is sent home. */
const GUEST_PAGES = [
  '/auth/login',
  '/auth/register',
  '/auth/request-reset',
  '/auth/reset-password',
  '/auth/resend-invitation',
];

/** Every page of the main layout that needs a login. */
const PRIVATE_PAGES = [
  '/home',
  '/events',
  '/events/view/:id',
  '/events/view/id=current',
  '/events/view-teacher-event/:id',
  '/events/view-parent-event/:id',
  '/events/view-student-event/:id',
  '/event/details-teacher',
  '/event/details-parent',
  '/event/details-student',
  // Issue 10: the door of a ticketed event (the server decides who may see it).
  '/events/door/:id',
  '/load-test',
  '/admins',
  '/admins/view/:id',
  '/teachers',
  '/teachers/view/:id',
  '/teachers/bulkadd',
  '/parents',
  '/parents/view/:id',
  '/students',
  '/students/view/:id',
  '/students/bulkadd',
  '/subjects',
  '/subjects/view/:id',
  '/welcome',
  '/school',
  '/billing',
  '/profile',
  '/settings',
];

/** Spec §6: directory, welcome, school, admins and billing are for admins only. */
const ADMIN_ONLY_PAGES = [
  '/load-test',
  '/admins',
  '/admins/view/:id',
  '/teachers',
  '/teachers/view/:id',
  '/teachers/bulkadd',
  '/parents',
  '/parents/view/:id',
  '/students',
  '/students/view/:id',
  '/students/bulkadd',
  '/subjects',
  '/subjects/view/:id',
  '/welcome',
  '/school',
  '/billing',
];

const concrete = (path: string) => path.replace(':id', '42').replace(':code', 'ABC123');

describe('route table', () => {
  it('classifies every route of the table in this test (a new route must be added here)', () => {
    const classified = [...PUBLIC_PAGES, ...GUEST_PAGES, ...PRIVATE_PAGES].sort();
    expect(ROUTES.map((route) => route.path).sort()).toEqual(classified);
  });

  it('finds static paths before dynamic ones', () => {
    expect(findRoute('/events/view/id=current')?.name).toBe('events.current');
    expect(findRoute('/events/view/17')?.name).toBe('events.view');
    expect(findRoute('/home/')?.name).toBe('home');
    expect(findRoute('/no/such/page')).toBeNull();
  });
});

describe('route guard: unauthenticated visitor', () => {
  it.each(PUBLIC_PAGES)('renders public page %s', (path) => {
    const result = guardRoute({ pathname: concrete(path), loggedIn: false });
    expect(result).toMatchObject({ kind: 'render', route: { path } });
  });

  it.each(GUEST_PAGES)('renders auth page %s', (path) => {
    expect(guardRoute({ pathname: path, loggedIn: false })).toMatchObject({
      kind: 'render',
      route: { path },
    });
  });

  it.each(PRIVATE_PAGES)('sends %s to login, to come back after', (path) => {
    const pathname = concrete(path);
    expect(guardRoute({ pathname, loggedIn: false })).toEqual({
      kind: 'redirect',
      to: pathname === '/home' ? '/auth/login' : `/auth/login?returnTo=${encodeURIComponent(pathname)}`,
    });
  });

  it('keeps the query of the page to come back to', () => {
    expect(guardRoute({ pathname: '/event/details-teacher', search: '?eventId=7', loggedIn: false })).toEqual(
      { kind: 'redirect', to: '/auth/login?returnTo=%2Fevent%2Fdetails-teacher%3FeventId%3D7' },
    );
  });

  it('sends an unknown address to login', () => {
    expect(guardRoute({ pathname: '/nowhere', loggedIn: false })).toEqual({
      kind: 'redirect',
      to: '/auth/login?returnTo=%2Fnowhere',
    });
  });

  it('returns after login only to a path of this app', () => {
    expect(safeReturnTo('/book/ptevent/ABC')).toBe('/book/ptevent/ABC');
    expect(safeReturnTo('/event/details-parent?eventId=3')).toBe('/event/details-parent?eventId=3');
    for (const bad of [
      'https://evil.test',
      '//evil.test',
      '/\\evil.test',
      '/auth/login',
      '',
      null,
      undefined,
    ])
      expect(safeReturnTo(bad)).toBeNull();
  });
});

describe('route guard: logged-in user', () => {
  it.each(GUEST_PAGES)('sends %s home', (path) => {
    expect(guardRoute({ pathname: path, search: '?token=t', loggedIn: true, isAdmin: true })).toEqual({
      kind: 'redirect',
      to: '/home',
    });
  });

  it.each(PRIVATE_PAGES)('renders %s for an admin', (path) => {
    expect(guardRoute({ pathname: concrete(path), loggedIn: true, isAdmin: true })).toMatchObject({
      kind: 'render',
      route: { path },
    });
  });

  it.each(PUBLIC_PAGES)('renders public page %s', (path) => {
    expect(guardRoute({ pathname: concrete(path), loggedIn: true, isAdmin: false })).toMatchObject({
      kind: 'render',
      route: { path },
    });
  });

  it('sends a user who has just logged in back to the page that asked (a safe address only)', () => {
    const back = (search: string) =>
      guardRoute({ pathname: '/auth/login', search, loggedIn: true, isAdmin: false });
    expect(back('?returnTo=%2Ft%2FAbCd')).toEqual({ kind: 'redirect', to: '/t/AbCd' });
    expect(back('?returnTo=%2Fevent%2Fdetails-parent%3FeventId%3D3')).toEqual({
      kind: 'redirect',
      to: '/event/details-parent?eventId=3',
    });
    for (const bad of [
      '?returnTo=https%3A%2F%2Fevil.test',
      '?returnTo=%2F%2Fevil.test',
      '?returnTo=%2Fauth%2Flogin',
      '',
    ])
      expect(back(bad)).toEqual({ kind: 'redirect', to: '/home' });
    expect(
      guardRoute({ pathname: '/auth/register', search: '?returnTo=%2Ft%2FAbCd', loggedIn: true }),
    ).toEqual({ kind: 'redirect', to: '/home' });
  });

  it('renders the verify pages, which clear the stored session themselves', () => {
    for (const pathname of ['/auth/verify-email', '/auth/verify-school']) {
      expect(guardRoute({ pathname, search: '?token=abc', loggedIn: true })).toMatchObject({
        kind: 'render',
      });
    }
  });

  it('sends a non-admin away from the admin-only load-test page', () => {
    expect(guardRoute({ pathname: '/load-test', loggedIn: true, isAdmin: false })).toEqual({
      kind: 'redirect',
      to: '/home',
    });
    expect(guardRoute({ pathname: '/load-test', loggedIn: true, isAdmin: null })).toMatchObject({
      kind: 'render',
    });
  });

  it.each(ADMIN_ONLY_PAGES)('sends a non-admin away from the admin-only page %s (spec §6)', (path) => {
    expect(guardRoute({ pathname: concrete(path), loggedIn: true, isAdmin: false })).toEqual({
      kind: 'redirect',
      to: '/home',
    });
  });

  it.each(['/home', '/profile', '/settings'])('renders %s for every role', (path) => {
    expect(guardRoute({ pathname: path, loggedIn: true, isAdmin: false })).toMatchObject({
      kind: 'render',
      route: { path },
    });
  });

  it('renders "not found" for an unknown address', () => {
    expect(guardRoute({ pathname: '/nowhere', loggedIn: true })).toEqual({ kind: 'render', route: null });
  });
});

describe('root aliases (spec §2)', () => {
  it.each([
    ['/', '/home'],
    ['/login', '/auth/login'],
    ['/register', '/auth/register'],
    ['/verify-email', '/auth/verify-email'],
    ['/verify-school', '/auth/verify-school'],
    ['/logout', '/auth/logout'],
    ['/request-reset', '/auth/request-reset'],
    ['/reset-password', '/auth/reset-password'],
    ['/set-new-password', '/auth/set-new-password'],
    ['/resend-invitation', '/auth/resend-invitation'],
    ['/accept-admin-invite', '/admins/accept-admin-invite'],
  ])('%s redirects to %s keeping the query string and hash', (from, to) => {
    expect(resolveAlias(from, '?token=abc', '#top')).toBe(`${to}?token=abc#top`);
    for (const loggedIn of [false, true]) {
      expect(guardRoute({ pathname: from, search: '?token=abc', loggedIn })).toEqual({
        kind: 'redirect',
        to: `${to}?token=abc`,
      });
    }
  });

  it('is not an alias for other paths', () => {
    expect(resolveAlias('/home')).toBeNull();
    expect(resolveAlias('/auth/login')).toBeNull();
  });
});
