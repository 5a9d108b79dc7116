import { type ComponentType, lazy, type ReactNode, Suspense } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { PageSkeleton } from '../components/page-skeleton';
import { AcceptInvitePage } from '../features/auth/components/accept-invite-page';
import { LoginPage } from '../features/auth/components/login-page';
import { LogoutPage } from '../features/auth/components/logout-page';
import { RegisterPage } from '../features/auth/components/register-page';
import { RequestResetPage } from '../features/auth/components/request-reset-page';
import { ResendInvitationPage } from '../features/auth/components/resend-invitation-page';
import { ResetPasswordPage } from '../features/auth/components/reset-password-page';
import { SetPasswordPage } from '../features/auth/components/set-password-page';
import { VerifyEmailPage } from '../features/auth/components/verify-email-page';
import { VerifySchoolPage } from '../features/auth/components/verify-school-page';
import { HomePage } from '../features/home/components/home-page';
import { NotFoundPage } from '../features/placeholders/components/not-found-page';
import { PlaceholderPage } from '../features/placeholders/components/placeholder-page';
import { AuthLayout } from './layouts/auth-layout';
import { BookingLayout } from './layouts/booking-layout';
import { MainLayout } from './layouts/main-layout';
import { PlainLayout } from './layouts/plain-layout';
import { RootGuard } from './root-guard';
import { RouteError } from './route-error';
import { type LayoutId, ROUTES, type RouteEntry, type ScreenId } from './route-table';

// Screens load with their feature (a chunk each): a parent opening a booking link, or anyone logging in,
// downloads the shell and that page, not the whole admin app. The auth pages and home come with the shell:
// they follow each other by links, and a page still loading must not leave the last one's form in view.
const ProfilePage = lazy(() =>
  import('../features/account/components/profile-page').then((module) => ({ default: module.ProfilePage })),
);
const SettingsPage = lazy(() =>
  import('../features/account/components/settings-page').then((module) => ({ default: module.SettingsPage })),
);
const BookingPage = lazy(() =>
  import('../features/booking/components/booking-page').then((module) => ({ default: module.BookingPage })),
);
const DevMailboxPage = lazy(() =>
  import('../features/dev-mailbox/components/dev-mailbox-page').then((module) => ({
    default: module.DevMailboxPage,
  })),
);
const BulkAddPage = lazy(() =>
  import('../features/directory/components/bulk-add-page').then((module) => ({
    default: module.BulkAddPage,
  })),
);
const PeopleListPage = lazy(() =>
  import('../features/directory/components/people-list-page').then((module) => ({
    default: module.PeopleListPage,
  })),
);
const PersonViewPage = lazy(() =>
  import('../features/directory/components/person-view-page').then((module) => ({
    default: module.PersonViewPage,
  })),
);
const SubjectViewPage = lazy(() =>
  import('../features/directory/components/subject-view-page').then((module) => ({
    default: module.SubjectViewPage,
  })),
);
const SubjectsListPage = lazy(() =>
  import('../features/directory/components/subjects-list-page').then((module) => ({
    default: module.SubjectsListPage,
  })),
);
const WelcomePage = lazy(() =>
  import('../features/directory/components/welcome-page').then((module) => ({ default: module.WelcomePage })),
);
const CurrentEventPage = lazy(() =>
  import('../features/events/components/current-event-page').then((module) => ({
    default: module.CurrentEventPage,
  })),
);
const EventViewPage = lazy(() =>
  import('../features/events/components/event-view-page').then((module) => ({
    default: module.EventViewPage,
  })),
);
const EventsListPage = lazy(() =>
  import('../features/events/components/events-list-page').then((module) => ({
    default: module.EventsListPage,
  })),
);
const MyBookingsPage = lazy(() =>
  import('../features/my-events/components/my-bookings-page').then((module) => ({
    default: module.MyBookingsPage,
  })),
);
const TeacherSchedulePage = lazy(() =>
  import('../features/my-events/components/teacher-schedule-page').then((module) => ({
    default: module.TeacherSchedulePage,
  })),
);
const DoorPage = lazy(() =>
  import('../features/tickets/components/door-page').then((module) => ({ default: module.DoorPage })),
);
const TicketLinkPage = lazy(() =>
  import('../features/tickets/components/ticket-link-page').then((module) => ({
    default: module.TicketLinkPage,
  })),
);
const SchoolPage = lazy(() =>
  import('../features/school/components/school-page').then((module) => ({ default: module.SchoolPage })),
);

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
  profile: () => <ProfilePage />,
  settings: () => <SettingsPage />,
  'dev-mailbox': () => <DevMailboxPage />,
  booking: () => <BookingPage />,
  'ticket-link': () => <TicketLinkPage />,
  placeholder: (route) => <PlaceholderPage title={route.title} />,
};

const LAYOUTS: Record<LayoutId, ComponentType> = {
  auth: AuthLayout,
  main: MainLayout,
  booking: BookingLayout,
  plain: PlainLayout,
};

function layoutRoute(layout: LayoutId, extra: RouteObject[] = []): RouteObject {
  const Layout = LAYOUTS[layout];
  return {
    element: <Layout />,
    children: [
      ...ROUTES.filter((route) => route.layout === layout).map(
        (route): RouteObject => ({
          path: route.path,
          element: <Suspense fallback={<PageSkeleton />}>{SCREENS[route.screen](route)}</Suspense>,
        }),
      ),
      ...extra,
    ],
  };
}

export const appRoutes: RouteObject[] = [
  {
    element: <RootGuard />,
    errorElement: <RouteError />,
    children: [
      layoutRoute('auth'),
      layoutRoute('main', [{ path: '*', element: <NotFoundPage /> }]),
      layoutRoute('booking'),
      layoutRoute('plain'),
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(appRoutes);
}
