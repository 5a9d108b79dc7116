import { NAMED_ROUTES, type RouteName } from '@parley/domain/routes';

// Every route of spec §2 as data: where it is, which layout frames it, who may open it and what it
// shows. The guard (route-guard.ts) and the router (router.tsx) both read this table.

/**
 * - `private`: needs a login; an unauthenticated visitor is sent to login.
 * - `guest`: for visitors; a logged-in user is sent home.
 * - `public`: anyone (invite acceptance, set-password, verify pages, booking pages, logout, dev mailbox).
 */
export type Access = 'private' | 'guest' | 'public';

export type LayoutId = 'auth' | 'main' | 'booking' | 'plain';

export type ScreenId =
  | 'login'
  | 'register'
  | 'verify-school'
  | 'verify-email'
  | 'logout'
  | 'request-reset'
  | 'reset-password'
  | 'resend-invitation'
  | 'set-new-password'
  | 'set-teacher-password'
  | 'accept-admin-invite'
  | 'accept-teacher-invite'
  | 'accept-parent-invite'
  | 'accept-student-invite'
  | 'home'
  | 'events'
  | 'event-view'
  | 'event-current'
  | 'teacher-schedule'
  | 'my-bookings'
  | 'door'
  | 'admins'
  | 'admin-view'
  | 'teachers'
  | 'teacher-view'
  | 'teachers-bulkadd'
  | 'parents'
  | 'parent-view'
  | 'students'
  | 'student-view'
  | 'students-bulkadd'
  | 'subjects'
  | 'subject-view'
  | 'welcome'
  | 'school'
  | 'billing'
  | 'load-test'
  | 'profile'
  | 'settings'
  | 'dev-mailbox'
  | 'booking'
  | 'ticket-link'
  | 'call'
  | 'placeholder';

export type RouteEntry = {
  path: string;
  name?: RouteName;
  layout: LayoutId;
  access: Access;
  screen: ScreenId;
  /** Page heading (placeholders show only this). */
  title: string;
  /** Mobile header shows a back arrow (the spec's showBackArrow flag). */
  backArrow?: boolean;
  /** Spec §6 flags this route admin-only; the guard sends other logged-in users home. */
  adminOnly?: boolean;
};

const path = (name: RouteName) => NAMED_ROUTES[name];

const authRoute = (name: RouteName, screen: ScreenId, access: Access, title: string): RouteEntry => ({
  path: path(name),
  name,
  layout: 'auth',
  access,
  screen,
  title,
});

const page = (name: RouteName, title: string, extra: Partial<RouteEntry> = {}): RouteEntry => ({
  path: path(name),
  name,
  layout: 'main',
  access: 'private',
  screen: 'placeholder',
  title,
  ...extra,
});

export const ROUTES: readonly RouteEntry[] = [
  // Auth group
  authRoute('login', 'login', 'guest', 'Log in'),
  authRoute('register', 'register', 'guest', 'Register'),
  authRoute('verify-school', 'verify-school', 'public', 'Verify school'),
  authRoute('verify-email', 'verify-email', 'public', 'Verify email'),
  authRoute('logout', 'logout', 'public', 'Logout'),
  authRoute('request-reset', 'request-reset', 'guest', 'Reset password'),
  authRoute('reset-password', 'reset-password', 'guest', 'Reset password'),
  authRoute('resend-invitation', 'resend-invitation', 'guest', 'Resend invitation'),
  authRoute('set-new-password', 'set-new-password', 'public', 'Set password'),
  authRoute('set-teacher-password', 'set-teacher-password', 'public', 'Set password'),

  // Main layout
  page('home', 'Home', { screen: 'home' }),
  page('events', 'Events', { screen: 'events', adminOnly: true }),
  page('events.current', 'Current event', { screen: 'event-current', backArrow: true, adminOnly: true }),
  page('events.view', 'Event', { screen: 'event-view', backArrow: true, adminOnly: true }),
  page('events.view-teacher-event', 'Teacher event', { screen: 'teacher-schedule', backArrow: true }),
  page('events.view-parent-event', 'Parent event', { screen: 'my-bookings', backArrow: true }),
  page('events.view-student-event', 'Student event', { screen: 'my-bookings', backArrow: true }),
  page('event.details-teacher', 'Event details', { screen: 'teacher-schedule', backArrow: true }),
  page('event.details-parent', 'Event details', { screen: 'my-bookings', backArrow: true }),
  page('event.details-student', 'Event details', { screen: 'my-bookings', backArrow: true }),
  // Issue 10: the door of a ticketed event. Not in the spec's named routes; signed-in users may open it and
  // the server answers 403 to anyone who is not an admin or a scanner of the event.
  {
    path: '/events/door/:id',
    layout: 'main',
    access: 'private',
    screen: 'door',
    title: 'Door',
    backArrow: true,
  },
  page('load-test', 'Load test', { screen: 'load-test', adminOnly: true }),
  // Spec §6: the school directory, welcome, school and billing are admin only.
  page('admins', 'Admins', { screen: 'admins', adminOnly: true }),
  page('admins.view', 'Admin', { screen: 'admin-view', backArrow: true, adminOnly: true }),
  page('admins.accept-invite', 'Accept invitation', { access: 'public', screen: 'accept-admin-invite' }),
  page('teachers.accept-invite', 'Accept invitation', { access: 'public', screen: 'accept-teacher-invite' }),
  page('parents.accept-invite', 'Accept invitation', { access: 'public', screen: 'accept-parent-invite' }),
  page('students.accept-invite', 'Accept invitation', { access: 'public', screen: 'accept-student-invite' }),
  page('teachers', 'Teachers', { screen: 'teachers', adminOnly: true }),
  page('teachers.view', 'Teacher', { screen: 'teacher-view', backArrow: true, adminOnly: true }),
  page('teachers.bulkadd', 'Bulk add teachers', {
    screen: 'teachers-bulkadd',
    backArrow: true,
    adminOnly: true,
  }),
  page('parents', 'Parents', { screen: 'parents', adminOnly: true }),
  page('parents.view', 'Parent', { screen: 'parent-view', backArrow: true, adminOnly: true }),
  page('students', 'Students', { screen: 'students', adminOnly: true }),
  page('students.view', 'Student', { screen: 'student-view', backArrow: true, adminOnly: true }),
  page('students.bulkadd', 'Bulk add students and parents', {
    screen: 'students-bulkadd',
    backArrow: true,
    adminOnly: true,
  }),
  page('subjects', 'Subjects', { screen: 'subjects', adminOnly: true }),
  page('subjects.view', 'Subject', { screen: 'subject-view', backArrow: true, adminOnly: true }),
  page('welcome', 'Welcome', { screen: 'welcome', adminOnly: true }),
  page('school', 'School', { screen: 'school', adminOnly: true }),
  page('billing', 'Billing', { screen: 'billing', adminOnly: true }),
  page('profile', 'My profile', { screen: 'profile' }),
  page('settings', 'Settings', { screen: 'settings' }),

  // Booking layout (public)
  page('book.event', 'Book event', { layout: 'booking', access: 'public', screen: 'booking' }),
  page('book.ptevent', 'Book parent-teacher meeting', {
    layout: 'booking',
    access: 'public',
    screen: 'booking',
  }),

  // Issue 10: the address a ticket's QR carries ({APP_URL}/t/{code}), opened by a phone's own camera app.
  // Public: anyone is told it is a ticket to show at the door; a signed-in scanner checks and admits it.
  {
    // ticketPath(':code') of @parley/domain/tickets, written out: that module's schemas would bring zod
    // into the app's first chunk (routes.test.ts checks they agree).
    path: '/t/:code',
    layout: 'booking',
    access: 'public',
    screen: 'ticket-link',
    title: 'Ticket',
  },

  // Issue 41: a video appointment's call. Public: a family may come by the personal link of its mail
  // (?code= names the event whose link this tab keeps); the server says who may join, and when.
  {
    path: '/call/:bookingId',
    layout: 'booking',
    access: 'public',
    screen: 'call',
    title: 'Video appointment',
  },

  // Development
  {
    path: path('dev.mailbox'),
    name: 'dev.mailbox',
    layout: 'plain',
    access: 'public',
    screen: 'dev-mailbox',
    title: 'Dev mailbox',
  },
];

/** Root aliases (spec §2). The query string and hash are kept (verification and invite tokens). */
export const ALIASES: Readonly<Record<string, string>> = {
  '/': path('home'),
  '/auth': path('login'),
  '/login': path('login'),
  '/register': path('register'),
  '/verify-email': path('verify-email'),
  '/verify-school': path('verify-school'),
  '/logout': path('logout'),
  '/request-reset': path('request-reset'),
  '/reset-password': path('reset-password'),
  '/set-new-password': path('set-new-password'),
  '/resend-invitation': path('resend-invitation'),
  '/accept-admin-invite': path('admins.accept-invite'),
};
