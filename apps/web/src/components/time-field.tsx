import { CLOCK_ERROR, CLOCK_HINT, normaliseClockTime, readClockTime } from './clock-time';
import { TextField, type TextFieldProps } from './text-field';

type Props = Omit<TextFieldProps, 'value' | 'onChange' | 'type' | 'error'> & {
  value: string;
  onChange: (value: string) => void;
};

/**
 * A time of day typed on the 24-hour clock ("16:30"), whatever the device's locale; tidied on leaving
 * ("1630" → "16:30"). A text that is no time is marked invalid, its message tied to the field.
 */
export function TimeField({ value, onChange, onBlur, helperText, ...props }: Props) {
  const invalid = value.trim() !== '' && readClockTime(value) === null;
  return (
    <TextField
      {...props}
      value={value}
      onChange={(change) => onChange(change.target.value)}
      onBlur={(event) => {
        onChange(normaliseClockTime(value));
        onBlur?.(event);
      }}
      error={invalid}
      helperText={invalid ? CLOCK_ERROR : (helperText ?? CLOCK_HINT)}
      placeholder="HH:MM"
      autoComplete="off"
      slotProps={{
        ...props.slotProps,
        htmlInput: { inputMode: 'numeric', maxLength: 5 },
        inputLabel: { shrink: true },
      }}
    />
  );
}
