import { describe, expect, it } from 'vitest';
import {
  clampPage,
  compareValues,
  DEFAULT_PAGE_SIZE,
  DEFAULT_SORT_KEY,
  filterRows,
  listView,
  matchesSearch,
  nextSort,
  PAGE_SIZE_ALL,
  PAGE_SIZE_OPTIONS,
  pageCount,
  pageRows,
  sortRows,
} from './list-logic';
import { PULL_THRESHOLD, pullDistance, pullReleases } from './pull-to-refresh';

type Row = { id: number; name: string; email: string; count: number | null };

const rows: Row[] = [
  { id: 1, name: 'charlie Brown', email: 'charlie@hill.test', count: 3 },
  { id: 2, name: 'Ada Lovelace', email: 'ada@hill.test', count: 10 },
  { id: 3, name: 'Émile Zola', email: 'emile@hill.test', count: null },
  { id: 4, name: 'bob Marley', email: 'bob@hill.test', count: 2 },
  { id: 5, name: 'Ada Lovelace', email: 'ada2@hill.test', count: 1 },
];

const sortValueOf = (row: Row, key: string) => row[key as keyof Row];
const textOf = (row: Row) => `${row.name} ${row.email}`;

describe('list constants (spec §9)', () => {
  it('offers page sizes 10, 25, 50, 100 and all, default 10, sorted by name', () => {
    expect(PAGE_SIZE_OPTIONS).toEqual([10, 25, 50, 100, PAGE_SIZE_ALL]);
    expect(DEFAULT_PAGE_SIZE).toBe(10);
    expect(DEFAULT_SORT_KEY).toBe('name');
  });
});

describe('search', () => {
  it('matches every word anywhere, ignoring case, accents and extra spaces', () => {
    expect(matchesSearch('Émile Zola emile@hill.test', '  zola   EMILE ')).toBe(true);
    expect(matchesSearch('Ada Lovelace', 'ada smith')).toBe(false);
    expect(matchesSearch('anything', '   ')).toBe(true);
  });

  it('filters rows by their text (desktop: all columns; mobile: the name)', () => {
    expect(filterRows(rows, 'hill.test', textOf)).toHaveLength(5);
    expect(filterRows(rows, 'ada2', textOf).map((row) => row.id)).toEqual([5]);
    expect(filterRows(rows, 'ada2', (row) => row.name)).toEqual([]);
    expect(filterRows(rows, 'emile', (row) => row.name).map((row) => row.id)).toEqual([3]);
  });
});

describe('sort', () => {
  it('sorts text ascending ignoring case and accents, stable for equal values', () => {
    const sorted = sortRows(rows, { key: 'name', direction: 'asc' }, sortValueOf);
    expect(sorted.map((row) => row.id)).toEqual([2, 5, 4, 1, 3]);
  });

  it('sorts descending, numbers by value, with empty values last either way', () => {
    expect(sortRows(rows, { key: 'count', direction: 'asc' }, sortValueOf).map((row) => row.id)).toEqual([
      5, 4, 1, 2, 3,
    ]);
    expect(sortRows(rows, { key: 'count', direction: 'desc' }, sortValueOf).map((row) => row.id)).toEqual([
      2, 1, 4, 5, 3,
    ]);
  });

  it('compares numbers inside text naturally', () => {
    expect(compareValues('Room 9', 'Room 10')).toBeLessThan(0);
    expect(compareValues(2, 10)).toBeLessThan(0);
    expect(compareValues(null, 'a')).toBeGreaterThan(0);
  });

  it('flips direction on the same column and starts ascending on another', () => {
    expect(nextSort({ key: 'name', direction: 'asc' }, 'name')).toEqual({ key: 'name', direction: 'desc' });
    expect(nextSort({ key: 'name', direction: 'desc' }, 'name')).toEqual({ key: 'name', direction: 'asc' });
    expect(nextSort({ key: 'name', direction: 'desc' }, 'email')).toEqual({ key: 'email', direction: 'asc' });
  });
});

describe('paging', () => {
  const many = Array.from({ length: 23 }, (_, index) => index + 1);

  it('cuts pages of the chosen size, and "all" shows every row', () => {
    expect(pageRows(many, 0, 10)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(pageRows(many, 2, 10)).toEqual([21, 22, 23]);
    expect(pageRows(many, 0, PAGE_SIZE_ALL)).toHaveLength(23);
    expect(pageCount(23, 10)).toBe(3);
    expect(pageCount(0, 10)).toBe(1);
    expect(pageCount(23, PAGE_SIZE_ALL)).toBe(1);
  });

  it('keeps the page inside the list when it shrinks', () => {
    expect(clampPage(5, 23, 10)).toBe(2);
    expect(clampPage(-1, 23, 10)).toBe(0);
    expect(clampPage(2, 3, 10)).toBe(0);
    expect(pageRows(many, 9, 10)).toEqual([21, 22, 23]);
  });

  it('searches, then sorts, then pages', () => {
    const view = listView(
      rows,
      { query: 'ada', sort: { key: 'email', direction: 'desc' }, page: 3, pageSize: 1 },
      { textOf, sortValueOf },
    );
    expect(view).toEqual({ rows: [rows[1]], total: 2, page: 1 });
  });
});

describe('pull to refresh (spec §9: threshold 64)', () => {
  it('follows the finger down only, capped at one and a half thresholds, and releases from 64 px', () => {
    expect(PULL_THRESHOLD).toBe(64);
    expect(pullDistance(100, 80, 64)).toBe(0);
    expect(pullDistance(100, 150, 64)).toBe(50);
    expect(pullDistance(100, 400, 64)).toBe(96);
    expect(pullReleases(63, 64)).toBe(false);
    expect(pullReleases(64, 64)).toBe(true);
  });
});
