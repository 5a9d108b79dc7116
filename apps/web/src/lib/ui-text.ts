// Screen texts of the web app that the shared messages (packages/domain/src/messages.ts) do not hold:
// field labels, button and menu labels and page titles. Texts the spec fixes are kept word for word.

export const LABELS = {
  email: 'Email',
  password: 'Password',
  newPassword: 'New password',
  confirmPassword: 'Confirm password',
  schoolName: 'School name',
  firstName: 'First name',
  lastName: 'Last name',
} as const;

export const BUTTONS = {
  logIn: 'Log In',
  register: 'Register',
  reset: 'Reset',
  goToLoginCapital: 'Go to Login',
  home: 'Home',
  sendResetLink: 'Send reset link',
  resendInvitation: 'Resend invitation',
  resendVerification: 'Resend verification email',
  setPassword: 'Set password',
  ok: 'OK',
  refresh: 'Refresh',
  back: 'Back',
} as const;

export const LINKS = {
  resetPassword: 'Reset password',
  register: 'Register',
  resendInvitation: 'Resend invitation',
  home: 'Home',
} as const;

export const NAV = {
  home: 'Home',
  events: 'Events',
  current: 'Current',
  teachers: 'Teachers',
  parents: 'Parents',
  students: 'Students',
  subjects: 'Subjects',
  welcome: 'Welcome',
  school: 'School',
  admins: 'Admins',
  billing: 'Billing',
  profile: 'My profile',
  settings: 'Settings',
  logout: 'Logout',
  account: 'Account',
  lightMode: 'Light mode',
  darkMode: 'Dark mode',
  userMenu: 'Open user menu',
  moreMenu: 'Open menu',
  accountMenu: 'Open account menu',
} as const;

export const PAGE_TITLES = {
  login: 'Log in to your school',
  register: 'Register your school',
  verifyEmail: 'Verify email',
  verifySchool: 'Verify school',
  requestReset: 'Reset your password',
  resetPassword: 'Choose a new password',
  resendInvitation: 'Resend invitation',
  setPassword: 'Set your password',
  acceptInvitation: 'Accept invitation',
  checkEmail: 'Check your email',
  passwordReset: 'Password reset',
  loggingOut: 'Logging out…',
  notFound: 'Page not found',
  devMailbox: 'Dev mailbox',
} as const;

export const SCREEN_TEXT = {
  welcome: (firstName: string) => `Welcome, ${firstName}`,
  inviteGreeting: (firstName: string) => `Hello ${firstName},`,
  inviteRole: (roleLabel: string, email: string) => `Joining as ${roleLabel} with ${email}.`,
  resendVerificationHelp: 'Enter the email you registered with and we will send a new verification link.',
  requestResetHelp: 'Enter your email and we will send you a link to choose a new password.',
  notFound: 'There is no page at this address.',
  checkingEmail: 'Checking email…',
  loadingInvitation: 'Loading your invitation…',
  verifying: 'Verifying…',
  devMailboxOff:
    'The dev mailbox is off on this server (an SMTP server is configured or this is production).',
  devMailboxEmpty: 'No mails yet.',
  devMailboxPick: 'Pick a mail to read it.',
  devMailboxHtml: 'HTML version',
  setPasswordFailed: 'Could not set the password. Please try again.',
  homeRefreshFailed: 'Could not load the home data.',
} as const;
