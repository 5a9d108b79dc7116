import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { type ResetPasswordRequest, resetPasswordRequest } from '@parley/domain/auth';
import type { z } from '@parley/domain/zod';
import { useForm } from 'react-hook-form';
import { FormAlert } from '../../../components/form-alert';
import { FormTextField } from '../../../components/form-text-field';
import { LABELS } from '../../../lib/ui-text';

type FormInput = z.input<typeof resetPasswordRequest>;
type FormOutput = z.output<typeof resetPasswordRequest>;

type Props = {
  passwordLabel: string;
  submitLabel: string;
  pending: boolean;
  errorLines: string[];
  onSubmit: (values: ResetPasswordRequest) => void;
};

/** New password and its confirmation (reset password, set password after an invitation). */
export function NewPasswordForm({ passwordLabel, submitLabel, pending, errorLines, onSubmit }: Props) {
  const {
    register,
    handleSubmit,
    trigger,
    getFieldState,
    formState: { errors, isValid },
  } = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(resetPasswordRequest),
    mode: 'onTouched',
    defaultValues: { password: '', confirmPassword: '' },
  });

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)}>
      <Stack>
        <FormAlert lines={errorLines} />
        <FormTextField
          label={passwordLabel}
          type="password"
          autoComplete="new-password"
          registration={register('password', {
            // Re-check the confirmation only once the person has filled it in: an error under a field
            // they have not reached yet would be noise (and shift the layout under their pointer).
            onChange: () => {
              if (getFieldState('confirmPassword').isTouched) void trigger('confirmPassword');
            },
          })}
          error={errors.password?.message}
        />
        <FormTextField
          label={LABELS.confirmPassword}
          type="password"
          autoComplete="new-password"
          registration={register('confirmPassword')}
          error={errors.confirmPassword?.message}
        />
        <Button
          type="submit"
          variant="contained"
          size="large"
          fullWidth
          disabled={!isValid || pending}
          sx={{ mt: 2 }}
        >
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}
