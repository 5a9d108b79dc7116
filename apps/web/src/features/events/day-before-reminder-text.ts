// Texts of an event's day-before reminder switch (issue 40), kept with the event screens rather than in
// lib/ui-text.ts, which every page loads under a tight bundle budget (decision 019).

export const DAY_BEFORE_REMINDER_TEXT = {
  label: 'Day-before reminder',
  help: 'Families and teachers get a mail and a push the day before, at the school’s reminder time.',
} as const;
