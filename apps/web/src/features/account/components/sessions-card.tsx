import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import type { SessionItem } from '@parley/domain/sessions';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { SectionCard } from '../../../components/section-card';
import { useSnackbar } from '../../../components/snackbar';
import { serverMessage } from '../../../lib/api-client';
import { SESSIONS_TEXT as TEXT } from '../account-text';
import { endOtherSessions, endSession, sessionsQuery } from '../api';
import { ago, sortSessions } from '../security-format';

/** One's signed-in sessions: device, address and times; end one, or all but this one. */
export function SessionsCard() {
  const showSnackbar = useSnackbar();
  const query = useQuery(sessionsQuery);
  const [confirmAll, setConfirmAll] = useState(false);
  const endOne = useMutation({
    mutationFn: endSession,
    onSuccess: (result) => showSnackbar(result.message, 'success'),
    onError: (error) => showSnackbar(serverMessage(error, TEXT.endFailed), 'error'),
  });
  const endAll = useMutation({
    mutationFn: endOtherSessions,
    onSuccess: (result) => {
      setConfirmAll(false);
      showSnackbar(result.message, 'success');
    },
    onError: (error) => showSnackbar(serverMessage(error, TEXT.endFailed), 'error'),
  });
  const items = sortSessions(query.data?.items ?? []);
  const others = items.filter((item) => !item.current).length;

  return (
    <SectionCard title={TEXT.title}>
      <Box sx={{ color: 'text.secondary', typography: 'body2', mb: 1 }}>{TEXT.help}</Box>
      {query.isError ? <Alert severity="warning">{serverMessage(query.error, TEXT.loadFailed)}</Alert> : null}
      {query.isPending ? <Skeleton variant="rounded" height={120} /> : null}
      {query.data ? (
        <List aria-label={TEXT.title} disablePadding>
          {items.map((item) => (
            <SessionRow
              key={item.id}
              item={item}
              pending={endOne.isPending && endOne.variables === item.id}
              onEnd={() => endOne.mutate(item.id)}
            />
          ))}
        </List>
      ) : null}
      {query.data && others === 0 ? (
        <Box sx={{ color: 'text.secondary', typography: 'body2', mt: 1 }}>{TEXT.onlyThis}</Box>
      ) : null}
      {others > 0 ? (
        <Box sx={{ mt: 2, display: 'flex', justifyContent: 'flex-end' }}>
          <Button variant="outlined" color="error" onClick={() => setConfirmAll(true)}>
            {TEXT.endOthers}
          </Button>
        </Box>
      ) : null}
      <ConfirmDialog
        open={confirmAll}
        title={TEXT.endOthersTitle}
        message={TEXT.endOthersBody}
        confirmLabel={TEXT.endOthers}
        destructive
        pending={endAll.isPending}
        onConfirm={() => endAll.mutate()}
        onCancel={() => setConfirmAll(false)}
      />
    </SectionCard>
  );
}

function SessionRow({ item, pending, onEnd }: { item: SessionItem; pending: boolean; onEnd: () => void }) {
  return (
    <ListItem
      divider
      disableGutters
      secondaryAction={
        item.current ? (
          <Chip label={TEXT.thisDevice} color="success" size="small" variant="outlined" />
        ) : (
          <Button
            size="small"
            color="error"
            onClick={onEnd}
            disabled={pending}
            aria-label={TEXT.endLabel(item.device)}
          >
            {TEXT.end}
          </Button>
        )
      }
      sx={{ pr: 12 }}
    >
      <ListItemText
        primary={item.device}
        secondary={
          <>
            {TEXT.signedIn(ago(item.signedInAt), item.ip)}
            <br />
            {TEXT.lastActive(ago(item.lastActiveAt))}
          </>
        }
        slotProps={{ secondary: { title: item.userAgent ?? undefined } }}
      />
    </ListItem>
  );
}
