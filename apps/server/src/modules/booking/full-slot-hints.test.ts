import { describe, expect, it } from 'vitest';
import { FullSlotHints, HINT_KEEP_MS } from './full-slot-hints';

describe('the full-slot hints', () => {
  it('knows no slot at first, then those seen full, and forgets those seen with room', () => {
    const hints = new FullSlotHints();
    expect(hints.anyFull([1, 2, 3])).toBe(false);
    hints.saw([1, 2, 3], [2]);
    expect(hints.anyFull([1])).toBe(false);
    expect(hints.anyFull([1, 2])).toBe(true);
    // A later read of the same slots decides: 2 has room again, 3 is full now.
    hints.saw([2, 3], [3]);
    expect(hints.anyFull([2])).toBe(false);
    expect(hints.anyFull([3])).toBe(true);
  });

  it('forgets the slots whose places were given back', () => {
    const hints = new FullSlotHints();
    hints.markFull(4);
    hints.markFull(5);
    hints.forget([4]);
    expect(hints.anyFull([4])).toBe(false);
    expect(hints.anyFull([5])).toBe(true);
  });

  it('keeps at most its limit, starting again when it is reached', () => {
    const hints = new FullSlotHints(3);
    for (const id of [1, 2, 3]) hints.markFull(id);
    expect(hints.anyFull([1])).toBe(true);
    hints.markFull(4);
    expect(hints.anyFull([1, 2, 3])).toBe(false);
    expect(hints.anyFull([4])).toBe(true);
  });

  it('lets a hint go once it is older than the time limit (an unheard announcement’s backstop)', () => {
    let now = 1_000_000;
    const hints = new FullSlotHints(100, () => now);
    hints.markFull(6);
    now += HINT_KEEP_MS - 1;
    expect(hints.anyFull([6])).toBe(true);
    now += 1;
    expect(hints.anyFull([6])).toBe(false);
  });
});
