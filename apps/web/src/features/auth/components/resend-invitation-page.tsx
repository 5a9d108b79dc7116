import Typography from '@mui/material/Typography';
import { AUTH_ERRORS, AUTH_TEXT, UI_TEXT } from '@parley/domain/messages';
import { routeTo } from '@parley/domain/routes';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { FormAlert } from '../../../components/form-alert';
import { FormCard } from '../../../components/form-card';
import { MessageDialog } from '../../../components/message-dialog';
import { BUTTONS, PAGE_TITLES } from '../../../lib/ui-text';
import { resendInvitation } from '../api';
import { AuthLinks } from './auth-links';
import { EmailForm } from './email-form';

export function ResendInvitationPage() {
  const navigate = useNavigate();
  const mutation = useMutation({
    mutationFn: resendInvitation,
    onError: (error) => console.error('Resend invitation failed', error),
  });

  return (
    <FormCard title={PAGE_TITLES.resendInvitation}>
      <Typography variant="body2" color="text.secondary">
        {AUTH_TEXT.resendInvitationHelp}
      </Typography>
      <EmailForm
        submitLabel={BUTTONS.resendInvitation}
        pending={mutation.isPending}
        onSubmit={mutation.mutate}
        status={<FormAlert lines={mutation.isError ? [AUTH_ERRORS.resendInvitationFailed] : []} />}
      />
      <AuthLinks links={[{ to: routeTo('login'), label: UI_TEXT.backToLogin }]} />
      <MessageDialog
        open={mutation.isSuccess}
        title={AUTH_TEXT.invitationSentTitle}
        message={mutation.data?.message ?? ''}
        buttonLabel={UI_TEXT.goToLogin}
        onConfirm={() => navigate(routeTo('login'))}
      />
    </FormCard>
  );
}
