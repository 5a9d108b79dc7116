import FormControl from '@mui/material/FormControl';
import FormHelperText, { type FormHelperTextProps } from '@mui/material/FormHelperText';
import type { InputBaseComponentProps } from '@mui/material/InputBase';
import InputLabel, { type InputLabelProps } from '@mui/material/InputLabel';
import OutlinedInput, { type OutlinedInputProps } from '@mui/material/OutlinedInput';
import { styled, useThemeProps } from '@mui/material/styles';
import type { TextFieldProps as MuiTextFieldProps } from '@mui/material/TextField';
import { forwardRef, useId } from 'react';

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

const TextFieldRoot = styled(FormControl, { name: 'MuiTextField', slot: 'Root' })({});

export const TextField = forwardRef<HTMLDivElement, TextFieldProps>(function TextField(inProps, ref) {
  const {
    autoComplete,
    autoFocus = false,
    className,
    color = 'primary',
    defaultValue,
    disabled = false,
    error = false,
    fullWidth = false,
    helperText,
    id: idOverride,
    inputRef,
    label,
    maxRows,
    minRows,
    multiline = false,
    name,
    onBlur,
    onChange,
    onFocus,
    placeholder,
    required = false,
    rows,
    slotProps = {},
    type,
    value,
    ...other
  } = useThemeProps({ props: inProps, name: 'MuiTextField' });
  const reactId = useId();
  const id = idOverride ?? reactId;
  const helperTextId = helperText && id ? `${id}-helper-text` : undefined;
  const inputLabelId = label && id ? `${id}-label` : undefined;
  const shrink = slotProps.inputLabel?.shrink;
  return (
    <TextFieldRoot
      {...other}
      ref={ref}
      className={className ? `MuiTextField-root ${className}` : 'MuiTextField-root'}
      disabled={disabled}
      error={error}
      fullWidth={fullWidth}
      required={required}
      color={color}
      variant="outlined"
    >
      {label != null && label !== '' && (
        <InputLabel htmlFor={id} id={inputLabelId} {...slotProps.inputLabel}>
          {label}
        </InputLabel>
      )}
      <OutlinedInput
        aria-describedby={helperTextId}
        autoComplete={autoComplete}
        autoFocus={autoFocus}
        defaultValue={defaultValue}
        fullWidth={fullWidth}
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
        label={label}
        {...(shrink !== undefined && { notched: shrink })}
        {...slotProps.input}
      />
      {helperText && (
        <FormHelperText id={helperTextId} {...slotProps.formHelperText}>
          {helperText}
        </FormHelperText>
      )}
    </TextFieldRoot>
  );
});
