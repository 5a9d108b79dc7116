import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { emailRequest } from '@parley/domain/auth';
import { UI_TEXT } from '@parley/domain/messages';
import { routeTo } from '@parley/domain/routes';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { FormCard } from '../../../components/form-card';
import { FormTextField } from '../../../components/form-text-field';
import { MessageDialog } from '../../../components/message-dialog';
import { BUTTONS, LABELS, PAGE_TITLES, SCREEN_TEXT } from '../../../lib/ui-text';
import { requestPasswordReset } from '../api';
import { AuthLinks } from './auth-links';

type FormInput = z.input<typeof emailRequest>;
type FormOutput = z.output<typeof emailRequest>;

export function RequestResetPage() {
  const navigate = useNavigate();
  const {
    register,
    handleSubmit,
    formState: { errors, isValid },
  } = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(emailRequest),
    mode: 'onTouched',
    defaultValues: { email: '' },
  });
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
      <form noValidate onSubmit={handleSubmit((values) => mutation.mutate(values))}>
        <FormTextField
          label={LABELS.email}
          type="email"
          autoComplete="email"
          registration={register('email')}
          error={errors.email?.message}
        />
        <Button
          type="submit"
          variant="contained"
          size="large"
          fullWidth
          disabled={!isValid || mutation.isPending}
          sx={{ mt: 2 }}
        >
          {BUTTONS.sendResetLink}
        </Button>
      </form>
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
