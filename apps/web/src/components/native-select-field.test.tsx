import { createTheme, ThemeProvider } from '@mui/material/styles';
import MuiTextField from '@mui/material/TextField';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { NativeSelectField, type NativeSelectFieldProps } from './native-select-field';

afterEach(cleanup);

// The app's defaults for MUI's TextField (app/theme.ts), which the lean field must honour too.
const theme = createTheme({
  components: { MuiTextField: { defaultProps: { fullWidth: true, margin: 'normal' } } },
});

const markup = (field: React.ReactNode) =>
  render(<ThemeProvider theme={theme}>{field}</ThemeProvider>).container.innerHTML;

const OPTIONS = [
  <option key="" value="">
    Any
  </option>,
  <option key="a" value="a">
    Mina Hall
  </option>,
];

const CASES: Array<[string, Omit<NativeSelectFieldProps, 'children'>]> = [
  [
    'small, shrunk label, a width (the booking page’s)',
    {
      id: 'f',
      size: 'small',
      label: 'Add a teacher',
      value: '',
      onChange: () => {},
      slotProps: { inputLabel: { shrink: true } },
      sx: { mt: 1, minWidth: 240 },
    },
  ],
  [
    'disabled, a value, not full width',
    { id: 'f', label: 'Guests', value: 'a', disabled: true, fullWidth: false, onChange: () => {} },
  ],
  [
    'an error with helper text, required',
    {
      id: 'f',
      label: 'Gown',
      value: '',
      error: true,
      required: true,
      helperText: 'Choose one',
      onChange: () => {},
    },
  ],
];

describe('NativeSelectField', () => {
  it.each(CASES)('renders what MUI’s TextField select native renders: %s', (_, props) => {
    const lean = markup(<NativeSelectField {...props}>{OPTIONS}</NativeSelectField>);
    cleanup();
    const mui = markup(
      <MuiTextField
        select
        {...(props as React.ComponentProps<typeof MuiTextField>)}
        slotProps={{ ...props.slotProps, select: { native: true } }}
      >
        {OPTIONS}
      </MuiTextField>,
    );
    // MUI's NativeSelect names its root too; nothing styles that class.
    expect(lean.replace(' MuiNativeSelect-root', '')).toBe(mui);
    expect(lean).toContain('<select');
  });

  it('reports the chosen option', () => {
    function Field() {
      const [value, setValue] = useState('');
      return (
        <>
          <NativeSelectField
            id="t"
            label="Teacher"
            value={value}
            onChange={(event) => setValue(event.target.value)}
          >
            {OPTIONS}
          </NativeSelectField>
          <p>chosen {value}</p>
        </>
      );
    }
    render(<Field />);
    fireEvent.change(screen.getByLabelText('Teacher'), { target: { value: 'a' } });
    expect(screen.getByText('chosen a')).toBeTruthy();
  });
});
