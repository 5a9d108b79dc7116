import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { LIST_TEXT } from '../lib/ui-text';

/** "51–100 of 20,000" with the pages before and after (a long list comes a page at a time). */
export function Pager(props: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
}) {
  const { page, pageSize, total, onPage } = props;
  const from = (page - 1) * pageSize + 1;
  const to = Math.min(page * pageSize, total);
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'flex-end', mt: 1 }}>
      <Typography variant="body2" color="text.secondary" aria-live="polite">
        {LIST_TEXT.pageRange(from, to, total)}
      </Typography>
      <Button size="small" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {LIST_TEXT.previousPage}
      </Button>
      <Button size="small" disabled={to >= total} onClick={() => onPage(page + 1)}>
        {LIST_TEXT.nextPage}
      </Button>
    </Stack>
  );
}
