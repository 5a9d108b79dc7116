import type { FormHelperTextProps } from '@mui/material/FormHelperText';
import type { InputBaseComponentProps } from '@mui/material/InputBase';
import type { InputLabelProps } from '@mui/material/InputLabel';
import OutlinedInput, { type OutlinedInputProps } from '@mui/material/OutlinedInput';
import { useThemeProps } from '@mui/material/styles';
import type { TextFieldProps as MuiTextFieldProps } from '@mui/material/TextField';
import { forwardRef } from 'react';
import { FieldFrame } from './field-frame';

// MUI's TextField imports Select (with Menu, Popover, Modal and the other two input variants) for its
// `select` mode, about 20 KB gzipped on every page with a form (decision 019). This is the same field,
// outlined and without `select`, rendering the same markup and classes (text-field.test.tsx compares
// them), so the theme's MuiTextField defaults and overrides still apply. A select uses MUI's TextField.

type SlotProps = {
  input?: Partial<OutlinedInputProps>;
  inputLabel?: Partial<InputLabelProps>;
  htmlInput?: InputBaseComponentProps;
  formHelperText?: Partial<FormHelperTextProps>;
};

export type TextFieldProps = Omit<
  MuiTextFieldProps,
  | 'select'
  | 'variant'
  | 'slots'
  | 'slotProps'
  | 'children'
  | 'SelectProps'
  | 'InputProps'
  | 'inputProps'
  | 'InputLabelProps'
  | 'FormHelperTextProps'
> & { slotProps?: SlotProps };

export const TextField = forwardRef<HTMLDivElement, TextFieldProps>(function TextField(inProps, ref) {
  // What the control takes; the rest (label, helper text, id, state, layout) is the frame's.
  const {
    autoComplete,
    autoFocus = false,
    defaultValue,
    inputRef,
    maxRows,
    minRows,
    multiline = false,
    name,
    onBlur,
    onChange,
    onFocus,
    placeholder,
    rows,
    type,
    value,
    ...frame
  } = useThemeProps({ props: inProps, name: 'MuiTextField' });
  const { slotProps = {} } = frame;
  return (
    <FieldFrame {...frame} ref={ref}>
      {({ id, helperTextId, notched }) => (
        <OutlinedInput
          aria-describedby={helperTextId}
          autoComplete={autoComplete}
          autoFocus={autoFocus}
          defaultValue={defaultValue}
          fullWidth={frame.fullWidth}
          multiline={multiline}
          name={name}
          rows={rows}
          maxRows={maxRows}
          minRows={minRows}
          type={type}
          value={value}
          id={id}
          inputRef={inputRef}
          onBlur={onBlur}
          onChange={onChange}
          onFocus={onFocus}
          placeholder={placeholder}
          inputProps={slotProps.htmlInput}
          label={frame.label}
          {...notched}
          {...slotProps.input}
        />
      )}
    </FieldFrame>
  );
});
