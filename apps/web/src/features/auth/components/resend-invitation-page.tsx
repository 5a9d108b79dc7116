import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { emailRequest } from '@parley/domain/auth';
import { AUTH_ERRORS, AUTH_TEXT, UI_TEXT } from '@parley/domain/messages';
import { routeTo } from '@parley/domain/routes';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { FormAlert } from '../../../components/form-alert';
import { FormCard } from '../../../components/form-card';
import { FormTextField } from '../../../components/form-text-field';
import { MessageDialog } from '../../../components/message-dialog';
import { BUTTONS, LABELS, PAGE_TITLES } from '../../../lib/ui-text';
import { resendInvitation } from '../api';
import { AuthLinks } from './auth-links';

type FormInput = z.input<typeof emailRequest>;
type FormOutput = z.output<typeof emailRequest>;

export function ResendInvitationPage() {
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
    mutationFn: resendInvitation,
    onError: (error) => console.error('Resend invitation failed', error),
  });

  return (
    <FormCard title={PAGE_TITLES.resendInvitation}>
      <Typography variant="body2" color="text.secondary">
        {AUTH_TEXT.resendInvitationHelp}
      </Typography>
      <form noValidate onSubmit={handleSubmit((values) => mutation.mutate(values))}>
        <Stack sx={{ mt: 1 }}>
          <FormAlert lines={mutation.isError ? [AUTH_ERRORS.resendInvitationFailed] : []} />
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
            {BUTTONS.resendInvitation}
          </Button>
        </Stack>
      </form>
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
