import { afterEach, describe, expect, it, vi } from 'vitest';
import { onFirstGesture } from './first-gesture';

describe('onFirstGesture', () => {
  const stops: Array<() => void> = [];
  afterEach(() => {
    for (const stop of stops.splice(0)) stop();
  });

  it.each(['keydown', 'pointerdown'])('runs at the first %s, once', (name) => {
    const run = vi.fn();
    stops.push(onFirstGesture(run));
    window.dispatchEvent(new Event('focus'));
    window.dispatchEvent(new Event('scroll'));
    expect(run).not.toHaveBeenCalled();
    document.body.dispatchEvent(new Event(name, { bubbles: true }));
    document.body.dispatchEvent(new Event('keydown', { bubbles: true }));
    document.body.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('runs even when the page stops the event from bubbling (it listens while the event goes down)', () => {
    const run = vi.fn();
    stops.push(onFirstGesture(run));
    const stopper = (event: Event) => event.stopPropagation();
    document.body.addEventListener('keydown', stopper);
    document.body.dispatchEvent(new Event('keydown', { bubbles: true }));
    document.body.removeEventListener('keydown', stopper);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('runs nothing once told to stop waiting', () => {
    const run = vi.fn();
    onFirstGesture(run)();
    document.body.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    expect(run).not.toHaveBeenCalled();
  });
});
