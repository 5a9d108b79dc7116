import IconButton from '@mui/material/IconButton';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { LazyTooltip } from './lazy-tooltip';

afterEach(cleanup);

describe('LazyTooltip', () => {
  it('names its child by the title before loading, and shows the tooltip for the hover that loads it', async () => {
    render(
      <LazyTooltip title="Refresh">
        <span>
          <IconButton>R</IconButton>
        </span>
      </LazyTooltip>,
    );
    const child = screen.getByLabelText('Refresh');
    expect(screen.queryByRole('tooltip')).toBeNull();
    // jsdom has no PointerEvent: a plain event carrying the mouse's pointer type.
    const enter = new Event('pointerover', { bubbles: true });
    Object.assign(enter, { pointerType: 'mouse' });
    await act(async () => {
      child.dispatchEvent(enter);
    });
    expect((await screen.findByRole('tooltip')).textContent).toBe('Refresh');
    fireEvent.pointerLeave(child);
  });

  it('keeps the child’s own name', () => {
    render(
      <LazyTooltip title="Light mode">
        <IconButton aria-label="Switch to light mode">L</IconButton>
      </LazyTooltip>,
    );
    expect(screen.getByRole('button', { name: 'Switch to light mode' })).toBeTruthy();
  });
});
