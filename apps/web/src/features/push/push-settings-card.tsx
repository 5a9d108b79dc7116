import Alert from '@mui/material/Alert';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Switch from '@mui/material/Switch';
import { PUSH_SETTINGS_DEFAULTS } from '@parley/domain/push';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { SectionCard } from '../../components/section-card';
import { useSnackbar } from '../../components/snackbar';
import { api, serverMessage } from '../../lib/api-client';
import { settingsQuery } from '../account/api';
import { currentSubscription, disablePush, enablePush, type PushKind, pushSupported } from './push-api';

// Settings → Push notifications: this device on or off, and which pushes the user gets (the `push` group
// of groupedSettings; every device of the user follows it).

export const PUSH_TEXT = {
  title: 'Push notifications',
  device: 'Push notifications on this device',
  unsupported: 'This browser cannot receive push notifications. Install Parley or use a browser that can.',
  denied: 'Notifications are blocked for Parley. Allow them in your browser or device settings.',
  failed: 'Push notifications could not be changed. Please try again.',
  kinds: {
    bookings: 'Bookings made, changed or cancelled',
    eventOpening: 'Events opening for booking',
    invitations: 'Invitations',
    reminders: 'Reminders: to book, and the day before a booking',
  } satisfies Record<PushKind, string>,
};

const KINDS = Object.keys(PUSH_SETTINGS_DEFAULTS) as PushKind[];
const deviceQueryKey = ['push', 'device'] as const;

export function PushSettingsCard() {
  const client = useQueryClient();
  const showSnackbar = useSnackbar();
  const device = useQuery({
    queryKey: deviceQueryKey,
    queryFn: async () => Boolean(await currentSubscription()),
    enabled: pushSupported(),
  });
  const settings = useQuery({
    queryKey: ['push', 'settings'],
    queryFn: async () => {
      const response = await api.get<{ groupedSettings: Record<string, Record<string, unknown>> }>(
        'users/settings',
      );
      const push = response.groupedSettings.push ?? {};
      return Object.fromEntries(
        KINDS.map((kind) => [
          kind,
          typeof push[kind] === 'boolean' ? push[kind] : PUSH_SETTINGS_DEFAULTS[kind],
        ]),
      ) as Record<PushKind, boolean>;
    },
  });
  const toggleDevice = useMutation({
    mutationFn: async (on: boolean) => {
      if (!on) {
        await disablePush();
        return false;
      }
      // spec §8: permission not granted is only logged (the card says notifications are blocked).
      if (!(await enablePush())) console.warn('push: permission not granted');
      return Boolean(await currentSubscription());
    },
    onSuccess: (on) => client.setQueryData(deviceQueryKey, on),
    onError: (error) => {
      console.warn('push: registration failed', error);
      showSnackbar(serverMessage(error, PUSH_TEXT.failed), 'error');
    },
  });
  const toggleKind = useMutation({
    mutationFn: (change: Partial<Record<PushKind, boolean>>) =>
      api.post('users/update-settings', { push: change }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ['push', 'settings'] });
      await client.invalidateQueries({ queryKey: settingsQuery.queryKey });
    },
    onError: (error) => showSnackbar(serverMessage(error, PUSH_TEXT.failed), 'error'),
  });

  return (
    <SectionCard title={PUSH_TEXT.title}>
      {pushSupported() ? (
        <FormControlLabel
          control={
            <Switch
              checked={device.data === true}
              disabled={toggleDevice.isPending}
              onChange={(event) => toggleDevice.mutate(event.target.checked)}
            />
          }
          label={PUSH_TEXT.device}
        />
      ) : (
        <Alert severity="info" sx={{ mb: 1 }}>
          {PUSH_TEXT.unsupported}
        </Alert>
      )}
      {pushSupported() && Notification.permission === 'denied' && (
        <Alert severity="warning" sx={{ mb: 1 }}>
          {PUSH_TEXT.denied}
        </Alert>
      )}
      {settings.data && (
        <FormGroup>
          {KINDS.map((kind) => (
            <FormControlLabel
              key={kind}
              control={
                <Switch
                  checked={settings.data[kind]}
                  onChange={(event) => toggleKind.mutate({ [kind]: event.target.checked })}
                />
              }
              label={PUSH_TEXT.kinds[kind]}
            />
          ))}
        </FormGroup>
      )}
    </SectionCard>
  );
}
