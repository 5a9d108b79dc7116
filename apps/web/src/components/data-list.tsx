import { DataCards } from './data-cards';
import type { DataListProps } from './data-list-types';
import { DataTable } from './data-table';
import { useIsMobile } from './use-is-mobile';

// The list pattern of the spec's events list, for any rows: a sortable, searchable, paged table on wide
// screens; on mobile a pull-to-refresh list of cards with a "Search name" field.

export function DataList<T>(props: DataListProps<T>) {
  const isMobile = useIsMobile();
  return isMobile ? <DataCards {...props} /> : <DataTable {...props} />;
}
