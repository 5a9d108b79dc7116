// Texts of the tickets screens that the spec does not fix (the fixed ones are TICKET_TEXT in
// @parley/domain/tickets).

export const TICKETS_UI = {
  print: 'Print',
  /** The pager between the attendee's ticket and their guests'. */
  ticketOf: (index: number, total: number) => `Ticket ${index} of ${total}`,
  previousTicket: 'Previous ticket',
  nextTicket: 'Next ticket',
  qrLabel: (name: string) => `QR code of the ticket for ${name}`,
  // Parent: the family has tickets for several people.
  chooseAttendee: 'Whose ticket?',
  // Result panel lines (spec §2 "Name, Email, Event and Scanned lines").
  name: 'Name',
  email: 'Email',
  event: 'Event',
  scanned: 'Scanned',
  validating: 'Checking ticket',
  cameraView: 'Camera view',
  // "Mobile Device Required"
  mobileRequiredBody:
    'Scanning tickets needs a phone or tablet with a camera. Open Parley on your phone or tablet, sign in, and tap "Scan Tickets" there.',
  ok: 'OK',
  // The door page
  door: 'Door',
  doorTitle: (eventName: string) => `Door: ${eventName}`,
  doorHelp: 'The live count at the door, the latest admissions and a manual check-in by name or email.',
  openDoor: 'Open the door page',
  expected: 'Expected',
  admitted: 'Admitted',
  toCome: 'Still to come',
  guestsLine: (admitted: number, expected: number) => `Guests: ${admitted} of ${expected} admitted`,
  counts: 'Counts',
  recent: 'Latest admissions',
  noneYet: 'Nobody has been admitted yet.',
  duplicates: 'Admitted twice',
  duplicatesHelp: 'A door without a network admitted these tickets after they had already been used.',
  duplicateLine: (when: string, by: string | null, first: string | null) =>
    [`Again ${when}${by ? ` by ${by}` : ''}`, first ? `first ${first}` : null].filter(Boolean).join(' · '),
  checkIn: 'Manual check-in',
  search: 'Name',
  searchHint: (min: number) => `Type at least ${min} characters.`,
  noMatches: 'No ticket matches.',
  matches: 'Matching tickets',
  admit: 'Admit',
  undo: 'Undo',
  undoTitle: (name: string) => `Undo the scan of ${name}?`,
  undoText: 'The ticket can then be scanned again. The undo is recorded.',
  undoFailed: 'The scan could not be undone. Please try again.',
  doorFailed: 'The door could not be loaded.',
  notAdmitted: 'Not admitted',
  backToEvent: 'Back to the event',
  badEvent: 'This event does not exist.',
  home: 'Home',
  // An offline door (decision 013)
  offline: (waiting: number) =>
    waiting === 0 ? 'Offline' : `Offline — ${waiting} ${waiting === 1 ? 'scan' : 'scans'} waiting`,
  waiting: (waiting: number) => `${waiting} offline ${waiting === 1 ? 'scan' : 'scans'} waiting to be sent`,
  sending: (waiting: number) => `Sending ${waiting} offline ${waiting === 1 ? 'scan' : 'scans'}…`,
  listReady: (count: number, time: string) =>
    `Ready offline: ${count} ${count === 1 ? 'ticket' : 'tickets'} on this phone (list taken ${time})`,
  listTaking: 'Taking the ticket list for offline use…',
  offlineChecking: (time: string) =>
    `No network: tickets are checked on this phone against the list taken at ${time}, and the scans are sent when the network returns.`,
  staleList: (time: string) =>
    `The ticket list on this phone was taken at ${time}, more than 12 hours ago: it no longer admits anyone offline. Reconnect to check tickets.`,
  noListOffline: 'No ticket list on this phone: tickets cannot be checked until the network returns.',
  cannotCheckOffline: 'Cannot check offline',
  notOnList: 'This code is not on the ticket list of this event (checked offline).',
  admittedOffline: 'Admitted offline: the scan is sent when the network returns.',
  admittedHere: (time: string) => `Admitted by this door at ${time} (offline, not sent yet).`,
  scannedInList: 'The ticket list on this phone says it was admitted before the network dropped.',
  scannedOffline: (when: string) => `${when} (offline)`,
  synced: (sent: number, admitted: number) =>
    `${sent} offline ${sent === 1 ? 'scan' : 'scans'} sent: ${admitted} admitted.`,
  duplicateReport: (name: string, message: string) =>
    `${name}: another door admitted this ticket first. ${message}`,
  invalidReport: (name: string, message: string) => `${name}: not admitted. ${message}`,
  syncFailed: (message: string) =>
    `The offline scans could not be sent (${message}). They stay on this phone and are sent again later.`,
  syncFailedDefault: 'the server did not accept them',
  dismiss: 'Dismiss',
  // /t/{code}: the page a phone's own camera opens from a ticket's QR
  linkTitle: (app: string) => `${app} ticket`,
  linkIntro: (app: string) =>
    `This is a personal ticket for a school event run with ${app}. Show it at the door: the staff scan its QR code.`,
  linkQrLabel: 'QR code of this ticket',
  linkStaff: 'Door staff: log in to check this ticket and admit its holder.',
  linkLogin: 'Log in to check',
  linkCheck: 'Check at the door',
} as const;
