import DarkModeIcon from '@mui/icons-material/DarkMode';
import LightModeIcon from '@mui/icons-material/LightMode';
import Alert from '@mui/material/Alert';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { SettingsUpdate } from '@parley/domain/school';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type ColorMode, useColorMode } from '../../../components/color-mode';
import { PageHeading } from '../../../components/page-heading';
import { PageSkeleton } from '../../../components/page-skeleton';
import { SectionCard } from '../../../components/section-card';
import { useSnackbar } from '../../../components/snackbar';
import { serverMessage } from '../../../lib/api-client';
import { queryClient } from '../../../lib/query-client';
import { ACCOUNT_TEXT } from '../../../lib/ui-text';
import { PushSettingsCard } from '../../push/push-settings-card';
import { type NotificationKey, type Settings, settingsQuery, updateSettings } from '../api';

const NOTIFICATION_KEYS: NotificationKey[] = [
  'bookingConfirmations',
  'eventReminders',
  'bookingNotifications',
];

/** /settings (every role): theme and notification preferences, grouped; each change saves at once. */
export function SettingsPage() {
  const showSnackbar = useSnackbar();
  const { mode, setMode } = useColorMode();
  const query = useQuery(settingsQuery);

  const mutation = useMutation({
    mutationFn: (body: SettingsUpdate) => updateSettings(body),
    onMutate: async (body) => {
      // Shown at once; put back if the server refuses.
      await queryClient.cancelQueries({ queryKey: settingsQuery.queryKey });
      const previous = queryClient.getQueryData<Settings>(settingsQuery.queryKey);
      if (previous) {
        queryClient.setQueryData<Settings>(settingsQuery.queryKey, {
          notifications: { ...previous.notifications, ...body.notifications },
          display: { ...previous.display, ...body.display },
        });
      }
      return { previous };
    },
    onSuccess: () => showSnackbar(ACCOUNT_TEXT.settingsSaved, 'success'),
    onError: (error, _body, context) => {
      if (context?.previous) queryClient.setQueryData(settingsQuery.queryKey, context.previous);
      showSnackbar(serverMessage(error, ACCOUNT_TEXT.settingsFailed), 'error');
    },
  });

  const chooseTheme = (next: ColorMode | null) => {
    if (!next || next === mode) return;
    setMode(next); // the same state as the theme toggle in the menu
    mutation.mutate({ display: { theme: next } });
  };

  return (
    <Stack spacing={2} sx={{ maxWidth: 720 }}>
      <PageHeading>{ACCOUNT_TEXT.settingsTitle}</PageHeading>
      <SectionCard title={ACCOUNT_TEXT.display}>
        <Typography variant="subtitle2" sx={{ mb: 1 }} id="theme-label">
          {ACCOUNT_TEXT.theme}
        </Typography>
        <ToggleButtonGroup
          exclusive
          value={mode}
          onChange={(_event, next: ColorMode | null) => chooseTheme(next)}
          aria-labelledby="theme-label"
          size="small"
        >
          <ToggleButton value="light" sx={{ px: 2, gap: 1 }}>
            <LightModeIcon fontSize="small" />
            {ACCOUNT_TEXT.light}
          </ToggleButton>
          <ToggleButton value="dark" sx={{ px: 2, gap: 1 }}>
            <DarkModeIcon fontSize="small" />
            {ACCOUNT_TEXT.dark}
          </ToggleButton>
        </ToggleButtonGroup>
      </SectionCard>
      <SectionCard title={ACCOUNT_TEXT.notifications}>
        {query.data ? (
          <FormGroup>
            {NOTIFICATION_KEYS.map((key) => (
              <Stack key={key} sx={{ mb: 1 }}>
                <FormControlLabel
                  control={
                    <Switch
                      checked={query.data.notifications[key]}
                      onChange={(event) =>
                        mutation.mutate({ notifications: { [key]: event.target.checked } })
                      }
                    />
                  }
                  label={ACCOUNT_TEXT.notificationLabels[key]}
                />
                <FormHelperText sx={{ mt: -0.5, ml: 6 }}>{ACCOUNT_TEXT.notificationHelp[key]}</FormHelperText>
              </Stack>
            ))}
          </FormGroup>
        ) : query.isError ? (
          <Alert severity="error">{serverMessage(query.error, ACCOUNT_TEXT.settingsLoadFailed)}</Alert>
        ) : (
          <PageSkeleton />
        )}
      </SectionCard>
      <PushSettingsCard />
    </Stack>
  );
}
