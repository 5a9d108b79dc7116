import AddIcon from '@mui/icons-material/Add';
import RefreshIcon from '@mui/icons-material/Refresh';
import SearchIcon from '@mui/icons-material/Search';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import Tooltip from '@mui/material/Tooltip';
import { useMemo, useState } from 'react';
import { LIST_TEXT } from '../lib/ui-text';
import type { DataColumn, DataListProps, ListRequest } from './data-list-types';
import {
  DEFAULT_PAGE_SIZE,
  DEFAULT_SORT_KEY,
  listView,
  nextSort,
  PAGE_SIZE_ALL,
  type SortValue,
} from './list-logic';
import { TextField } from './text-field';

/** Spec §9: the table skeleton is at least 500 px high. */
export const TABLE_SKELETON_MIN_HEIGHT = 500;

const ROWS_PER_PAGE_OPTIONS = [10, 25, 50, 100, { label: LIST_TEXT.all, value: PAGE_SIZE_ALL }];
/** A list the server pages has no "All": a district's 20,000 rows are what paging is for (decision 035). */
const SERVER_ROWS_PER_PAGE = [10, 25, 50, 100];

function accessors<T>(columns: DataColumn<T>[], nameOf: (row: T) => string) {
  const byKey = new Map(columns.map((column) => [column.key, column]));
  return {
    textOf: (row: T) =>
      columns
        .map((column) => column.searchText?.(row) ?? '')
        .filter(Boolean)
        .join(' '),
    sortValueOf: (row: T, key: string): SortValue => {
      const column = byKey.get(key);
      if (column?.sortValue) return column.sortValue(row);
      return key === DEFAULT_SORT_KEY ? nameOf(row) : null;
    },
  };
}

export function TableSkeleton() {
  return (
    <Box
      sx={{ minHeight: TABLE_SKELETON_MIN_HEIGHT }}
      role="status"
      aria-busy="true"
      aria-label={LIST_TEXT.loading}
    >
      <Skeleton variant="rounded" height={40} sx={{ mb: 1 }} />
      {Array.from({ length: 9 }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity
        <Skeleton key={index} variant="text" height={48} />
      ))}
    </Box>
  );
}

/** The list as it first shows: no search, by name ascending, the first page of the default size. */
export const FIRST_REQUEST: ListRequest = {
  query: '',
  sort: { key: DEFAULT_SORT_KEY, direction: 'asc' },
  page: 0,
  pageSize: DEFAULT_PAGE_SIZE,
};

export function DataTable<T>({
  label,
  rows,
  server,
  columns,
  rowKey,
  nameOf,
  onRefresh,
  refreshing = false,
  onAdd,
  addLabel = LIST_TEXT.add,
  actions,
  emptyText,
}: DataListProps<T>) {
  const [local, setLocal] = useState(FIRST_REQUEST);
  const request = server?.request ?? local;
  const setRequest = server?.onRequest ?? setLocal;
  const { query, sort, pageSize } = request;
  const get = useMemo(() => accessors(columns, nameOf), [columns, nameOf]);
  const view = useMemo(
    () =>
      server
        ? { rows: rows ?? [], total: server.total, page: request.page }
        : listView(rows ?? [], request, get),
    [rows, server, request, get],
  );

  return (
    <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
      <Stack direction="row" spacing={1} sx={{ p: 2, pb: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <TextField
          label={LIST_TEXT.search}
          size="small"
          margin="none"
          type="search"
          value={query}
          onChange={(event) => setRequest({ ...request, query: event.target.value, page: 0 })}
          sx={{ width: 280, maxWidth: '100%' }}
          slotProps={{
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
        <Box sx={{ flexGrow: 1 }} />
        {actions}
        <Tooltip title={LIST_TEXT.refresh}>
          <span>
            <IconButton aria-label={LIST_TEXT.refresh} onClick={() => void onRefresh()} disabled={refreshing}>
              <RefreshIcon />
            </IconButton>
          </span>
        </Tooltip>
        {onAdd ? (
          <Button variant="contained" startIcon={<AddIcon />} onClick={onAdd}>
            {addLabel}
          </Button>
        ) : null}
      </Stack>
      {/* While another page or search loads, the rows shown are the last ones: a bar says more is coming. */}
      <Box sx={{ height: 4 }}>
        {refreshing && rows !== undefined ? <LinearProgress aria-label={LIST_TEXT.refreshing} /> : null}
      </Box>
      {rows === undefined ? (
        <Box sx={{ px: 2, pb: 2 }}>
          <TableSkeleton />
        </Box>
      ) : (
        <>
          <TableContainer>
            <Table aria-label={label} size="medium">
              <TableHead>
                <TableRow>
                  {columns.map((column) => (
                    <TableCell
                      key={column.key}
                      align={column.align}
                      sx={{ width: column.width, fontWeight: 600, whiteSpace: 'nowrap' }}
                      sortDirection={sort.key === column.key ? sort.direction : false}
                    >
                      {column.sortValue || column.key === DEFAULT_SORT_KEY ? (
                        <TableSortLabel
                          active={sort.key === column.key}
                          direction={sort.key === column.key ? sort.direction : 'asc'}
                          onClick={() =>
                            setRequest({ ...request, sort: nextSort(sort, column.key), page: 0 })
                          }
                        >
                          {column.label}
                        </TableSortLabel>
                      ) : (
                        column.label
                      )}
                    </TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {view.rows.map((row) => (
                  <TableRow key={rowKey(row)} hover>
                    {columns.map((column) => (
                      <TableCell key={column.key} align={column.align}>
                        {column.render(row)}
                      </TableCell>
                    ))}
                  </TableRow>
                ))}
                {view.total === 0 ? (
                  <TableRow>
                    <TableCell colSpan={columns.length} sx={{ py: 4, textAlign: 'center' }}>
                      {(server ? query.trim() === '' : rows.length === 0) ? emptyText : LIST_TEXT.noMatches}
                    </TableCell>
                  </TableRow>
                ) : null}
              </TableBody>
            </Table>
          </TableContainer>
          <TablePagination
            component="div"
            count={view.total}
            page={view.page}
            rowsPerPage={pageSize}
            rowsPerPageOptions={server ? SERVER_ROWS_PER_PAGE : ROWS_PER_PAGE_OPTIONS}
            onPageChange={(_event, next) => setRequest({ ...request, page: next })}
            onRowsPerPageChange={(event) =>
              setRequest({ ...request, pageSize: Number(event.target.value), page: 0 })
            }
          />
        </>
      )}
    </Paper>
  );
}
