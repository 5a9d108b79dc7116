import type { InputLabelProps } from '@mui/material/InputLabel';
import NativeSelect from '@mui/material/NativeSelect';
import OutlinedInput from '@mui/material/OutlinedInput';
import { useThemeProps } from '@mui/material/styles';
import type { TextFieldProps as MuiTextFieldProps } from '@mui/material/TextField';
import { type ChangeEvent, forwardRef, type ReactNode } from 'react';
import { FieldFrame } from './field-frame';

// MUI's `<TextField select slotProps={{ select: { native: true } }}>` as its own component: MUI's TextField
// imports Select, and with it the menu select's Menu, Popover, MenuList and the filled and standard
// inputs (about 10 KB gzipped) even for a native <select> (decision 019). This is the same outlined field
// around MUI's NativeSelect, rendering the same markup and classes but one (native-select-field.test.tsx
// compares them: NativeSelect adds its own root class), and taking the theme's MuiTextField defaults.

export type NativeSelectFieldProps = Pick<
  MuiTextFieldProps,
  | 'className'
  | 'color'
  | 'disabled'
  | 'error'
  | 'fullWidth'
  | 'helperText'
  | 'id'
  | 'label'
  | 'margin'
  | 'name'
  | 'required'
  | 'size'
  | 'sx'
> & {
  value?: string | number;
  onChange?: (event: ChangeEvent<HTMLSelectElement>) => void;
  children: ReactNode;
  slotProps?: { inputLabel?: Partial<InputLabelProps> };
};

export const NativeSelectField = forwardRef<HTMLDivElement, NativeSelectFieldProps>(
  function NativeSelectField(inProps, ref) {
    // What the control takes; the rest (label, helper text, id, state, layout) is the frame's.
    const { children, name, onChange, value, ...frame } = useThemeProps({
      props: inProps,
      name: 'MuiTextField',
    });
    return (
      <FieldFrame {...frame} ref={ref}>
        {({ id, helperTextId, notched }) => (
          <NativeSelect
            aria-describedby={helperTextId}
            value={value}
            className="MuiSelect-root"
            inputProps={{ id, error: frame.error }}
            input={
              <OutlinedInput
                aria-describedby={helperTextId}
                fullWidth={frame.fullWidth}
                name={name}
                value={value}
                id={id}
                // The event comes from the <select>: OutlinedInput's type knows only text boxes.
                onChange={onChange as unknown as OutlinedInputChange}
                label={frame.label}
                {...notched}
              />
            }
          >
            {children}
          </NativeSelect>
        )}
      </FieldFrame>
    );
  },
);

type OutlinedInputChange = (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
