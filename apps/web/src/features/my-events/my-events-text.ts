// Texts of the teacher's schedule and the family's bookings pages. "No bookings found." is the spec's
// (MY_EVENTS_TEXT.noBookings in @parley/domain/booking).

export const SCHEDULE_TEXT = {
  print: 'Print',
  live: 'Updating live as bookings arrive',
  free: 'Free',
  videoLink: 'Video link',
  joinCall: 'Join the call',
  booked: (count: number) => `${count} ${count === 1 ? 'appointment' : 'appointments'} booked`,
  columns: { time: 'Time', family: 'Family', child: 'Child', subject: 'Subject', location: 'Location' },
  noSlots: 'You have no times at this event.',
  loadFailed: 'Could not load your schedule.',
} as const;

export const MY_BOOKINGS_TEXT = {
  heading: 'My bookings',
  change: 'Change',
  cancel: 'Cancel',
  bookNow: 'Book now',
  joinVideo: 'Join video call',
  /** The appointment's call in Parley (an event held by video; issue 41). */
  joinCall: 'Join the video call',
  cancelTitle: 'Cancel this booking?',
  cancelText: (what: string) => `${what} will be cancelled and the time freed for others.`,
  cancelConfirm: 'Cancel booking',
  keepBooking: 'Keep booking',
  cancelFailed: 'Could not cancel the booking. Please try again.',
  loadFailed: 'Could not load your bookings.',
  facts: {
    teacher: 'Teacher',
    child: 'Child',
    subject: 'Subject',
    location: 'Location',
    guests: 'Guests',
    gown: 'Gown',
  },
} as const;

export const DETAILS_TEXT = {
  noEvent: 'No event chosen. Open an event from Home.',
  home: 'Home',
} as const;

/** What the details pages say when no answer came at all (the spec has no text for it). */
export const NO_ANSWER_TEXT =
  'You are offline, or the server could not be reached. Check your connection and try again.';
