// Named routes of the web app (spec §2). One table, so navigation in the app and links in mails agree.
// `routeTo('events.view', { id: 7 })` → '/events/view/7'.

export const NAMED_ROUTES = {
  // Auth group (/auth)
  login: '/auth/login',
  register: '/auth/register',
  'verify-school': '/auth/verify-school',
  'verify-email': '/auth/verify-email',
  logout: '/auth/logout',
  'request-reset': '/auth/request-reset',
  'reset-password': '/auth/reset-password',
  'resend-invitation': '/auth/resend-invitation',
  'set-new-password': '/auth/set-new-password',
  'set-teacher-password': '/auth/set-teacher-password',

  // Main layout
  home: '/home',
  events: '/events',
  'events.view': '/events/view/:id',
  'events.current': '/events/view/id=current',
  'events.view-teacher-event': '/events/view-teacher-event/:id',
  'events.view-parent-event': '/events/view-parent-event/:id',
  'events.view-student-event': '/events/view-student-event/:id',
  'event.details-teacher': '/event/details-teacher',
  'event.details-parent': '/event/details-parent',
  'event.details-student': '/event/details-student',
  'load-test': '/load-test',
  admins: '/admins',
  'admins.view': '/admins/view/:id',
  'admins.accept-invite': '/admins/accept-admin-invite',
  'teachers.accept-invite': '/accept-teacher-invite',
  'parents.accept-invite': '/accept-parent-invite',
  'students.accept-invite': '/accept-student-invite',
  teachers: '/teachers',
  'teachers.view': '/teachers/view/:id',
  'teachers.bulkadd': '/teachers/bulkadd',
  parents: '/parents',
  'parents.view': '/parents/view/:id',
  students: '/students',
  'students.view': '/students/view/:id',
  'students.bulkadd': '/students/bulkadd',
  subjects: '/subjects',
  'subjects.view': '/subjects/view/:id',
  welcome: '/welcome',
  school: '/school',
  billing: '/billing',
  profile: '/profile',
  settings: '/settings',

  // Booking layout (public)
  'book.event': '/book/event/:code',
  'book.ptevent': '/book/ptevent/:code',

  // Development only: the mails kept when no SMTP server is configured
  'dev.mailbox': '/dev/mailbox',
} as const;

export type RouteName = keyof typeof NAMED_ROUTES;

type ParamNames<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

export type RouteParams<Name extends RouteName> = {
  [Key in ParamNames<(typeof NAMED_ROUTES)[Name]>]: string | number;
};

export type RouteQuery = Record<string, string | number | boolean | null | undefined>;

type RouteArgs<Name extends RouteName> = [ParamNames<(typeof NAMED_ROUTES)[Name]>] extends [never]
  ? [params?: Record<string, never>, query?: RouteQuery]
  : [params: RouteParams<Name>, query?: RouteQuery];

/** The path of a named route with its parameters filled in (URL-encoded) and an optional query string. */
export function routeTo<Name extends RouteName>(name: Name, ...args: RouteArgs<Name>): string {
  const template: string | undefined = NAMED_ROUTES[name];
  if (template === undefined) throw new Error(`Unknown route name: ${String(name)}`);
  const [params, query] = args as [Record<string, string | number> | undefined, RouteQuery | undefined];
  const path = template.replace(/:([A-Za-z_]\w*)/g, (_match, key: string) => {
    const value = params?.[key];
    if (value === undefined || value === '')
      throw new Error(`Route ${String(name)} needs parameter "${key}"`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) search.append(key, String(value));
  }
  const queryString = search.toString();
  return queryString ? `${path}?${queryString}` : path;
}

/**
 * A video appointment's call page (issue 41; not one of the spec's named routes). A family by the personal
 * link of its mail passes the event's code, by which the page finds the link this tab keeps.
 */
export function callPath(bookingId: number, code?: string): string {
  return `/call/${bookingId}${code ? `?code=${encodeURIComponent(code)}` : ''}`;
}
