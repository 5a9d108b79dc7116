import Typography from '@mui/material/Typography';
import { UI_TEXT } from '@parley/domain/messages';
import { routeTo } from '@parley/domain/routes';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { FormCard } from '../../../components/form-card';
import { MessageDialog } from '../../../components/message-dialog';
import { BUTTONS, PAGE_TITLES, SCREEN_TEXT } from '../../../lib/ui-text';
import { requestPasswordReset } from '../api';
import { AuthLinks } from './auth-links';
import { EmailForm } from './email-form';

export function RequestResetPage() {
  const navigate = useNavigate();
  const mutation = useMutation({
    mutationFn: requestPasswordReset,
    // Spec §8: a failed reset request is only logged.
    onError: (error) => console.error('Password reset request failed', error),
  });

  return (
    <FormCard title={PAGE_TITLES.requestReset}>
      <Typography variant="body2" color="text.secondary">
        {SCREEN_TEXT.requestResetHelp}
      </Typography>
      <EmailForm
        submitLabel={BUTTONS.sendResetLink}
        pending={mutation.isPending}
        onSubmit={mutation.mutate}
      />
      <AuthLinks links={[{ to: routeTo('login'), label: UI_TEXT.backToLogin }]} />
      <MessageDialog
        open={mutation.isSuccess}
        title={PAGE_TITLES.checkEmail}
        message={mutation.data?.message ?? ''}
        buttonLabel={UI_TEXT.goToLogin}
        onConfirm={() => navigate(routeTo('login'))}
      />
    </FormCard>
  );
}
