import AddIcon from '@mui/icons-material/Add';
import RefreshIcon from '@mui/icons-material/Refresh';
import SearchIcon from '@mui/icons-material/Search';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import LinearProgress from '@mui/material/LinearProgress';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { LIST_TEXT } from '../lib/ui-text';
import type { DataListProps } from './data-list-types';
import { DEFAULT_SORT_KEY, filterRows, sortRows } from './list-logic';
import { Pager } from './pager';
import { PullToRefresh } from './pull-to-refresh';
import { TextField } from './text-field';

/** Spec §9: the mobile card list is at most 400 px wide. */
export const CARD_LIST_MAX_WIDTH = 400;
/** Cards rendered at first, and added by "Show more" (a school has hundreds of students). */
export const CARD_BATCH = 50;

export function DataCards<T>({
  label,
  rows,
  server,
  rowKey,
  nameOf,
  renderCard,
  onOpen,
  onRefresh,
  refreshing = false,
  onAdd,
  addLabel = LIST_TEXT.add,
  actions,
  emptyText,
}: DataListProps<T>) {
  const [localQuery, setLocalQuery] = useState('');
  const [shown, setShown] = useState(CARD_BATCH);
  const query = server?.request.query ?? localQuery;
  // The server's page is shown as it came (searched and sorted there); a whole list is searched here.
  const found = useMemo(
    () =>
      server
        ? [...(rows ?? [])]
        : sortRows(
            filterRows(rows ?? [], query, nameOf),
            { key: DEFAULT_SORT_KEY, direction: 'asc' },
            nameOf,
          ),
    [rows, server, query, nameOf],
  );
  const search = (text: string) => {
    if (server) server.onRequest({ ...server.request, query: text, page: 0 });
    else setLocalQuery(text);
    setShown(CARD_BATCH);
  };

  return (
    <Box sx={{ maxWidth: CARD_LIST_MAX_WIDTH, mx: 'auto' }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
        <TextField
          label={LIST_TEXT.searchName}
          size="small"
          margin="none"
          type="search"
          value={query}
          onChange={(event) => search(event.target.value)}
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
        <IconButton aria-label={LIST_TEXT.refresh} onClick={() => void onRefresh()} disabled={refreshing}>
          <RefreshIcon />
        </IconButton>
        {onAdd ? (
          <IconButton aria-label={addLabel} onClick={onAdd} color="primary">
            <AddIcon />
          </IconButton>
        ) : null}
      </Stack>
      {actions ? (
        <Stack direction="row" spacing={1} sx={{ mb: 1, flexWrap: 'wrap' }}>
          {actions}
        </Stack>
      ) : null}
      {/* While another page or search loads, the cards shown are the last ones: a bar says more is coming. */}
      <Box sx={{ height: 4 }}>
        {refreshing && rows !== undefined ? <LinearProgress aria-label={LIST_TEXT.refreshing} /> : null}
      </Box>
      <PullToRefresh onRefresh={onRefresh}>
        {rows === undefined ? (
          <Stack spacing={1} role="status" aria-busy="true" aria-label={LIST_TEXT.loading}>
            {Array.from({ length: 5 }, (_, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: placeholder cards have no identity
              <Skeleton key={index} variant="rounded" height={88} />
            ))}
          </Stack>
        ) : (
          <Stack component="ul" aria-label={label} spacing={1} sx={{ listStyle: 'none', p: 0, m: 0 }}>
            {found.slice(0, shown).map((row) => (
              <Card component="li" key={rowKey(row)} variant="outlined">
                <CardActionArea onClick={() => onOpen(row)}>
                  <CardContent sx={{ py: 1.5, '&:last-child': { pb: 1.5 } }}>{renderCard(row)}</CardContent>
                </CardActionArea>
              </Card>
            ))}
            {found.length === 0 ? (
              <Typography component="li" color="text.secondary" sx={{ py: 3, textAlign: 'center' }}>
                {(server ? query.trim() === '' : rows.length === 0) ? emptyText : LIST_TEXT.noMatches}
              </Typography>
            ) : null}
            {found.length > shown ? (
              <Box component="li" sx={{ textAlign: 'center' }}>
                <Button onClick={() => setShown((count) => count + CARD_BATCH)}>
                  {LIST_TEXT.showMore(found.length - shown)}
                </Button>
              </Box>
            ) : null}
          </Stack>
        )}
        {server && rows !== undefined && server.total > 0 ? (
          <Pager
            page={server.request.page + 1}
            pageSize={server.request.pageSize}
            total={server.total}
            onPage={(page) => server.onRequest({ ...server.request, page: page - 1 })}
          />
        ) : null}
      </PullToRefresh>
    </Box>
  );
}
