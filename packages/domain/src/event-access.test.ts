import { describe, expect, it } from 'vitest';
import { isOpen, isOpenFor, openStudents, type RecipientList } from './event-access';

const list = (...ids: number[]): RecipientList => ({ any: ids.length > 0, among: new Set(ids) });
const parent = { role: 'parent' as const, userId: 1, children: [10, 11] };
const student = { role: 'student' as const, userId: 10, parents: [1, 2] };

describe('openStudents', () => {
  it('an event without recipients is open to every family', () => {
    expect(openStudents(list(), parent)).toBe('all');
    expect(openStudents(list(), student)).toBe('all');
  });

  it('a parent recipient books for all their children; a student recipient for themselves', () => {
    expect(openStudents(list(1), parent)).toBe('all');
    expect(openStudents(list(10), student)).toBe('all');
  });

  it('the parent of a student recipient books for that child only', () => {
    const open = openStudents(list(11), parent);
    expect(isOpen(open)).toBe(true);
    expect(isOpenFor(open, 11)).toBe(true);
    expect(isOpenFor(open, 10)).toBe(false);
    expect(isOpenFor(open, null)).toBe(false);
  });

  it('a student whose parent is a recipient books for themselves', () => {
    expect(openStudents(list(2), student)).toBe('all');
  });

  it('a family with no one on the list is refused', () => {
    // "any" comes from the whole list: the family's own rows are only those that name one of them.
    const others: RecipientList = { any: true, among: new Set() };
    expect(isOpen(openStudents(others, parent))).toBe(false);
    expect(isOpen(openStudents(others, student))).toBe(false);
    expect(isOpenFor(openStudents(others, parent), 10)).toBe(false);
  });
});
