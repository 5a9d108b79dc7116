import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import EditIcon from '@mui/icons-material/Edit';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { EVENT_TEXT, type EventDetail, type EventTypeItem } from '@parley/domain/events';
import { useState } from 'react';
import { SectionCard } from '../../../components/section-card';
import { useSnackbar } from '../../../components/snackbar';
import { serverMessage } from '../../../lib/api-client';
import { EVENTS_TEXT } from '../../../lib/ui-text';
import { afterEventChange, setBookingNotifications, updateEvent } from '../api';
import { DAY_BEFORE_REMINDER_TEXT } from '../day-before-reminder-text';
import { EventFormDialog } from './event-form-dialog';
import { EventStatusChip } from './event-status-chip';

/** Spec §4: the notice of a disabled event (status other than 1), else null. */
export function disabledNoticeFor(event: Pick<EventDetail, 'status'>): string | null {
  return event.status === 1 ? null : EVENT_TEXT.disabledNotice;
}

export function DisabledNotice({ event }: { event: Pick<EventDetail, 'status'> }) {
  const notice = disabledNoticeFor(event);
  return notice ? <Alert severity="warning">{notice}</Alert> : null;
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary" component="p">
        {label}
      </Typography>
      <Typography variant="body2" component="div">
        {children}
      </Typography>
    </Box>
  );
}

type Props = { event: EventDetail; eventTypes: EventTypeItem[] };

/** Status (enable switch), the facts, the booking link, booking notifications, the day-before reminder. */
export function EventDetailsCard({ event, eventTypes }: Props) {
  const showSnackbar = useSnackbar();
  const [editing, setEditing] = useState(false);
  const [busy, setBusy] = useState<'status' | 'notifications' | 'reminder' | null>(null);
  const enabled = event.status === 1;

  /** Saves one change of the event, its answer in the snackbar; the switch waits meanwhile. */
  const save = async (which: NonNullable<typeof busy>, change: () => Promise<{ message: string }>) => {
    setBusy(which);
    try {
      const result = await change();
      showSnackbar(result.message, 'success');
      await afterEventChange(event.id);
    } catch (error) {
      showSnackbar(serverMessage(error, EVENTS_TEXT.saveFailed), 'error');
    } finally {
      setBusy(null);
    }
  };
  const toggleStatus = () => save('status', () => updateEvent(event.id, { status: enabled ? 0 : 1 }));
  const toggleNotifications = () =>
    save('notifications', () => setBookingNotifications(event.id, !event.bookingNotifications));
  const toggleReminder = () =>
    save('reminder', () => updateEvent(event.id, { dayBeforeReminder: !event.dayBeforeReminder }));

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(event.bookingUrl);
      showSnackbar(EVENTS_TEXT.copied, 'success');
    } catch {
      showSnackbar(EVENTS_TEXT.copyFailed, 'warning');
    }
  };

  return (
    <SectionCard
      title={EVENTS_TEXT.details}
      action={
        <Button size="small" startIcon={<EditIcon />} onClick={() => setEditing(true)}>
          {EVENTS_TEXT.editTitle}
        </Button>
      }
    >
      <Stack spacing={2}>
        <Box>
          <FormControlLabel
            control={
              <Switch checked={enabled} onChange={() => void toggleStatus()} disabled={busy === 'status'} />
            }
            label={
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <span>{EVENTS_TEXT.status}</span>
                <EventStatusChip status={event.status} />
              </Stack>
            }
          />
          <Typography variant="body2" color="text.secondary">
            {enabled ? EVENTS_TEXT.statusHelpOn : EVENTS_TEXT.statusHelpOff}
          </Typography>
        </Box>
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, gap: 2 }}>
          <Fact label={EVENTS_TEXT.type_}>{event.eventTypeName}</Fact>
          <Fact label={EVENTS_TEXT.created}>{event.createdAtHuman}</Fact>
          <Fact label={EVENTS_TEXT.opens}>{event.opensAtLabel ?? EVENTS_TEXT.always}</Fact>
          <Fact label={EVENTS_TEXT.closes}>{event.closesAtLabel ?? EVENTS_TEXT.always}</Fact>
        </Box>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <TextField
            label={EVENTS_TEXT.bookingLink}
            value={event.bookingUrl}
            size="small"
            fullWidth
            slotProps={{
              htmlInput: {
                readOnly: true,
                onFocus: (e: React.FocusEvent<HTMLInputElement>) => e.target.select(),
              },
            }}
            helperText={`${EVENTS_TEXT.code}: ${event.code}`}
          />
          <Tooltip title={EVENTS_TEXT.copy}>
            <IconButton aria-label={EVENTS_TEXT.copy} onClick={() => void copy()}>
              <ContentCopyIcon />
            </IconButton>
          </Tooltip>
          <Tooltip title={event.bookingPath}>
            <IconButton
              aria-label="Open booking page"
              href={event.bookingPath}
              target="_blank"
              rel="noopener"
            >
              <OpenInNewIcon />
            </IconButton>
          </Tooltip>
        </Stack>
        <SettingSwitch
          checked={event.bookingNotifications}
          onToggle={() => void toggleNotifications()}
          disabled={busy === 'notifications'}
          label={EVENTS_TEXT.bookingNotifications}
          help={EVENTS_TEXT.bookingNotificationsHelp}
        />
        <SettingSwitch
          checked={event.dayBeforeReminder}
          onToggle={() => void toggleReminder()}
          disabled={busy === 'reminder'}
          label={DAY_BEFORE_REMINDER_TEXT.label}
          help={DAY_BEFORE_REMINDER_TEXT.help}
        />
      </Stack>
      <EventFormDialog
        open={editing}
        onClose={() => setEditing(false)}
        eventTypes={eventTypes}
        editing={{ id: event.id, name: event.name, eventTypeId: event.eventTypeId }}
      />
    </SectionCard>
  );
}

/** A setting of the event saved as it is switched, with a line on what it does. */
function SettingSwitch(props: {
  checked: boolean;
  onToggle: () => void;
  disabled: boolean;
  label: string;
  help: string;
}) {
  return (
    <Box>
      <FormControlLabel
        control={<Switch checked={props.checked} onChange={props.onToggle} disabled={props.disabled} />}
        label={props.label}
      />
      <Typography variant="body2" color="text.secondary">
        {props.help}
      </Typography>
    </Box>
  );
}
