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

/** A refresh button wrapped in a span (as a disabled button is, for its tooltip), named by the tooltip. */
function renderRefresh() {
  render(
    <LazyTooltip title="Refresh">
      <span>
        <IconButton>R</IconButton>
      </span>
    </LazyTooltip>,
  );
  return screen.getByLabelText('Refresh');
}

/**
 * A mouse pointing at the element, with the events a browser sends: `pointerover` (bubbling) and
 * `pointerenter` (jsdom has no PointerEvent: plain events with the pointer type).
 */
async function pointAt(element: Element) {
  const over = Object.assign(new Event('pointerover', { bubbles: true }), { pointerType: 'mouse' });
  const enter = Object.assign(new Event('pointerenter'), { pointerType: 'mouse' });
  await act(async () => {
    element.dispatchEvent(over);
    element.dispatchEvent(enter);
  });
}

describe('LazyTooltip', () => {
  it('names its child by the title before loading, and shows the tooltip for the hover that loads it', async () => {
    const child = renderRefresh();
    expect(screen.queryByRole('tooltip')).toBeNull();
    await pointAt(child);
    expect((await screen.findByRole('tooltip')).textContent).toBe('Refresh');
    fireEvent.pointerLeave(child);
  });

  it('keeps the focus on its child when the tooltip arrives (the child is mounted again inside it)', async () => {
    const child = renderRefresh();
    const before = screen.getByRole('button', { name: 'R' });
    before.focus();
    await pointAt(child);
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
