import { describe, expect, it } from 'vitest';
import { doorSearchTerm } from './door-logic';

describe('door search', () => {
  it('searches from 2 characters, trimmed, spaces folded, at most 100', () => {
    expect(doorSearchTerm('')).toBeNull();
    expect(doorSearchTerm(' j ')).toBeNull();
    expect(doorSearchTerm(' ja ')).toBe('ja');
    expect(doorSearchTerm('Jane   Smith')).toBe('Jane Smith');
    expect(doorSearchTerm('x'.repeat(150))).toHaveLength(100);
  });
});
