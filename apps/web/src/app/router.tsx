import type { ComponentType, ReactNode } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { ProfilePage } from '../features/account/components/profile-page';
import { SettingsPage } from '../features/account/components/settings-page';
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
import { BookingPage } from '../features/booking/components/booking-page';
import { DevMailboxPage } from '../features/dev-mailbox/components/dev-mailbox-page';
import { BulkAddPage } from '../features/directory/components/bulk-add-page';
import { PeopleListPage } from '../features/directory/components/people-list-page';
import { PersonViewPage } from '../features/directory/components/person-view-page';
import { SubjectViewPage } from '../features/directory/components/subject-view-page';
import { SubjectsListPage } from '../features/directory/components/subjects-list-page';
import { WelcomePage } from '../features/directory/components/welcome-page';
import { CurrentEventPage } from '../features/events/components/current-event-page';
import { EventViewPage } from '../features/events/components/event-view-page';
import { EventsListPage } from '../features/events/components/events-list-page';
import { HomePage } from '../features/home/components/home-page';
import { MyBookingsPage } from '../features/my-events/components/my-bookings-page';
import { TeacherSchedulePage } from '../features/my-events/components/teacher-schedule-page';
import { NotFoundPage } from '../features/placeholders/components/not-found-page';
import { PlaceholderPage } from '../features/placeholders/components/placeholder-page';
import { SchoolPage } from '../features/school/components/school-page';
import { AuthLayout } from './layouts/auth-layout';
import { BookingLayout } from './layouts/booking-layout';
import { MainLayout } from './layouts/main-layout';
import { PlainLayout } from './layouts/plain-layout';
import { RootGuard } from './root-guard';
import { RouteError } from './route-error';
import { type LayoutId, ROUTES, type RouteEntry, type ScreenId } from './route-table';

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
        (route): RouteObject => ({ path: route.path, element: SCREENS[route.screen](route) }),
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
