// Texts of the home "My Events" section that the spec does not fix (the fixed ones are MY_EVENTS_TEXT in
// @parley/domain/booking; the calendar messages are spec §8 "Calendar").

export const MY_EVENTS_UI = {
  refresh: 'Refresh My Events',
  refreshTooltip: 'Refresh',
  loading: 'Loading your events',
  addedToCalendar: 'Added to Calendar',
  listLabel: (roleLabel: string) => `${roleLabel} events`,
  calendarTitle: 'Add to Calendar',
  calendarConfirm: 'Add',
  calendarCancel: 'Cancel',
  calendarDate: 'Date',
  calendarNoDate: 'Date to be announced',
  /** In a browser: the .ics file was downloaded; opening it adds the event. */
  calendarDownloaded: 'Calendar file downloaded. Open it to add the event to your calendar.',
  /** On a device whose calendar already holds the event. */
  calendarAlreadyThere: 'This event is already in your calendar.',
} as const;
