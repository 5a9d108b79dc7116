import DownloadIcon from '@mui/icons-material/Download';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { type AuditEntry, AUDIT_TEXT as T } from '@parley/domain/audit';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { SectionCard } from '../../../components/section-card';
import { useSnackbar } from '../../../components/snackbar';
import { useIsMobile } from '../../../components/use-is-mobile';
import { serverMessage } from '../../../lib/api-client';
import { type ActivitySubject, activityQuery, downloadActivity } from '../api';
import { agentLabel } from '../audit-logic';

type Props = ActivitySubject & {
  /** The host page's data: when it changes (the page saved something), the activity is read again. */
  refreshKey?: unknown;
};

/** A phone shows each entry as a small card: what, then when and who, then from where. */
function EntryCard({ entry }: { entry: AuditEntry }) {
  return (
    <Paper variant="outlined" component="li" sx={{ p: 1.5, listStyle: 'none' }}>
      <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
        {entry.summary}
      </Typography>
      <Typography variant="caption" color="text.secondary" component="div" sx={{ overflowWrap: 'anywhere' }}>
        {`${entry.atLabel} · ${entry.actor.name}`}
      </Typography>
      <Typography
        variant="caption"
        color="text.secondary"
        component="div"
        title={entry.userAgent ?? undefined}
      >
        {`${entry.ip ?? ''} · ${agentLabel(entry.userAgent)}`}
      </Typography>
    </Paper>
  );
}

function EntryRow({ entry }: { entry: AuditEntry }) {
  return (
    <TableRow>
      <TableCell sx={{ whiteSpace: 'nowrap', verticalAlign: 'top' }}>{entry.atLabel}</TableCell>
      <TableCell sx={{ verticalAlign: 'top' }}>
        <Typography variant="body2">{entry.actor.name}</Typography>
        <Typography variant="caption" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {entry.actor.email}
        </Typography>
      </TableCell>
      <TableCell sx={{ verticalAlign: 'top', overflowWrap: 'anywhere' }}>{entry.summary}</TableCell>
      <TableCell sx={{ verticalAlign: 'top' }}>
        <Typography variant="body2" sx={{ whiteSpace: 'nowrap' }}>
          {entry.ip ?? '—'}
        </Typography>
        <Typography variant="caption" color="text.secondary" title={entry.userAgent ?? undefined}>
          {agentLabel(entry.userAgent)}
        </Typography>
      </TableCell>
    </TableRow>
  );
}

/**
 * "Activity" on a person's or an event's admin page: every change admins and teachers made to them,
 * newest first — when, who, what and from where — and the CSV of all of it.
 */
export function ActivityCard({ about, id, refreshKey }: Props) {
  const isMobile = useIsMobile();
  const showSnackbar = useSnackbar();
  const client = useQueryClient();
  const query = useQuery(activityQuery({ about, id }));
  const [downloading, setDownloading] = useState(false);

  // Anything the page saves (its data reloads, or a mutation succeeds) may have added an entry.
  const seen = useRef(refreshKey);
  useEffect(() => {
    if (seen.current === refreshKey) return;
    seen.current = refreshKey;
    void client.invalidateQueries({ queryKey: activityQuery({ about, id }).queryKey });
  }, [client, about, id, refreshKey]);
  useEffect(
    () =>
      client.getMutationCache().subscribe((event) => {
        if (event.type === 'updated' && event.action.type === 'success')
          void client.invalidateQueries({ queryKey: activityQuery({ about, id }).queryKey });
      }),
    [client, about, id],
  );

  const download = async () => {
    setDownloading(true);
    try {
      await downloadActivity({ about, id });
    } catch (error) {
      showSnackbar(serverMessage(error, T.downloadFailed), 'error');
    } finally {
      setDownloading(false);
    }
  };

  const items = query.data?.items ?? [];
  return (
    <SectionCard
      title={T.title}
      action={
        <Button
          variant="outlined"
          size="small"
          startIcon={<DownloadIcon />}
          onClick={() => void download()}
          loading={downloading}
          sx={{ whiteSpace: 'nowrap' }}
        >
          {T.download}
        </Button>
      }
    >
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {T.help}
      </Typography>
      {query.isError ? (
        <Alert severity="warning">{serverMessage(query.error, T.loadFailed)}</Alert>
      ) : !query.data ? (
        <Stack spacing={1}>
          <Skeleton variant="rounded" height={40} />
          <Skeleton variant="rounded" height={40} />
        </Stack>
      ) : items.length === 0 ? (
        <Typography color="text.secondary">{T.empty}</Typography>
      ) : isMobile ? (
        <Stack component="ul" spacing={1} aria-label={T.title} sx={{ p: 0, m: 0 }}>
          {items.map((entry) => (
            <EntryCard key={entry.id} entry={entry} />
          ))}
        </Stack>
      ) : (
        <TableContainer tabIndex={0} role="region" aria-label={T.title} sx={{ maxHeight: 480 }}>
          <Table size="small" stickyHeader aria-label={T.title}>
            <TableHead>
              <TableRow>
                <TableCell sx={{ width: '15%' }}>{T.when}</TableCell>
                <TableCell sx={{ width: '27%' }}>{T.who}</TableCell>
                <TableCell>{T.what}</TableCell>
                <TableCell sx={{ width: '17%' }}>{T.where}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {items.map((entry) => (
                <EntryRow key={entry.id} entry={entry} />
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {query.data?.more ? (
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
          {T.more(items.length)}
        </Typography>
      ) : null}
    </SectionCard>
  );
}
