import { describe, expect, it } from 'vitest';
import { keepRecent } from './keep-recent';

describe('keepRecent', () => {
  it('keeps the most recently set entries, at most the bound, and forgets the least recent', () => {
    const map = new Map<string, number>();
    const forgotten: string[] = [];
    const set = (key: string, value: number) =>
      keepRecent(map, key, value, 3, (oldest) => {
        forgotten.push(oldest);
        map.delete(oldest);
      });
    set('a', 1);
    set('b', 2);
    set('c', 3);
    set('a', 4); // set again: the most recent now, nothing forgotten
    expect([...map]).toEqual([
      ['b', 2],
      ['c', 3],
      ['a', 4],
    ]);
    set('d', 5);
    expect(forgotten).toEqual(['b']);
    expect([...map.keys()]).toEqual(['c', 'a', 'd']);
  });

  it('deletes the least recent itself when not told how to forget', () => {
    const map = new Map([[1, 'one']]);
    keepRecent(map, 2, 'two', 1);
    expect([...map]).toEqual([[2, 'two']]);
  });
});
