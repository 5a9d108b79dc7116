import type { ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { TextField, type TextFieldProps } from './text-field';

type Props = Omit<TextFieldProps, 'name' | 'error' | 'helperText' | 'onChange' | 'onBlur'> & {
  registration: UseFormRegisterReturn;
  /** Validation text; shown instead of the helper text. */
  error?: string | undefined;
  helperText?: ReactNode;
};

/** A Material text field wired to react-hook-form's register(). The label is the accessible name. */
export function FormTextField({ registration, error, helperText, ...props }: Props) {
  const { ref, ...field } = registration;
  return (
    <TextField {...props} {...field} inputRef={ref} error={Boolean(error)} helperText={error ?? helperText} />
  );
}
