// React's behaviours on Preact (lib/preact-parity.ts, decision 019). The first three describe blocks fail
// without that module (the web tests load it before each file, as main.tsx does); the last holds what
// preact/compat itself provides, so an upgrade that drops any of it fails here rather than in a screen.
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useEffect, useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TextField } from '../components/text-field';

afterEach(cleanup);

describe('autoFocus focuses on mount, as React does', () => {
  it('focuses a new input without writing the attribute', () => {
    // biome-ignore lint/a11y/noAutofocus: the behaviour under test
    render(<input aria-label="Code" autoFocus />);
    const input = screen.getByLabelText('Code');
    expect(document.activeElement).toBe(input);
    expect(input.hasAttribute('autofocus')).toBe(false);
  });

  it('focuses the first field of a dialog that opens (the focus trap leaves it there)', async () => {
    function Page() {
      const [open, setOpen] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            New event
          </button>
          <Dialog open={open} aria-label="New event">
            <DialogContent>
              <TextField label="Name" autoFocus />
            </DialogContent>
          </Dialog>
        </>
      );
    }
    render(<Page />);
    const opener = screen.getByRole('button', { name: 'New event' });
    opener.focus();
    fireEvent.click(opener);
    const name = await screen.findByLabelText('Name');
    await act(async () => {});
    expect(document.activeElement).toBe(name);
  });

  it('focuses once: a later render leaves the focus where the user put it', () => {
    function Form({ round }: { round: number }) {
      return (
        <>
          {/* biome-ignore lint/a11y/noAutofocus: the behaviour under test */}
          <input aria-label="First" autoFocus data-round={round} />
          <input aria-label="Second" />
        </>
      );
    }
    const { rerender } = render(<Form round={1} />);
    screen.getByLabelText('Second').focus();
    rerender(<Form round={2} />);
    expect(document.activeElement).toBe(screen.getByLabelText('Second'));
  });

  it('still hands the element to its ref, and leaves other elements alone', () => {
    const seen: (HTMLElement | null)[] = [];
    function Refs() {
      const object = useRef<HTMLButtonElement>(null);
      useEffect(() => {
        seen.push(object.current);
      }, []);
      return (
        <>
          {/* biome-ignore lint/a11y/noAutofocus: the behaviour under test */}
          <button type="button" ref={object} autoFocus>
            Go
          </button>
          {/* React focuses only buttons, inputs, selects and textareas */}
          {/* biome-ignore lint/a11y/noAutofocus: the behaviour under test */}
          <section aria-label="Region" tabIndex={-1} autoFocus />
          <textarea aria-label="Notes" ref={(element) => void seen.push(element)} />
        </>
      );
    }
    render(<Refs />);
    const button = screen.getByRole('button', { name: 'Go' });
    expect(document.activeElement).toBe(button);
    expect(seen).toEqual([screen.getByLabelText('Notes'), button]);
    expect(screen.getByRole('region').hasAttribute('autofocus')).toBe(false);
  });
});

describe('onChange of a text box, as React calls it', () => {
  function Controlled({ onChange }: { onChange: (value: string) => void }) {
    const [value, setValue] = useState('');
    return (
      <input
        aria-label="Name"
        value={value}
        onChange={(event) => {
          setValue(event.target.value);
          onChange(event.target.value);
        }}
      />
    );
  }

  it('hears a value set by a script and announced with `change` alone (a password manager, fireEvent.change)', () => {
    const onChange = vi.fn();
    render(<Controlled onChange={onChange} />);
    const input = screen.getByLabelText('Name') as HTMLInputElement;
    fireEvent.change(input, { target: { value: 'Ada' } });
    expect(onChange).toHaveBeenCalledWith('Ada');
    expect(input.value).toBe('Ada');
  });

  it('reports typing once: the `change` that follows the `input` events of a value is not a second call', () => {
    const onChange = vi.fn();
    render(<Controlled onChange={onChange} />);
    const input = screen.getByLabelText('Name') as HTMLInputElement;
    fireEvent.input(input, { target: { value: 'A' } });
    fireEvent.input(input, { target: { value: 'Ad' } });
    fireEvent.change(input, { target: { value: 'Ad' } });
    expect(onChange.mock.calls).toEqual([['A'], ['Ad']]);
  });

  it('leaves checkboxes on their `change` event', () => {
    const onChange = vi.fn();
    render(<input type="checkbox" aria-label="Agree" onChange={onChange} />);
    fireEvent.click(screen.getByLabelText('Agree'));
    expect(onChange).toHaveBeenCalledTimes(1);
  });
});

describe('effects run in the next task after a render, as React schedules them', () => {
  it('a useEffect has run by the next macrotask, not a frame later', async () => {
    // Frames and timers stand still: Preact's own scheduler (a frame, or a 35 ms timeout) would never run
    // the effect, and no busy machine can let a frame pass first. The next task is Node's setImmediate here.
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'],
    });
    try {
      const ran = vi.fn();
      function Effect() {
        useEffect(ran, []);
        return null;
      }
      const container = document.createElement('div');
      const root = createRoot(container);
      root.render(<Effect />);
      await new Promise((resolve) => setImmediate(resolve));
      expect(ran).toHaveBeenCalledTimes(1);
      root.unmount();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('what preact/compat gives as React does', () => {
  it('onFocus and onBlur bubble from a descendant (focusin/focusout), as a tooltip on a span needs', () => {
    const events: string[] = [];
    render(
      // biome-ignore lint/a11y/noStaticElementInteractions: as MUI's Tooltip listens on a disabled button's span
      <span onFocus={() => events.push('focus')} onBlur={() => events.push('blur')}>
        <button type="button">Inside</button>
      </span>,
    );
    const button = screen.getByRole('button', { name: 'Inside' });
    act(() => button.focus());
    act(() => button.blur());
    expect(events).toEqual(['focus', 'blur']);
  });

  it('defaultValue fills an uncontrolled box that the user then changes', () => {
    render(<input aria-label="City" defaultValue="York" />);
    const input = screen.getByLabelText('City') as HTMLInputElement;
    expect(input.value).toBe('York');
    fireEvent.input(input, { target: { value: 'Leeds' } });
    expect(input.value).toBe('Leeds');
  });

  it('useId gives unique ids that aria attributes and getElementById can use', () => {
    function Field() {
      const id = useId();
      return (
        <>
          <label htmlFor={id}>Label {id}</label>
          <input id={id} aria-describedby={`${id}-help`} />
          <span id={`${id}-help`}>help</span>
        </>
      );
    }
    render(
      <>
        <Field />
        <Field />
      </>,
    );
    const [first, second] = screen.getAllByRole('textbox');
    expect(first?.id).not.toBe(second?.id);
    expect(document.getElementById(`${first?.id}-help`)?.textContent).toBe('help');
  });

  it('createPortal renders into another node', () => {
    const target = document.createElement('div');
    document.body.append(target);
    render(createPortal(<p>Elsewhere</p>, target));
    expect(target.textContent).toBe('Elsewhere');
    target.remove();
  });
});
