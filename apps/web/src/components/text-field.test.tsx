import { createTheme, ThemeProvider } from '@mui/material/styles';
import MuiTextField from '@mui/material/TextField';
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { TextField, type TextFieldProps } from './text-field';

afterEach(cleanup);

// The app's defaults for MUI's TextField (app/theme.ts), which the lean field must honour too.
const theme = createTheme({
  components: { MuiTextField: { defaultProps: { fullWidth: true, margin: 'normal' } } },
});

const markup = (field: React.ReactNode) =>
  render(<ThemeProvider theme={theme}>{field}</ThemeProvider>).container.innerHTML;

const CASES: Array<[string, TextFieldProps]> = [
  ['label and helper text', { id: 'f', label: 'Email', helperText: 'We never share it', type: 'email' }],
  [
    'an error, required',
    { id: 'f', label: 'Password', helperText: 'Too short', error: true, required: true },
  ],
  ['multiline', { id: 'f', label: 'Message', multiline: true, minRows: 2, defaultValue: 'Hello' }],
  [
    'shrunk label, input props, placeholder',
    {
      id: 'f',
      label: 'Start',
      placeholder: 'HH:MM',
      autoComplete: 'off',
      slotProps: { inputLabel: { shrink: true }, htmlInput: { inputMode: 'numeric', maxLength: 5 } },
    },
  ],
  [
    'no label, disabled, not full width',
    { id: 'f', disabled: true, fullWidth: false, value: 'x', onChange: () => {} },
  ],
];

describe('TextField without select', () => {
  it.each(CASES)('renders what MUI’s TextField renders: %s', (_, props) => {
    const lean = markup(<TextField {...props} />);
    cleanup();
    expect(lean).toBe(markup(<MuiTextField {...(props as React.ComponentProps<typeof MuiTextField>)} />));
    expect(lean).toContain('MuiTextField-root');
  });
});
