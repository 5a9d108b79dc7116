// Texts of the login's second step (decision 015); the spec has none.

export const SECOND_FACTOR_TEXT = {
  title: 'Two-factor sign-in',
  codeHelp: 'Open your authenticator app and enter the 6-digit code it shows for this account.',
  recoveryHelp:
    'Enter one of the recovery codes you saved when you turned on two-factor sign-in. Each works once.',
  code: '6-digit code',
  recoveryCode: 'Recovery code',
  useRecoveryCode: 'Use a recovery code',
  useApp: 'Use a code from your app',
  verify: 'Verify',
  startOver: 'Back to login',
  failed: 'Could not check the code. Please try again.',
  codeFormat: 'Enter the 6 digits from your app.',
  recoveryFormat: 'A recovery code has 12 letters and digits, like abcd-efgh-jkmn.',
} as const;
