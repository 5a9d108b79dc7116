// One clock style everywhere (decision 020): times are shown and typed on the 24-hour clock, "16:30",
// as the grids, proposals, mails and calendar files show them. A browser's own time input follows the
// device's locale instead ("04:30 PM" on an American one), so the pickers are text fields read here.

/** The hint under a time field. */
export const CLOCK_HINT = 'HH:MM, 24-hour';
export const CLOCK_ERROR = 'Use the 24-hour clock, like 16:30';

/** The props of a text field (MUI's TextField) that takes a time typed on the 24-hour clock. */
export const CLOCK_INPUT = {
  placeholder: 'HH:MM',
  autoComplete: 'off',
  slotProps: {
    htmlInput: { inputMode: 'numeric', maxLength: 5, title: CLOCK_HINT },
    inputLabel: { shrink: true },
  },
} as const;

/**
 * What a person typed as a 24-hour time, written HH:MM: "16:30", "16.30", "1630", "9:05", "905", "9";
 * null when it is not a time of day (25:00, 16:75, "4pm").
 */
export function readClockTime(text: string): string | null {
  const value = text.trim();
  const match = /^(\d{1,2})(?:[:.h]?(\d{2}))?$/.exec(value) ?? /^(\d)(\d{2})$/.exec(value);
  if (!match) return null;
  const hours = Number(match[1]);
  const minutes = Number(match[2] ?? 0);
  if (hours > 23 || minutes > 59) return null;
  return `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
}

/** The value to keep for a typed text: a time as HH:MM, the text itself when it is not one (to show). */
export function normaliseClockTime(text: string): string {
  return readClockTime(text) ?? text.trim();
}

/**
 * Registration options (react-hook-form) of a time field: kept as HH:MM, and shown so once the person
 * leaves the field ("1630" → "16:30"), since the field's text is what they check before saving.
 */
export const CLOCK_REGISTRATION = {
  setValueAs: normaliseClockTime,
  onBlur: (blur: { target: { value: string } }) => {
    blur.target.value = normaliseClockTime(blur.target.value);
  },
};
