import type { ResetPasswordRequest } from '@parley/domain/auth';
import { AUTH_ERRORS, UI_TEXT } from '@parley/domain/messages';
import { routeTo } from '@parley/domain/routes';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { FormCard } from '../../../components/form-card';
import { MessageDialog } from '../../../components/message-dialog';
import { errorLines } from '../../../lib/api-client';
import { BUTTONS, LABELS, PAGE_TITLES } from '../../../lib/ui-text';
import { useUrlToken } from '../../../lib/url-token';
import { resetPassword } from '../api';
import { AuthLinks } from './auth-links';
import { NewPasswordForm } from './new-password-form';

export function ResetPasswordPage() {
  const navigate = useNavigate();
  // Mailed links carry it; it leaves the address bar once read (a reload still finds it).
  const token = useUrlToken('token') ?? '';
  const mutation = useMutation({
    mutationFn: (body: ResetPasswordRequest) => resetPassword(token, body),
  });

  return (
    <FormCard title={PAGE_TITLES.resetPassword}>
      <NewPasswordForm
        passwordLabel={LABELS.newPassword}
        submitLabel={BUTTONS.reset}
        pending={mutation.isPending}
        errorLines={mutation.isError ? errorLines(mutation.error, AUTH_ERRORS.resetFailed) : []}
        onSubmit={(values) => mutation.mutate(values)}
      />
      <AuthLinks links={[{ to: routeTo('login'), label: UI_TEXT.backToLogin }]} />
      <MessageDialog
        open={mutation.isSuccess}
        title={PAGE_TITLES.passwordReset}
        message={mutation.data?.message ?? ''}
        buttonLabel={UI_TEXT.goToLogin}
        onConfirm={() => navigate(routeTo('login'))}
      />
    </FormCard>
  );
}
