// Search, sort and paging of the list screens (spec §2 events list pattern, §9 table constants), as pure
// functions so the rules are tested without rendering a table.

/** Spec §9: page sizes 10, 25, 50, 100 and all (-1); default 10. */
export const PAGE_SIZE_ALL = -1;
export const PAGE_SIZE_OPTIONS = [10, 25, 50, 100, PAGE_SIZE_ALL] as const;
export const DEFAULT_PAGE_SIZE = 10;
/** Spec §9: default sort by name ascending. */
export const DEFAULT_SORT_KEY = 'name';

export type SortDirection = 'asc' | 'desc';
export type SortState = { key: string; direction: SortDirection };
export type SortValue = string | number | boolean | null | undefined;

/** Lower-cased, accents removed, spaces collapsed: "  Zoë  Brontë " → "zoe bronte". */
export function normaliseText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** Every word of the query appears somewhere in the text (in any order). An empty query matches. */
export function matchesSearch(text: string, query: string): boolean {
  const words = normaliseText(query).split(' ').filter(Boolean);
  if (words.length === 0) return true;
  const haystack = normaliseText(text);
  return words.every((word) => haystack.includes(word));
}

export function filterRows<T>(rows: readonly T[], query: string, textOf: (row: T) => string): T[] {
  if (!normaliseText(query)) return [...rows];
  return rows.filter((row) => matchesSearch(textOf(row), query));
}

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** Ascending order: numbers by value, text by locale (case and accents ignored); empty values last. */
export function compareValues(a: SortValue, b: SortValue): number {
  const emptyA = a === null || a === undefined || a === '';
  const emptyB = b === null || b === undefined || b === '';
  if (emptyA || emptyB) return emptyA === emptyB ? 0 : emptyA ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return collator.compare(String(a), String(b));
}

/** A stable sort; empty values stay last in both directions. */
export function sortRows<T>(
  rows: readonly T[],
  sort: SortState,
  sortValueOf: (row: T, key: string) => SortValue,
): T[] {
  const sign = sort.direction === 'asc' ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index, value: sortValueOf(row, sort.key) }))
    .sort((x, y) => {
      const emptyX = x.value === null || x.value === undefined || x.value === '';
      const emptyY = y.value === null || y.value === undefined || y.value === '';
      if (emptyX !== emptyY) return emptyX ? 1 : -1;
      return sign * compareValues(x.value, y.value) || x.index - y.index;
    })
    .map(({ row }) => row);
}

/** Clicking a column header: the same column flips direction, another column starts ascending. */
export function nextSort(current: SortState, key: string): SortState {
  if (current.key === key) return { key, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { key, direction: 'asc' };
}

/** The number of pages (at least 1). */
export function pageCount(total: number, pageSize: number): number {
  if (pageSize === PAGE_SIZE_ALL || pageSize <= 0) return 1;
  return Math.max(1, Math.ceil(total / pageSize));
}

/** Keeps a page index inside the list (after a search shrank it, say). Pages count from 0. */
export function clampPage(page: number, total: number, pageSize: number): number {
  return Math.min(Math.max(0, page), pageCount(total, pageSize) - 1);
}

export function pageRows<T>(rows: readonly T[], page: number, pageSize: number): T[] {
  if (pageSize === PAGE_SIZE_ALL || pageSize <= 0) return [...rows];
  const start = clampPage(page, rows.length, pageSize) * pageSize;
  return rows.slice(start, start + pageSize);
}

export type ListView<T> = { rows: T[]; total: number; page: number };

/** Search, then sort, then the page: what the table shows. */
export function listView<T>(
  rows: readonly T[],
  options: { query: string; sort: SortState; page: number; pageSize: number },
  accessors: { textOf: (row: T) => string; sortValueOf: (row: T, key: string) => SortValue },
): ListView<T> {
  const found = sortRows(
    filterRows(rows, options.query, accessors.textOf),
    options.sort,
    accessors.sortValueOf,
  );
  const page = clampPage(options.page, found.length, options.pageSize);
  return { rows: pageRows(found, page, options.pageSize), total: found.length, page };
}
