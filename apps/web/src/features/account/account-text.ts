// Texts of the profile's security cards (decision 015); the spec has none.

export const SESSIONS_TEXT = {
  title: 'Signed-in sessions',
  help: 'Where you are signed in. End a session you do not recognise; that device is signed out at once.',
  thisDevice: 'This device',
  signedIn: (when: string, ip: string | null) => `Signed in ${when}${ip ? ` from ${ip}` : ''}`,
  lastActive: (when: string) => `Last active ${when}`,
  end: 'End',
  endLabel: (device: string) => `End the session on ${device}`,
  endOthers: 'End all other sessions',
  endOthersTitle: 'End all other sessions?',
  endOthersBody: 'Every other device and browser signed in to your account is signed out. This one stays.',
  onlyThis: 'You are signed in here only.',
  loadFailed: 'Could not load your sessions.',
  endFailed: 'Could not end the session.',
} as const;

export const TWO_FACTOR_TEXT = {
  title: 'Two-factor sign-in',
  on: 'On',
  off: 'Off',
  offHelp:
    'Ask for a 6-digit code from an authenticator app (such as Google Authenticator, Microsoft Authenticator or 1Password) each time you log in, as well as your password.',
  onHelp: (since: string, left: number) =>
    `On since ${since}. ${left === 1 ? '1 recovery code' : `${left} recovery codes`} left.`,
  fewLeft: 'Few recovery codes are left: make new ones.',
  turnOn: 'Turn on',
  turnOff: 'Turn off',
  newCodes: 'New recovery codes',
  loadFailed: 'Could not load the two-factor settings.',
  // Enrolment
  setUpTitle: 'Set up two-factor sign-in',
  scan: '1. Scan this QR code with your authenticator app.',
  manual: 'Cannot scan it? Enter this key in the app instead:',
  qrLabel: 'QR code for your authenticator app',
  secretLabel: 'Setup key',
  enterCode: '2. Enter the 6-digit code the app shows.',
  code: '6-digit code',
  confirm: 'Turn on',
  cancel: 'Cancel',
  starting: 'Preparing…',
  startFailed: 'Could not start the set-up.',
  confirmFailed: 'Could not turn on two-factor sign-in.',
  // Recovery codes
  codesTitle: 'Your recovery codes',
  codesHelp:
    'If you lose your phone, each of these codes lets you log in once. Keep them somewhere safe, such as a password manager: they are shown only now.',
  codesLabel: 'Recovery codes',
  copy: 'Copy codes',
  copied: 'Recovery codes copied.',
  saved: 'I have saved them',
  // Proof (turn off, new codes)
  proofTitleOff: 'Turn off two-factor sign-in?',
  proofTitleCodes: 'Make new recovery codes?',
  proofHelpOff:
    'Logging in will ask for your password only. Enter a current code from your app, or your password.',
  proofHelpCodes:
    'Your old recovery codes stop working. Enter a current code from your app, or your password.',
  proofLabel: 'Code from your app, or your password',
  proofFailed: 'That did not work. Please try again.',
} as const;
