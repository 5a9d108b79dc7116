import { CLOCK_HINT } from '../../components/clock-time';

// Texts of the school's reminder time (issue 40), kept with this screen rather than in lib/ui-text.ts,
// which every page loads under a tight bundle budget (decision 019).

export const REMINDER_TIME_TEXT = {
  label: 'Day-before reminders at',
  help: `On the school’s clock (${CLOCK_HINT}). Families and teachers get one mail and one push the day before their appointments.`,
} as const;
