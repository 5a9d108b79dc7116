// The call page's words (issue 41). The server's refusals (too early, ended, not found) come as its
// messages, in the school's zone.

export const CALL_UI = {
  title: 'Video appointment',
  join: 'Join the call',
  leave: 'Leave',
  mute: 'Mute',
  unmute: 'Unmute',
  cameraOff: 'Camera off',
  cameraOn: 'Camera on',
  you: 'You',
  privacyTitle: 'Before your first video appointment',
  privacy: [
    'The call runs directly between your device and the other people in it. Parley passes on only what the ' +
      'devices need to find each other: it never receives, records or stores your picture or your voice.',
    'Your browser will ask to use your camera and microphone. You can mute yourself or turn your camera off ' +
      'at any time.',
  ],
  privacyShort: 'The call runs between the devices in it: Parley never receives or records it.',
  waitingFor: (name: string) => `Waiting for ${name} to join…`,
  teacherBusy: (name: string, until: string) =>
    `${name} is finishing the appointment before yours, until ${until}. Please wait here.`,
  timeLeft: (clock: string) => `${clock} left`,
  startsIn: (clock: string) => `Starts in ${clock}`,
  ending: 'This call ends in 1 minute.',
  ended: 'This appointment has ended.',
  left: 'You left the call.',
  rejoin: 'Join again',
  audioOnly: 'No camera could be used: you are in the call with sound only.',
  noMedia:
    'Your camera and microphone could not be used. Allow them for this site in your browser’s settings; ' +
    'meanwhile you can see and hear the others.',
  connectionLost: 'The connection was lost. Reconnecting…',
  next: (family: string, time: string) => `Next: ${family} at ${time}`,
  nextWaiting: 'waiting',
  nextNotYet: 'not here yet',
  goToNext: 'Go to the next call',
  noNext: 'This is your last appointment of the evening.',
  signIn: 'Log in to join this call.',
  loadFailed: 'The call could not be loaded.',
  schoolAdmin: 'School admin',
  inviteAdmin: 'Invite an admin to help',
  inviteFailed: 'The admin could not be invited.',
  chooseCamera: 'Choose camera',
  chooseMicrophone: 'Choose microphone',
  deviceNumber: (kind: 'audio' | 'video', n: number) => `${kind === 'video' ? 'Camera' : 'Microphone'} ${n}`,
  deviceFailed: (label: string) => `${label} could not be used. The call goes on with the one before.`,
} as const;
