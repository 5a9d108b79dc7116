import type { ReactNode } from 'react';
import type { SortState, SortValue } from './list-logic';

// Props of the list pattern (data-list.tsx): columns for the table, a card for mobile.

export type DataColumn<T> = {
  key: string;
  label: string;
  render: (row: T) => ReactNode;
  /** Present when the column sorts; the value compared. */
  sortValue?: (row: T) => SortValue;
  /** Text the desktop "Search" looks through for this column. */
  searchText?: (row: T) => string;
  align?: 'left' | 'right' | 'center';
  width?: number | string;
};

/** What a list shows: its search, sort, page (0 first) and rows per page. */
export type ListRequest = { query: string; sort: SortState; page: number; pageSize: number };

/**
 * A list the server searches, sorts and pages (decision 035): the screen keeps the request and fetches
 * it; the rows given are that page, `total` how many match in all.
 */
export type ServerPaging = { request: ListRequest; onRequest: (next: ListRequest) => void; total: number };

export type DataListProps<T> = {
  /** Accessible name of the table and card list. */
  label: string;
  /** Undefined while the first load runs (a skeleton shows). The whole list, or with `server` a page. */
  rows: readonly T[] | undefined;
  /** Set when the server searches, sorts and pages the list; without it the list does it on the device. */
  server?: ServerPaging;
  columns: DataColumn<T>[];
  rowKey: (row: T) => string | number;
  /** The name: default sort (ascending) and what the mobile "Search name" looks at. */
  nameOf: (row: T) => string;
  renderCard: (row: T) => ReactNode;
  onOpen: (row: T) => void;
  /** Refresh button and pull-to-refresh; may return a promise (the spinner waits for it). */
  onRefresh: () => unknown;
  refreshing?: boolean;
  onAdd?: () => void;
  addLabel?: string;
  /** More toolbar buttons (e.g. bulk add). */
  actions?: ReactNode;
  emptyText: string;
};
