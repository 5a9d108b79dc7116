import FormControl, { type FormControlProps } from '@mui/material/FormControl';
import FormHelperText, { type FormHelperTextProps } from '@mui/material/FormHelperText';
import InputLabel, { type InputLabelProps } from '@mui/material/InputLabel';
import { styled } from '@mui/material/styles';
import { forwardRef, type ReactNode, useId } from 'react';

// The frame MUI's TextField draws around its control, for our fields that leave MUI's TextField out
// (TextField without select, NativeSelectField; decision 019): their markup and classes stay MUI's.

const TextFieldRoot = styled(FormControl, { name: 'MuiTextField', slot: 'Root' })({});

type FrameProps = Omit<FormControlProps, 'children' | 'variant'> & {
  helperText?: ReactNode;
  label?: ReactNode;
  slotProps?: { inputLabel?: Partial<InputLabelProps>; formHelperText?: Partial<FormHelperTextProps> };
  /** The control, given the ids that tie it to its label and helper text, and whether to notch its outline. */
  children: (field: {
    id: string;
    helperTextId: string | undefined;
    notched: { notched?: boolean };
  }) => ReactNode;
};

/**
 * An outlined field as MUI's TextField draws it around its control: the root (the theme's MuiTextField
 * styles), the label, the helper text, and the ids that tie them to the control. TextField and
 * NativeSelectField put their own control inside.
 */
export const FieldFrame = forwardRef<HTMLDivElement, FrameProps>(function FieldFrame(
  { children, className, helperText, id: idOverride, label, slotProps = {}, ...root },
  ref,
) {
  const reactId = useId();
  const id = idOverride ?? reactId;
  const helperTextId = helperText && id ? `${id}-helper-text` : undefined;
  const inputLabelId = label && id ? `${id}-label` : undefined;
  const shrink = slotProps.inputLabel?.shrink;
  return (
    <TextFieldRoot
      {...root}
      ref={ref}
      className={className ? `MuiTextField-root ${className}` : 'MuiTextField-root'}
      variant="outlined"
    >
      {label != null && label !== '' && (
        <InputLabel htmlFor={id} id={inputLabelId} {...slotProps.inputLabel}>
          {label}
        </InputLabel>
      )}
      {children({ id, helperTextId, notched: shrink !== undefined ? { notched: shrink } : {} })}
      {helperText && (
        <FormHelperText id={helperTextId} {...slotProps.formHelperText}>
          {helperText}
        </FormHelperText>
      )}
    </TextFieldRoot>
  );
});
