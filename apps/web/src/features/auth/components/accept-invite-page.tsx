import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { SERVER_TEXT, UI_TEXT } from '@parley/domain/messages';
import { ROLE_LABELS, type Role } from '@parley/domain/roles';
import { routeTo } from '@parley/domain/routes';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import { FormCard } from '../../../components/form-card';
import { errorLines, serverMessage } from '../../../lib/api-client';
import { BUTTONS, LABELS, LINKS, PAGE_TITLES, SCREEN_TEXT } from '../../../lib/ui-text';
import { useUrlToken } from '../../../lib/url-token';
import { acceptInviteQuery, setPasswordKindFor } from '../api';
import { AuthLinks } from './auth-links';
import { NewPasswordForm } from './new-password-form';
import { useSetPassword } from './use-set-password';

/** Invitation acceptance (admin, teacher, parent, student): greet, then set a password or log in. */
export function AcceptInvitePage({ inviteRole }: { inviteRole: Role }) {
  // Mailed links carry it; it leaves the address bar once read (a reload still finds it).
  const token = useUrlToken('token') ?? '';
  const query = useQuery({ ...acceptInviteQuery(inviteRole, token), enabled: token !== '' });
  const invitation = query.data;
  const mutation = useSetPassword(invitation ? setPasswordKindFor(invitation.role) : null, token);

  if (!token || query.isError) {
    return (
      <Box sx={{ py: 2 }}>
        <FormCard title={PAGE_TITLES.acceptInvitation}>
          <Alert severity="error">
            {token ? serverMessage(query.error, SERVER_TEXT.tokenInvalid) : SERVER_TEXT.tokenMissing}
          </Alert>
          <AuthLinks
            links={[
              { to: routeTo('resend-invitation'), label: LINKS.resendInvitation },
              { to: routeTo('login'), label: UI_TEXT.backToLogin },
            ]}
          />
        </FormCard>
      </Box>
    );
  }

  if (!invitation) {
    return (
      <Box sx={{ py: 2 }}>
        <FormCard title={PAGE_TITLES.acceptInvitation}>
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
            <CircularProgress size={20} />
            <Typography>{SCREEN_TEXT.loadingInvitation}</Typography>
          </Stack>
        </FormCard>
      </Box>
    );
  }

  return (
    <Box sx={{ py: 2 }}>
      <FormCard title={invitation.subscriberName}>
        <Stack spacing={1}>
          <Typography>{SCREEN_TEXT.inviteGreeting(invitation.firstName)}</Typography>
          <Typography variant="body2" color="text.secondary">
            {SCREEN_TEXT.inviteRole(ROLE_LABELS[invitation.role], invitation.email)}
          </Typography>
          <Alert severity={invitation.needsPassword ? 'info' : 'success'}>{invitation.message}</Alert>
        </Stack>
        {invitation.needsPassword ? (
          <NewPasswordForm
            passwordLabel={LABELS.password}
            submitLabel={BUTTONS.setPassword}
            pending={mutation.isPending}
            errorLines={mutation.isError ? errorLines(mutation.error, SCREEN_TEXT.setPasswordFailed) : []}
            onSubmit={(values) => mutation.mutate(values)}
          />
        ) : (
          <Button component={RouterLink} to={routeTo('login')} variant="contained" fullWidth sx={{ mt: 2 }}>
            {UI_TEXT.goToLogin}
          </Button>
        )}
      </FormCard>
    </Box>
  );
}
