import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { AUTH_ERRORS, AUTH_TEXT, UI_TEXT } from '@parley/domain/messages';
import { routeTo } from '@parley/domain/routes';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { FormCard } from '../../../components/form-card';
import { serverMessage } from '../../../lib/api-client';
import { PAGE_TITLES, SCREEN_TEXT } from '../../../lib/ui-text';
import { useUrlToken } from '../../../lib/url-token';
import { verifyEmailQuery } from '../api';
import { useClearSessionOnOpen } from './use-clear-session-on-open';

export function VerifyEmailPage() {
  useClearSessionOnOpen();
  // Mailed links carry it; it leaves the address bar once read (a reload still finds it).
  const token = useUrlToken('token') ?? '';
  const query = useQuery({ ...verifyEmailQuery(token), enabled: token !== '' });

  let status: ReactNode;
  if (!token) status = <Alert severity="error">{AUTH_ERRORS.verifyEmailNoToken}</Alert>;
  else if (query.isPending) {
    status = (
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <CircularProgress size={20} />
        <Typography>{SCREEN_TEXT.verifying}</Typography>
      </Stack>
    );
  } else if (query.isError) {
    status = <Alert severity="error">{serverMessage(query.error, AUTH_ERRORS.verifyEmailFailed)}</Alert>;
  } else status = <Alert severity="success">{AUTH_TEXT.emailVerified}</Alert>;

  return (
    <FormCard title={PAGE_TITLES.verifyEmail}>
      <Stack spacing={3}>
        {status}
        <Button component={RouterLink} to={routeTo('login')} variant="contained" fullWidth>
          {UI_TEXT.goToLogin}
        </Button>
      </Stack>
    </FormCard>
  );
}
