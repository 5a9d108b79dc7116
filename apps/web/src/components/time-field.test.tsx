import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { CLOCK_ERROR } from './clock-time';
import { TimeField } from './time-field';

afterEach(cleanup);

function Field({ initial = '' }: { initial?: string }) {
  const [value, setValue] = useState(initial);
  return <TimeField label="Earliest" value={value} onChange={setValue} />;
}

describe('TimeField', () => {
  it('is a text field on the 24-hour clock, not the browser time picker (which follows the locale)', () => {
    render(<Field />);
    const input = screen.getByLabelText('Earliest') as HTMLInputElement;
    expect(input.type).toBe('text');
    expect(input.placeholder).toBe('HH:MM');
    expect(input.inputMode).toBe('numeric');
  });

  it('tidies what was typed into HH:MM when the field is left', () => {
    render(<Field />);
    const input = screen.getByLabelText('Earliest') as HTMLInputElement;
    fireEvent.change(input, { target: { value: '1630' } });
    fireEvent.blur(input);
    expect(input.value).toBe('16:30');
    expect(input.getAttribute('aria-invalid')).toBe('false');
  });

  it('marks a text that is no time invalid, with the message tied to the field', () => {
    render(<Field />);
    const input = screen.getByLabelText('Earliest') as HTMLInputElement;
    fireEvent.change(input, { target: { value: '4:30 PM' } });
    fireEvent.blur(input);
    expect(input.value).toBe('4:30 PM');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const described = document.getElementById(input.getAttribute('aria-describedby') ?? '');
    expect(described?.textContent).toBe(CLOCK_ERROR);
  });
});
