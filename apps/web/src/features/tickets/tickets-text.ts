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
  search: 'Name or email',
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
} as const;
