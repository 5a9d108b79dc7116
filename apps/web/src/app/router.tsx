import { type ComponentType, type ReactNode, Suspense } from 'react';
import { type RouteObject, useRoutes } from 'react-router';
import { lazyComponent } from '../components/lazy-component';
import { PageSkeleton } from '../components/page-skeleton';
import { NotFoundPage } from '../features/placeholders/components/not-found-page';
import { PlaceholderPage } from '../features/placeholders/components/placeholder-page';
import { onFirstGesture } from '../lib/first-gesture';
import { onIdle } from '../lib/idle';
import { RootGuard } from './root-guard';
import { RouteErrorBoundary } from './route-error';
import { type GuardInput, guardRoute } from './route-guard';
import { type LayoutId, ROUTES, type RouteEntry, type ScreenId } from './route-table';

// Every layout and screen loads with its own chunk (decision 019): the shell is React, the router, the
// theme, the session and this table, and a page downloads only its layout and screen on top — a parent
// opening a booking link gets neither the auth forms nor the admin screens, a login neither home nor the
// top bar. The page being opened fetches both chunks at once (preloadPage, at start); each Suspense
// boundary is keyed by its route, so a page still loading shows its skeleton, never the last page's form.

/** Something whose chunk can be fetched ahead of its first render. */
type Preloadable = { preload: () => Promise<unknown> };

const AuthLayout = lazyComponent(() => import('./layouts/auth-layout').then((m) => m.AuthLayout));
const MainLayout = lazyComponent(() => import('./layouts/main-layout').then((m) => m.MainLayout));
const BookingLayout = lazyComponent(() => import('./layouts/booking-layout').then((m) => m.BookingLayout));
const PlainLayout = lazyComponent(() => import('./layouts/plain-layout').then((m) => m.PlainLayout));

const LoginPage = lazyComponent(() =>
  import('../features/auth/components/login-page').then((m) => m.LoginPage),
);
const RegisterPage = lazyComponent(() =>
  import('../features/auth/components/register-page').then((m) => m.RegisterPage),
);
const VerifySchoolPage = lazyComponent(() =>
  import('../features/auth/components/verify-school-page').then((m) => m.VerifySchoolPage),
);
const VerifyEmailPage = lazyComponent(() =>
  import('../features/auth/components/verify-email-page').then((m) => m.VerifyEmailPage),
);
const LogoutPage = lazyComponent(() =>
  import('../features/auth/components/logout-page').then((m) => m.LogoutPage),
);
const RequestResetPage = lazyComponent(() =>
  import('../features/auth/components/request-reset-page').then((m) => m.RequestResetPage),
);
const ResetPasswordPage = lazyComponent(() =>
  import('../features/auth/components/reset-password-page').then((m) => m.ResetPasswordPage),
);
const ResendInvitationPage = lazyComponent(() =>
  import('../features/auth/components/resend-invitation-page').then((m) => m.ResendInvitationPage),
);
const SetPasswordPage = lazyComponent(() =>
  import('../features/auth/components/set-password-page').then((m) => m.SetPasswordPage),
);
const AcceptInvitePage = lazyComponent(() =>
  import('../features/auth/components/accept-invite-page').then((m) => m.AcceptInvitePage),
);
const HomePage = lazyComponent(() => import('../features/home/components/home-page').then((m) => m.HomePage));
const ProfilePage = lazyComponent(() =>
  import('../features/account/components/profile-page').then((m) => m.ProfilePage),
);
const SettingsPage = lazyComponent(() =>
  import('../features/account/components/settings-page').then((m) => m.SettingsPage),
);
const BookingPage = lazyComponent(() =>
  import('../features/booking/components/booking-page').then((m) => m.BookingPage),
);
const DevMailboxPage = lazyComponent(() =>
  import('../features/dev-mailbox/components/dev-mailbox-page').then((m) => m.DevMailboxPage),
);
const BulkAddPage = lazyComponent(() =>
  import('../features/directory/components/bulk-add-page').then((m) => m.BulkAddPage),
);
const PeopleListPage = lazyComponent(() =>
  import('../features/directory/components/people-list-page').then((m) => m.PeopleListPage),
);
const PersonViewPage = lazyComponent(() =>
  import('../features/directory/components/person-view-page').then((m) => m.PersonViewPage),
);
const SubjectViewPage = lazyComponent(() =>
  import('../features/directory/components/subject-view-page').then((m) => m.SubjectViewPage),
);
const SubjectsListPage = lazyComponent(() =>
  import('../features/directory/components/subjects-list-page').then((m) => m.SubjectsListPage),
);
const WelcomePage = lazyComponent(() =>
  import('../features/directory/components/welcome-page').then((m) => m.WelcomePage),
);
const CurrentEventPage = lazyComponent(() =>
  import('../features/events/components/current-event-page').then((m) => m.CurrentEventPage),
);
const EventViewPage = lazyComponent(() =>
  import('../features/events/components/event-view-page').then((m) => m.EventViewPage),
);
const EventsListPage = lazyComponent(() =>
  import('../features/events/components/events-list-page').then((m) => m.EventsListPage),
);
const MyBookingsPage = lazyComponent(() =>
  import('../features/my-events/components/my-bookings-page').then((m) => m.MyBookingsPage),
);
const TeacherSchedulePage = lazyComponent(() =>
  import('../features/my-events/components/teacher-schedule-page').then((m) => m.TeacherSchedulePage),
);
const DoorPage = lazyComponent(() =>
  import('../features/tickets/components/door-page').then((m) => m.DoorPage),
);
const TicketLinkPage = lazyComponent(() =>
  import('../features/tickets/components/ticket-link-page').then((m) => m.TicketLinkPage),
);
const CallPage = lazyComponent(() =>
  import('../features/calls/components/call-page').then((m) => m.CallPage),
);
const SchoolPage = lazyComponent(() =>
  import('../features/school/components/school-page').then((m) => m.SchoolPage),
);
const BillingPage = lazyComponent(() =>
  import('../features/billing/components/billing-page').then((m) => m.BillingPage),
);
const LoadTestPage = lazyComponent(() =>
  import('../features/load-test/components/load-test-page').then((m) => m.LoadTestPage),
);

/** The module each screen needs, to fetch it alongside its layout before React asks for it. */
const SCREEN_MODULES: Partial<Record<ScreenId, Preloadable>> = {
  login: LoginPage,
  register: RegisterPage,
  'verify-school': VerifySchoolPage,
  'verify-email': VerifyEmailPage,
  logout: LogoutPage,
  'request-reset': RequestResetPage,
  'reset-password': ResetPasswordPage,
  'resend-invitation': ResendInvitationPage,
  'set-new-password': SetPasswordPage,
  'set-teacher-password': SetPasswordPage,
  'accept-admin-invite': AcceptInvitePage,
  'accept-teacher-invite': AcceptInvitePage,
  'accept-parent-invite': AcceptInvitePage,
  'accept-student-invite': AcceptInvitePage,
  home: HomePage,
  events: EventsListPage,
  'event-view': EventViewPage,
  'event-current': CurrentEventPage,
  'teacher-schedule': TeacherSchedulePage,
  'my-bookings': MyBookingsPage,
  door: DoorPage,
  admins: PeopleListPage,
  'admin-view': PersonViewPage,
  teachers: PeopleListPage,
  'teacher-view': PersonViewPage,
  'teachers-bulkadd': BulkAddPage,
  parents: PeopleListPage,
  'parent-view': PersonViewPage,
  students: PeopleListPage,
  'student-view': PersonViewPage,
  'students-bulkadd': BulkAddPage,
  subjects: SubjectsListPage,
  'subject-view': SubjectViewPage,
  welcome: WelcomePage,
  school: SchoolPage,
  billing: BillingPage,
  'load-test': LoadTestPage,
  profile: ProfilePage,
  settings: SettingsPage,
  'dev-mailbox': DevMailboxPage,
  booking: BookingPage,
  'ticket-link': TicketLinkPage,
  call: CallPage,
};

const SCREENS: Record<ScreenId, (route: RouteEntry) => ReactNode> = {
  login: () => <LoginPage />,
  register: () => <RegisterPage />,
  'verify-school': () => <VerifySchoolPage />,
  'verify-email': () => <VerifyEmailPage />,
  logout: () => <LogoutPage />,
  'request-reset': () => <RequestResetPage />,
  'reset-password': () => <ResetPasswordPage />,
  'resend-invitation': () => <ResendInvitationPage />,
  'set-new-password': () => <SetPasswordPage kind="new" />,
  'set-teacher-password': () => <SetPasswordPage kind="teacher" />,
  'accept-admin-invite': () => <AcceptInvitePage inviteRole="admin" />,
  'accept-teacher-invite': () => <AcceptInvitePage inviteRole="teacher" />,
  'accept-parent-invite': () => <AcceptInvitePage inviteRole="parent" />,
  'accept-student-invite': () => <AcceptInvitePage inviteRole="student" />,
  home: () => <HomePage />,
  events: () => <EventsListPage />,
  'event-view': () => <EventViewPage />,
  'event-current': () => <CurrentEventPage />,
  'teacher-schedule': () => <TeacherSchedulePage />,
  'my-bookings': () => <MyBookingsPage />,
  door: () => <DoorPage />,
  admins: () => <PeopleListPage kind="admins" />,
  'admin-view': () => <PersonViewPage kind="admins" />,
  teachers: () => <PeopleListPage kind="teachers" />,
  'teacher-view': () => <PersonViewPage kind="teachers" />,
  'teachers-bulkadd': () => <BulkAddPage kind="teachers" />,
  parents: () => <PeopleListPage kind="parents" />,
  'parent-view': () => <PersonViewPage kind="parents" />,
  students: () => <PeopleListPage kind="students" />,
  'student-view': () => <PersonViewPage kind="students" />,
  'students-bulkadd': () => <BulkAddPage kind="families" />,
  subjects: () => <SubjectsListPage />,
  'subject-view': () => <SubjectViewPage />,
  welcome: () => <WelcomePage />,
  school: () => <SchoolPage />,
  billing: () => <BillingPage />,
  'load-test': () => <LoadTestPage />,
  profile: () => <ProfilePage />,
  settings: () => <SettingsPage />,
  'dev-mailbox': () => <DevMailboxPage />,
  booking: () => <BookingPage />,
  'ticket-link': () => <TicketLinkPage />,
  call: () => <CallPage />,
  placeholder: (route) => <PlaceholderPage title={route.title} />,
};

const LAYOUTS: Record<LayoutId, ComponentType & Preloadable> = {
  auth: AuthLayout,
  main: MainLayout,
  booking: BookingLayout,
  plain: PlainLayout,
};

function layoutRoute(layout: LayoutId, extra: RouteObject[] = []): RouteObject {
  const Layout = LAYOUTS[layout];
  return {
    // Nothing drawn while the layout itself loads (the page's background is already the theme's).
    element: (
      <Suspense key={layout} fallback={null}>
        <Layout />
      </Suspense>
    ),
    children: [
      ...ROUTES.filter((route) => route.layout === layout).map(
        (route): RouteObject => ({
          path: route.path,
          element: (
            <Suspense key={route.path} fallback={<PageSkeleton />}>
              {SCREENS[route.screen](route)}
            </Suspense>
          ),
        }),
      ),
      ...extra,
    ],
  };
}

export const appRoutes: RouteObject[] = [
  {
    // A boundary, not errorElement: the app runs in React Router's declarative mode (decision 019).
    element: (
      <RouteErrorBoundary>
        <RootGuard />
      </RouteErrorBoundary>
    ),
    children: [
      layoutRoute('auth'),
      layoutRoute('main', [{ path: '*', element: <NotFoundPage /> }]),
      layoutRoute('booking'),
      layoutRoute('plain'),
    ],
  },
];

/**
 * Starts downloading the layout and screen of the page at this address (after the guard's redirects,
 * as the router will show it), so both chunks come in parallel with each other and with the session.
 * Settles once both are in (a prerendered page waits for that before the app renders over it).
 */
export function preloadPage(input: GuardInput): Promise<unknown> {
  let at = { ...input };
  for (let hops = 0; hops < 3; hops++) {
    const result = guardRoute(at);
    if (result.kind === 'render') {
      // An unknown address shows "not found" in the main layout.
      const page = Promise.all([
        LAYOUTS[result.route?.layout ?? 'main'].preload(),
        result.route && SCREEN_MODULES[result.route.screen]?.preload(),
      ]);
      page.catch(() => undefined);
      // A login is followed by home: fetch it while the sign-in's request is out, in the idle time after
      // the form is sent. Not at the first tap or key: naming home's chunks to fetch (a request started per
      // file) kept a slow phone's main thread busy for a fifth of a second right when the visitor was
      // tapping into the form and typing.
      if (result.route?.screen === 'login') {
        const home = { ...at, pathname: '/home', loggedIn: true };
        void page.then(
          () => onFirstGesture(() => onIdle(() => void preloadPage(home)), ['submit']),
          () => undefined,
        );
      }
      return page;
    }
    const next = new URL(result.to, 'http://x');
    at = { ...at, pathname: next.pathname, search: next.search, hash: next.hash };
  }
  return Promise.resolve();
}

/** Every layout and screen, loaded: screen tests render at once, as the app does once a chunk is in. */
export async function preloadAllScreens(): Promise<void> {
  await Promise.all([...Object.values(LAYOUTS), ...Object.values(SCREEN_MODULES)].map((m) => m.preload()));
}

/**
 * The app's routes, for a <BrowserRouter>. Declarative mode: the data router (loaders, actions, fetchers)
 * would add some 19 KB gzipped that no screen uses.
 */
export function AppRoutes() {
  return useRoutes(appRoutes);
}
