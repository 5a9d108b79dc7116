import SendIcon from '@mui/icons-material/Send';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { EventDetail, EventMessageType } from '@parley/domain/events';
import type { JobProgress } from '@parley/domain/jobs';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { SectionCard } from '../../../components/section-card';
import { useSnackbar } from '../../../components/snackbar';
import { serverMessage } from '../../../lib/api-client';
import { EVENTS_TEXT } from '../../../lib/ui-text';
import { eventJobsQuery, sendEventMessage } from '../api';

const TYPE_LABELS: Record<EventMessageType, string> = {
  inviteToBook: EVENTS_TEXT.inviteToBook,
  reminder: EVENTS_TEXT.reminder,
};
type Audience = 'all' | 'notBooked';
const AUDIENCE_LABELS: Record<Audience, string> = {
  all: EVENTS_TEXT.audienceAll,
  notBooked: EVENTS_TEXT.audienceNotBooked,
};

/**
 * The event's messages still being sent (a district's, decision 037), each with its bar; says so once one
 * this page watched has ended. A school's message is sent before the answer and never shows here.
 */
function SendingJobs({ eventId }: { eventId: number }) {
  const showSnackbar = useSnackbar();
  const items = useQuery(eventJobsQuery(eventId)).data?.items;
  const watched = useRef(new Set<number>());
  useEffect(() => {
    for (const job of items ?? []) {
      if (job.status === 'running') watched.current.add(job.id);
      else if (watched.current.delete(job.id))
        showSnackbar(job.message, job.status === 'done' ? 'success' : 'error');
    }
  }, [items, showSnackbar]);
  const jobs = items ?? [];
  const running = jobs.filter((job) => job.status === 'running');
  const failed = jobs.filter((job) => job.status === 'failed');
  if (running.length === 0 && failed.length === 0) return null;
  return (
    <Stack spacing={1.5} sx={{ mb: 2 }}>
      {running.map((job) => (
        <Box key={job.id}>
          <Typography variant="body2">{job.message}</Typography>
          <LinearProgress
            variant="determinate"
            value={percentOf(job)}
            aria-label={EVENTS_TEXT.sendingProgress}
            sx={{ my: 0.5 }}
          />
          <Typography variant="caption" color="text.secondary">
            {EVENTS_TEXT.sendingGoesOn}
          </Typography>
        </Box>
      ))}
      {failed.map((job) => (
        <Alert key={job.id} severity="warning">
          {job.message}
        </Alert>
      ))}
    </Stack>
  );
}

const percentOf = (job: JobProgress) => (job.total > 0 ? Math.min(100, (job.done / job.total) * 100) : 0);

/** "Invite to book" or "Reminder", to all recipients or to those who have not booked yet. */
export function MessagesCard({ event }: { event: EventDetail }) {
  const showSnackbar = useSnackbar();
  const queryClient = useQueryClient();
  const [type, setType] = useState<EventMessageType>('inviteToBook');
  const [audience, setAudience] = useState<Audience>('all');
  const [asking, setAsking] = useState(false);
  const [sending, setSending] = useState(false);

  const send = async () => {
    setSending(true);
    try {
      const result = await sendEventMessage(event.id, type, audience);
      showSnackbar(result.message, 'success');
      setAsking(false);
      // The rest goes on after the answer: the card shows how far it has got.
      if (result.job) await queryClient.invalidateQueries(eventJobsQuery(event.id));
    } catch (error) {
      showSnackbar(serverMessage(error, EVENTS_TEXT.sendFailed), 'error');
    } finally {
      setSending(false);
    }
  };

  return (
    <SectionCard title={EVENTS_TEXT.messages}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {EVENTS_TEXT.messagesHelp}
      </Typography>
      <SendingJobs eventId={event.id} />
      {event.status !== 1 ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          {EVENTS_TEXT.disabledNoSend}
        </Alert>
      ) : null}
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'center' } }}>
        <TextField
          select
          size="small"
          label={EVENTS_TEXT.messageType}
          value={type}
          onChange={(e) => setType(e.target.value as EventMessageType)}
          sx={{ minWidth: 180 }}
        >
          {Object.entries(TYPE_LABELS).map(([value, label]) => (
            <MenuItem key={value} value={value}>
              {label}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label={EVENTS_TEXT.audience}
          value={audience}
          onChange={(e) => setAudience(e.target.value as Audience)}
          sx={{ minWidth: 260 }}
        >
          {Object.entries(AUDIENCE_LABELS).map(([value, label]) => (
            <MenuItem key={value} value={value}>
              {label}
            </MenuItem>
          ))}
        </TextField>
        <Box>
          <Button
            variant="contained"
            startIcon={<SendIcon />}
            onClick={() => setAsking(true)}
            disabled={event.status !== 1 || event.recipientCount === 0}
          >
            {EVENTS_TEXT.send}
          </Button>
        </Box>
      </Stack>
      <ConfirmDialog
        open={asking}
        title={EVENTS_TEXT.sendTitle}
        message={EVENTS_TEXT.sendText(TYPE_LABELS[type], AUDIENCE_LABELS[audience])}
        confirmLabel={EVENTS_TEXT.send}
        pending={sending}
        onCancel={() => setAsking(false)}
        onConfirm={() => void send()}
      />
    </SectionCard>
  );
}
