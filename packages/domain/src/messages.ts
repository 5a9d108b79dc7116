// Every user-facing text the spec fixes, word for word (spec §2, §5, §8). "{product}" is the app name.

export const VALIDATION = {
  required: 'Required.',
  notText: 'Must be text.',
  idInvalid: 'Not a valid id.',
  invalidEmail: 'Invalid email format',
  passwordMin: 'Min 8 characters',
  passwordMax: 'Max 128 characters',
  schoolNameMin: 'Min 3 characters',
  personNameMin: 'Min 2 characters',
  nameMax: 'Max 100 characters',
  emailInUse: 'Email already in use',
  emailCheckFailed: 'Error checking email',
  passwordsDiffer: 'Passwords do not match',
  eventNameRequired: 'Name is required',
  eventNameMax: 'Name must be less than 60 characters',
  eventTypeRequired: 'Event type is required',
  /** Not in the spec: a password from the lists of the commonest leaked passwords (decision 015). */
  passwordBreached:
    'This password is one of the most common leaked passwords and easy to guess. Please choose another.',
  totpFormat: 'Enter the 6-digit code from your authenticator app.',
} as const;

export const AUTH_TEXT = {
  registerNote:
    'Registration is for the school admin only. Teachers, parents and students are added through school invitations.',
  loginNote: 'New school? Register to become the School Admin.',
  registerSuccess: 'Please check your email to confirm your registration.',
  emailVerified: 'Email verified.',
  schoolVerified: (product: string) => `School account verified successfully! Welcome to ${product}.`,
  invitationSentTitle: 'Invitation Sent',
  resendInvitationHelp:
    'Invited by your school but never accepted, or the link has expired? Enter your email and we will send the invitation again.',
} as const;

export const AUTH_ERRORS = {
  loginFailed: 'Login failed. Please try again.',
  registrationFailed:
    'Registration failed. An administrator has been notified of the issue. Please try again later or contact support.',
  verifyEmailNoToken: 'The token missing. Please signup again or send an email to support.',
  verifyEmailFailed: 'Error verifying email',
  verifySchoolNoToken: 'Verification token is missing. Please check your email link or contact support.',
  verifySchoolFailed:
    'There was an error verifying your school account. Please try again or contact support.',
  verifySchoolSnackbar: 'Verification failed',
  resendVerificationFailed: 'Failed to send verification email. Please try again.',
  resendVerificationSnackbar: 'Resend failed',
  resetFailed: 'Password reset failed. Please try again.',
  resendInvitationFailed: 'Failed to resend invitation. Please try again.',
  missingRole: 'Some user details missing. Hit the refresh button.',
} as const;

/** Server answers: one text each, so the API tests and the screens agree. */
export const SERVER_TEXT = {
  invalidCredentials: 'Incorrect email or password.',
  schoolNotVerified: 'Please verify your school account first. Check your email for the verification link.',
  accountInactive: 'Your account is inactive. Please contact your school.',
  invitationNotAccepted:
    'Please accept your invitation first. Use "Resend invitation" if the link has expired.',
  signupDone: 'Registration successful. Please check your email to confirm your registration.',
  emailTaken: 'Email already in use',
  tokenInvalid: 'This link is invalid or has expired. Please request a new one.',
  tokenMissing: 'Token is required.',
  schoolVerified: (product: string) => `School account verified successfully! Welcome to ${product}.`,
  schoolAlreadyVerified: 'This school account is already verified. Please log in.',
  verificationResent: 'If that email belongs to a school awaiting verification, we have sent a new link.',
  resetRequested: 'If an account exists for that email, we have sent a link to reset the password.',
  passwordReset: 'Your password has been reset. Please log in with your new password.',
  invitationResent: 'If an invitation is waiting for that email, we have sent it again.',
  invitationValid: 'Invitation found. Set a password to finish joining.',
  invitationAccepted: 'Invitation accepted. Log in with your existing password.',
  invitationUsed: 'This invitation has already been accepted. Log in with your password.',
  passwordSet: 'Your password is set. Welcome!',
  loggedOut: 'Logged out.',
  pageSessionKept: 'This browser will open your home page sooner.',
  unauthenticated: 'Please log in.',
  forbidden: 'You do not have permission to do that.',
  notFound: 'Not found.',
  rateLimited: 'Too many attempts. Please wait a moment and try again.',
  botCheckFailed: 'The bot check failed. Please try again.',
  botCheckRequired: 'Many sign-ins have failed from your network. Please complete the bot check to continue.',
  invalidInput: 'Please correct the highlighted fields.',
  malformedJson: 'The request body is not valid JSON.',
  bodyTooLarge: 'The request is too large.',
  unsupportedMediaType: 'Unsupported content type. Send JSON.',
  unavailable: 'The service is busy. Please try again.',
  serverError: 'Something went wrong on our side. Please try again.',
  conflict: 'This was changed by someone else at the same time. Please reload and try again.',
  invalidText: 'Contains a character that is not allowed.',
  numberTooLarge: 'Too large.',
  otherSchoolEmail: 'This email is already registered with another school.',
  // Two-factor sign-in and sessions (decision 015); the spec has no texts for them.
  secondFactorNeeded: 'Enter the 6-digit code from your authenticator app.',
  secondFactorWrong: 'That code is not right, or it has already been used. Please try again.',
  challengeExpired: 'This sign-in has expired. Please log in again.',
  signedInWithRecoveryCode: (left: number) =>
    `Logged in with a recovery code. ${left === 1 ? '1 recovery code is' : `${left} recovery codes are`} left.`,
  twoFactorAlreadyOn: 'Two-factor sign-in is already on.',
  twoFactorNotStarted: 'No set-up is waiting: start again.',
  twoFactorNotOn: 'Two-factor sign-in is not on.',
  twoFactorOn: 'Two-factor sign-in is on. Keep your recovery codes somewhere safe.',
  twoFactorOff: 'Two-factor sign-in is off.',
  recoveryCodesRenewed: 'New recovery codes are ready. The old ones no longer work.',
  codeOrPassword: 'Enter a current code from your authenticator app, or your password.',
  wrongPassword: 'Current password is incorrect.',
  sessionEnded: 'The session has ended.',
  otherSessionsEnded: (count: number) =>
    count === 1 ? '1 other session has ended.' : `${count} other sessions have ended.`,
} as const;

export const UI_TEXT = {
  version: 'Version 1.0.5',
  close: 'Close',
  goToLogin: 'Go to login',
  backToLogin: 'Back to login',
  needToRegister: 'Need to register?',
} as const;

/** Replaces "{product}" in a spec text. */
export function withProduct(text: string, product: string): string {
  return text.replaceAll('{product}', product);
}

/** An event with recipients, and personal booking links (issue 11); the spec has no texts for them. */
export const ACCESS_TEXT = {
  notOpenToYou:
    'This event is open only to the families the school has invited to it. Please contact the school if you should be able to book.',
  notOpenForChild: 'This event is not open to that child.',
  linksRevoked: (count: number) =>
    count === 1 ? '1 personal booking link revoked.' : `${count} personal booking links revoked.`,
} as const;
