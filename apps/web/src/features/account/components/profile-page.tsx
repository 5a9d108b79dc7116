import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import type { CurrentUser } from '@parley/domain/auth';
import { changePasswordRequest, profileUpdate } from '@parley/domain/school';
import type { z } from '@parley/domain/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { FormAlert } from '../../../components/form-alert';
import { FormTextField } from '../../../components/form-text-field';
import { PageHeading } from '../../../components/page-heading';
import { PageSkeleton } from '../../../components/page-skeleton';
import { SectionCard } from '../../../components/section-card';
import { useSnackbar } from '../../../components/snackbar';
import { TextField } from '../../../components/text-field';
import { serverMessage } from '../../../lib/api-client';
import { alertLines, applyFieldErrors } from '../../../lib/form-errors';
import { useSession } from '../../../lib/session';
import { ACCOUNT_TEXT } from '../../../lib/ui-text';
import { changePassword, profileQuery, updateProfile } from '../api';
import { SessionsCard } from './sessions-card';
import { TwoFactorCard } from './two-factor-card';

type ProfileInput = z.input<typeof profileUpdate>;
type ProfileOutput = z.output<typeof profileUpdate>;
const PROFILE_FIELDS = ['title', 'firstName', 'lastName', 'videoConferenceUrl'] as const;

/** The password form asks for the new password twice. */
export const passwordForm = changePasswordRequest.safeExtend({
  confirmPassword: changePasswordRequest.shape.password,
});
type PasswordInput = z.input<typeof passwordForm>;
type PasswordOutput = z.output<typeof passwordForm>;
const PASSWORD_FIELDS = ['currentPassword', 'password', 'confirmPassword'] as const;
const EMPTY_PASSWORDS: PasswordInput = { currentPassword: '', password: '', confirmPassword: '' };

const toValues = (user: CurrentUser): ProfileInput => ({
  title: user.title ?? '',
  firstName: user.firstName,
  lastName: user.lastName,
  videoConferenceUrl: user.videoConferenceUrl ?? '',
});

/** /profile (every role): title, names, video conference link; the email is shown, not edited. */
export function ProfilePage() {
  const { user } = useSession();
  const query = useQuery({ ...profileQuery(user?.id ?? 0), enabled: Boolean(user) });
  const profile = query.data ?? user;

  return (
    <Stack spacing={2} sx={{ maxWidth: 720 }}>
      <PageHeading>{ACCOUNT_TEXT.profileTitle}</PageHeading>
      {query.isError ? (
        <Alert severity="warning">{serverMessage(query.error, ACCOUNT_TEXT.loadFailed)}</Alert>
      ) : null}
      {profile ? <ProfileForm key={profile.id} user={profile} /> : <PageSkeleton />}
      <PasswordForm />
      <TwoFactorCard />
      <SessionsCard />
    </Stack>
  );
}

function ProfileForm({ user }: { user: CurrentUser }) {
  const showSnackbar = useSnackbar();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isValid, isDirty },
  } = useForm<ProfileInput, unknown, ProfileOutput>({
    resolver: zodResolver(profileUpdate),
    mode: 'onTouched',
    defaultValues: toValues(user),
  });
  const mutation = useMutation({
    mutationFn: (body: ProfileOutput) => updateProfile(user.id, body),
    onSuccess: (saved) => {
      reset(toValues(saved));
      showSnackbar(ACCOUNT_TEXT.saved, 'success');
    },
    onError: (error) => applyFieldErrors(error, setError, PROFILE_FIELDS),
  });

  return (
    <SectionCard title={ACCOUNT_TEXT.profile}>
      <form noValidate onSubmit={handleSubmit((values) => mutation.mutate(values))}>
        <FormAlert
          lines={mutation.isError ? alertLines(mutation.error, PROFILE_FIELDS, ACCOUNT_TEXT.saveFailed) : []}
        />
        <FormTextField
          label={ACCOUNT_TEXT.title}
          registration={register('title')}
          error={errors.title?.message}
          autoComplete="honorific-prefix"
        />
        <FormTextField
          label={ACCOUNT_TEXT.firstName}
          registration={register('firstName')}
          error={errors.firstName?.message}
          autoComplete="given-name"
        />
        <FormTextField
          label={ACCOUNT_TEXT.lastName}
          registration={register('lastName')}
          error={errors.lastName?.message}
          autoComplete="family-name"
        />
        <TextField
          label={ACCOUNT_TEXT.email}
          value={user.email}
          helperText={ACCOUNT_TEXT.emailHelp}
          slotProps={{ input: { readOnly: true } }}
        />
        <FormTextField
          label={ACCOUNT_TEXT.videoConferenceUrl}
          type="url"
          registration={register('videoConferenceUrl')}
          error={errors.videoConferenceUrl?.message}
          helperText={ACCOUNT_TEXT.videoConferenceHelp}
          autoComplete="url"
        />
        <Box sx={{ mt: 2, display: 'flex', justifyContent: 'flex-end' }}>
          <Button type="submit" variant="contained" disabled={!isValid || !isDirty || mutation.isPending}>
            {ACCOUNT_TEXT.save}
          </Button>
        </Box>
      </form>
    </SectionCard>
  );
}

function PasswordForm() {
  const showSnackbar = useSnackbar();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isValid },
  } = useForm<PasswordInput, unknown, PasswordOutput>({
    resolver: zodResolver(passwordForm),
    mode: 'onTouched',
    defaultValues: EMPTY_PASSWORDS,
  });
  const mutation = useMutation({
    mutationFn: changePassword,
    onSuccess: (result) => {
      reset(EMPTY_PASSWORDS);
      showSnackbar(result.message, 'success');
    },
    onError: (error) => applyFieldErrors(error, setError, PASSWORD_FIELDS),
  });

  return (
    <SectionCard title={ACCOUNT_TEXT.passwordTitle}>
      <form noValidate onSubmit={handleSubmit((values) => mutation.mutate(values))}>
        <FormAlert
          lines={
            mutation.isError ? alertLines(mutation.error, PASSWORD_FIELDS, ACCOUNT_TEXT.passwordFailed) : []
          }
        />
        <FormTextField
          label={ACCOUNT_TEXT.currentPassword}
          type="password"
          registration={register('currentPassword')}
          error={errors.currentPassword?.message}
          autoComplete="current-password"
        />
        <FormTextField
          label={ACCOUNT_TEXT.newPassword}
          type="password"
          registration={register('password', { deps: ['confirmPassword'] })}
          error={errors.password?.message}
          autoComplete="new-password"
        />
        <FormTextField
          label={ACCOUNT_TEXT.confirmPassword}
          type="password"
          registration={register('confirmPassword')}
          error={errors.confirmPassword?.message}
          helperText={ACCOUNT_TEXT.passwordHelp}
          autoComplete="new-password"
        />
        <Box sx={{ mt: 2, display: 'flex', justifyContent: 'flex-end' }}>
          <Button type="submit" variant="contained" disabled={!isValid || mutation.isPending}>
            {ACCOUNT_TEXT.changePassword}
          </Button>
        </Box>
      </form>
    </SectionCard>
  );
}
