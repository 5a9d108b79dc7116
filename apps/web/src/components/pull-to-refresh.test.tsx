import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HOME_PULL_THRESHOLD } from '../features/home/home-logic';
import { PULL_THRESHOLD, PullToRefresh } from './pull-to-refresh';

// Spec §9: pull-to-refresh threshold 64 (lists) and 192 (home): a shorter pull does nothing.

afterEach(cleanup);

function pull(target: HTMLElement, from: number, to: number) {
  fireEvent.touchStart(target, { touches: [{ clientY: from }] });
  fireEvent.touchMove(target, { touches: [{ clientY: (from + to) / 2 }] });
  fireEvent.touchMove(target, { touches: [{ clientY: to }] });
  fireEvent.touchEnd(target, { touches: [] });
}

describe.each([
  { view: 'a list', threshold: undefined, expected: PULL_THRESHOLD },
  { view: 'home', threshold: HOME_PULL_THRESHOLD, expected: 192 },
])('pull-to-refresh on $view', ({ threshold, expected }) => {
  function setup() {
    const onRefresh = vi.fn(async () => {});
    render(
      <PullToRefresh onRefresh={onRefresh} threshold={threshold}>
        <p>content</p>
      </PullToRefresh>,
    );
    return { onRefresh, target: screen.getByText('content') };
  }

  it(`does not refresh on a pull shorter than ${expected} px`, () => {
    const { onRefresh, target } = setup();
    pull(target, 100, 100 + expected - 1);
    expect(onRefresh).not.toHaveBeenCalled();
  });

  it(`refreshes on a pull of ${expected} px or more`, async () => {
    const { onRefresh, target } = setup();
    pull(target, 100, 100 + expected);
    expect(onRefresh).toHaveBeenCalledTimes(1);
    await act(async () => {}); // the refresh finishes
    pull(target, 100, 100 + expected * 3);
    expect(onRefresh).toHaveBeenCalledTimes(2);
  });

  it('does not refresh on a pull upwards or a cancelled touch', () => {
    const { onRefresh, target } = setup();
    pull(target, 300, 0);
    fireEvent.touchStart(target, { touches: [{ clientY: 0 }] });
    fireEvent.touchMove(target, { touches: [{ clientY: expected * 2 }] });
    fireEvent.touchCancel(target);
    fireEvent.touchEnd(target, { touches: [] });
    expect(onRefresh).not.toHaveBeenCalled();
  });
});
