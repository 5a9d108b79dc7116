import SendIcon from '@mui/icons-material/Send';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { EventDetail, EventMessageType } from '@parley/domain/events';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { SectionCard } from '../../../components/section-card';
import { useSnackbar } from '../../../components/snackbar';
import { serverMessage } from '../../../lib/api-client';
import { EVENTS_TEXT } from '../../../lib/ui-text';
import { sendEventMessage } from '../api';

const TYPE_LABELS: Record<EventMessageType, string> = {
  inviteToBook: EVENTS_TEXT.inviteToBook,
  reminder: EVENTS_TEXT.reminder,
};
type Audience = 'all' | 'notBooked';
const AUDIENCE_LABELS: Record<Audience, string> = {
  all: EVENTS_TEXT.audienceAll,
  notBooked: EVENTS_TEXT.audienceNotBooked,
};

/** "Invite to book" or "Reminder", to all recipients or to those who have not booked yet. */
export function MessagesCard({ event }: { event: EventDetail }) {
  const showSnackbar = useSnackbar();
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
