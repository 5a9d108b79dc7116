import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { type EmailRequest, emailRequest } from '@parley/domain/auth';
import type { z } from '@parley/domain/zod';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { FormTextField } from '../../../components/form-text-field';
import { LABELS } from '../../../lib/ui-text';

type Props = {
  submitLabel: string;
  pending: boolean;
  onSubmit: (values: EmailRequest) => void;
  /** Shown above the field: the outcome of the last submit. */
  status?: ReactNode;
  variant?: 'contained' | 'outlined';
};

/** One email field and a submit button: request reset, resend invitation, resend verification. */
export function EmailForm({ submitLabel, pending, onSubmit, status, variant = 'contained' }: Props) {
  const {
    register,
    handleSubmit,
    formState: { errors, isValid },
  } = useForm<z.input<typeof emailRequest>, unknown, z.output<typeof emailRequest>>({
    resolver: zodResolver(emailRequest),
    mode: 'onTouched',
    defaultValues: { email: '' },
  });
  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)}>
      <Stack sx={{ mt: 1 }}>
        {status}
        <FormTextField
          label={LABELS.email}
          type="email"
          autoComplete="email"
          registration={register('email')}
          error={errors.email?.message}
        />
        <Button
          type="submit"
          variant={variant}
          size={variant === 'contained' ? 'large' : 'medium'}
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
