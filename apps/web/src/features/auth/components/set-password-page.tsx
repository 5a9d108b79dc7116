import { routeTo } from '@parley/domain/routes';
import { FormCard } from '../../../components/form-card';
import { errorLines } from '../../../lib/api-client';
import { BUTTONS, LABELS, LINKS, PAGE_TITLES, SCREEN_TEXT } from '../../../lib/ui-text';
import { useUrlToken } from '../../../lib/url-token';
import type { SetPasswordKind } from '../api';
import { AuthLinks } from './auth-links';
import { NewPasswordForm } from './new-password-form';
import { useSetPassword } from './use-set-password';

/** /auth/set-new-password and /auth/set-teacher-password: the token comes in the query string. */
export function SetPasswordPage({ kind }: { kind: Extract<SetPasswordKind, 'new' | 'teacher'> }) {
  // Mailed links carry it; it leaves the address bar once read (a reload still finds it).
  const token = useUrlToken('token') ?? '';
  const mutation = useSetPassword(kind, token);
  return (
    <FormCard title={PAGE_TITLES.setPassword}>
      <NewPasswordForm
        passwordLabel={LABELS.password}
        submitLabel={BUTTONS.setPassword}
        pending={mutation.isPending}
        errorLines={mutation.isError ? errorLines(mutation.error, SCREEN_TEXT.setPasswordFailed) : []}
        onSubmit={(values) => mutation.mutate(values)}
      />
      <AuthLinks links={[{ to: routeTo('resend-invitation'), label: LINKS.resendInvitation }]} />
    </FormCard>
  );
}
