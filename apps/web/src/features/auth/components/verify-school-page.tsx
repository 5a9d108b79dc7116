import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { AUTH_ERRORS, AUTH_TEXT, UI_TEXT } from '@parley/domain/messages';
import { routeTo } from '@parley/domain/routes';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link as RouterLink } from 'react-router';
import { FormCard } from '../../../components/form-card';
import { useSnackbar } from '../../../components/snackbar';
import { ApiError } from '../../../lib/api-client';
import { useSiteConfig } from '../../../lib/site-config';
import { BUTTONS, LINKS, PAGE_TITLES, SCREEN_TEXT } from '../../../lib/ui-text';
import { useUrlToken } from '../../../lib/url-token';
import { resendSchoolVerification, verifySchoolQuery } from '../api';
import { AuthLinks } from './auth-links';
import { EmailForm } from './email-form';
import { useClearSessionOnOpen } from './use-clear-session-on-open';

/** Spec §8: the server's message or error field, else the fallback. */
function verifySchoolError(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  if (error.serverMessage) return error.serverMessage;
  const body = error.body as { error?: unknown } | null;
  return typeof body?.error === 'string' && body.error ? body.error : null;
}

function ResendVerificationForm() {
  const showSnackbar = useSnackbar();
  const mutation = useMutation({
    mutationFn: resendSchoolVerification,
    onSuccess: (result) => showSnackbar(result.message, 'success'),
    onError: (error) => {
      console.error('Resend school verification failed', error);
      showSnackbar(AUTH_ERRORS.resendVerificationSnackbar, 'error');
    },
  });
  return (
    <>
      <Typography variant="body2" color="text.secondary">
        {SCREEN_TEXT.resendVerificationHelp}
      </Typography>
      <EmailForm
        submitLabel={BUTTONS.resendVerification}
        pending={mutation.isPending}
        onSubmit={mutation.mutate}
        variant="outlined"
        status={
          <>
            {mutation.isSuccess ? <Alert severity="success">{mutation.data.message}</Alert> : null}
            {mutation.isError ? <Alert severity="error">{AUTH_ERRORS.resendVerificationFailed}</Alert> : null}
          </>
        }
      />
    </>
  );
}

export function VerifySchoolPage() {
  useClearSessionOnOpen();
  const showSnackbar = useSnackbar();
  const { config } = useSiteConfig();
  // Mailed links carry it; it leaves the address bar once read (a reload still finds it).
  const token = useUrlToken('token') ?? '';
  const query = useQuery({ ...verifySchoolQuery(token), enabled: token !== '' });

  const errorText = !token
    ? AUTH_ERRORS.verifySchoolNoToken
    : query.isError
      ? (verifySchoolError(query.error) ?? AUTH_ERRORS.verifySchoolFailed)
      : null;

  const snackbarShown = useRef(false);
  useEffect(() => {
    if (!errorText || snackbarShown.current) return;
    snackbarShown.current = true;
    // Spec §8: the snackbar shows the server's error, else "Verification failed".
    showSnackbar(verifySchoolError(query.error) ?? AUTH_ERRORS.verifySchoolSnackbar, 'error');
  }, [errorText, query.error, showSnackbar]);

  return (
    <FormCard title={PAGE_TITLES.verifySchool}>
      <Stack spacing={2}>
        {token && query.isPending ? (
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
            <CircularProgress size={20} />
            <Typography>{SCREEN_TEXT.verifying}</Typography>
          </Stack>
        ) : null}
        {query.isSuccess ? (
          <>
            <Alert severity="success">{AUTH_TEXT.schoolVerified(config.appName)}</Alert>
            <Button component={RouterLink} to={routeTo('login')} variant="contained" fullWidth>
              {BUTTONS.goToLoginCapital}
            </Button>
          </>
        ) : null}
        {errorText ? (
          <>
            <Alert severity="error">{errorText}</Alert>
            <Divider />
            <ResendVerificationForm />
          </>
        ) : null}
      </Stack>
      <AuthLinks
        links={[
          { to: routeTo('home'), label: LINKS.home },
          { to: routeTo('register'), label: UI_TEXT.needToRegister },
        ]}
      />
    </FormCard>
  );
}
