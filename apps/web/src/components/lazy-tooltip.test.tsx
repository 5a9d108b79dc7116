import IconButton from '@mui/material/IconButton';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

afterEach(cleanup);

// The module keeps the loaded Tooltip: each test starts from a page that has not loaded it yet.
let LazyTooltip: typeof import('./lazy-tooltip').LazyTooltip;
beforeEach(async () => {
  vi.resetModules();
  ({ LazyTooltip } = await import('./lazy-tooltip'));
});

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

  it('keeps the focus on its child when the tooltip arrives (the child is mounted again inside it)', async () => {
    render(
      <LazyTooltip title="Refresh">
        <span>
          <IconButton>R</IconButton>
        </span>
      </LazyTooltip>,
    );
    const before = screen.getByRole('button', { name: 'R' });
    before.focus();
    const enter = new Event('pointerover', { bubbles: true });
    Object.assign(enter, { pointerType: 'mouse' });
    await act(async () => {
      screen.getByLabelText('Refresh').dispatchEvent(enter);
    });
    await screen.findByRole('tooltip');
    const after = screen.getByRole('button', { name: 'R' });
    expect(after).not.toBe(before);
    expect(document.activeElement).toBe(after);
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
