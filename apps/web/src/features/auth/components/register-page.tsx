import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import Stack from '@mui/material/Stack';
import { type SignupRequest, signupRequest } from '@parley/domain/auth';
import { AUTH_ERRORS, AUTH_TEXT, UI_TEXT, VALIDATION } from '@parley/domain/messages';
import { routeTo } from '@parley/domain/routes';
import type { z } from '@parley/domain/zod';
import { useMutation } from '@tanstack/react-query';
import { useForm, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { FormAlert } from '../../../components/form-alert';
import { FormCard } from '../../../components/form-card';
import { FormTextField } from '../../../components/form-text-field';
import { ApiError, fieldErrorTexts } from '../../../lib/api-client';
import { BUTTONS, LABELS, PAGE_TITLES, SCREEN_TEXT } from '../../../lib/ui-text';
import { signup } from '../api';
import { type EmailCheckStatus, useEmailCheck } from '../use-email-check';
import { AuthLinks } from './auth-links';

type FormInput = z.input<typeof signupRequest>;
type FormOutput = z.output<typeof signupRequest>;
const FIELDS = ['subscriberName', 'firstName', 'lastName', 'email', 'password'] as const;

function registrationErrorLines(error: unknown): string[] {
  const fields = fieldErrorTexts(error);
  if (fields.length > 0) return fields;
  if (error instanceof ApiError && error.status === 429 && error.serverMessage) return [error.serverMessage];
  return [AUTH_ERRORS.registrationFailed];
}

function emailCheckText(status: EmailCheckStatus): { text?: string; error?: string } {
  switch (status) {
    case 'exists':
      return { error: VALIDATION.emailInUse };
    case 'error':
      return { error: VALIDATION.emailCheckFailed };
    case 'checking':
      return { text: SCREEN_TEXT.checkingEmail };
    default:
      return {};
  }
}

export function RegisterPage() {
  const navigate = useNavigate();
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isValid },
  } = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(signupRequest),
    mode: 'onTouched',
    defaultValues: { subscriberName: '', firstName: '', lastName: '', email: '', password: '' },
  });
  const email = useWatch({ control, name: 'email' }) ?? '';
  const emailCheck = useEmailCheck(email);
  const emailHint = emailCheckText(emailCheck);

  const mutation = useMutation({
    mutationFn: async (body: SignupRequest) => {
      const result = await signup(body);
      if (!result.success) throw new ApiError(200, result.message, null);
      return result;
    },
    onError: (error) => {
      if (error instanceof ApiError && error.errors) {
        for (const field of FIELDS) {
          const message = error.errors[field]?.[0];
          if (message) setError(field, { type: 'server', message });
        }
      }
    },
  });

  const onSubmit = handleSubmit((values) => mutation.mutate(values));

  return (
    <FormCard title={PAGE_TITLES.register}>
      <Alert severity="info" sx={{ mb: 1 }}>
        {AUTH_TEXT.registerNote}
      </Alert>
      <form noValidate onSubmit={onSubmit}>
        <Stack>
          <FormAlert lines={mutation.isError ? registrationErrorLines(mutation.error) : []} />
          <FormTextField
            label={LABELS.schoolName}
            autoComplete="organization"
            registration={register('subscriberName')}
            error={errors.subscriberName?.message}
          />
          <FormTextField
            label={LABELS.firstName}
            autoComplete="given-name"
            registration={register('firstName')}
            error={errors.firstName?.message}
          />
          <FormTextField
            label={LABELS.lastName}
            autoComplete="family-name"
            registration={register('lastName')}
            error={errors.lastName?.message}
          />
          <FormTextField
            label={LABELS.email}
            type="email"
            autoComplete="email"
            registration={register('email')}
            error={errors.email?.message ?? emailHint.error}
            helperText={emailHint.text}
          />
          <FormTextField
            label={LABELS.password}
            type="password"
            autoComplete="new-password"
            registration={register('password')}
            error={errors.password?.message}
          />
          <Button
            type="submit"
            variant="contained"
            size="large"
            fullWidth
            disabled={!isValid || emailCheck === 'exists' || mutation.isPending}
            sx={{ mt: 2 }}
          >
            {BUTTONS.register}
          </Button>
        </Stack>
      </form>
      <AuthLinks links={[{ to: routeTo('login'), label: UI_TEXT.backToLogin }]} />
      <Dialog open={mutation.isSuccess} aria-labelledby="register-success-text">
        <DialogContent>
          <DialogContentText id="register-success-text">{AUTH_TEXT.registerSuccess}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button variant="contained" onClick={() => navigate(routeTo('login'))}>
            {UI_TEXT.goToLogin}
          </Button>
        </DialogActions>
      </Dialog>
    </FormCard>
  );
}
