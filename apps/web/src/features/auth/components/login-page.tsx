import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { LoginResponse, loginRequest } from '@parley/domain/auth';
import { AUTH_ERRORS, AUTH_TEXT } from '@parley/domain/messages';
import { routeTo } from '@parley/domain/routes';
import type { z } from '@parley/domain/zod';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import { useColorMode } from '../../../components/color-mode';
import { FormAlert } from '../../../components/form-alert';
import { FormCard } from '../../../components/form-card';
import { FormTextField } from '../../../components/form-text-field';
import { TurnstileWidget } from '../../../components/turnstile-widget';
import { errorLines } from '../../../lib/api-client';
import { lazyResolver } from '../../../lib/lazy-resolver';
import { safeReturnTo } from '../../../lib/navigation';
import { useSiteConfig } from '../../../lib/site-config';
import { BUTTONS, LABELS, LINKS, PAGE_TITLES } from '../../../lib/ui-text';
import { completeLogin, login } from '../api';
import { SECOND_FACTOR_TEXT } from '../second-factor-text';
import { AuthLinks } from './auth-links';
import { SecondFactorStep } from './second-factor-step';

type Schema = ReturnType<typeof loginRequest.omit<{ botCheckToken: true }>>;
type FormInput = z.input<Schema>;
type FormOutput = z.output<Schema>;

// The schema, and zod with it, load after the page: the form's first check (on mount, for isValid) fetches them.
const resolver = lazyResolver<FormInput, unknown, FormOutput>(async () => {
  const [{ zodResolver }, { loginRequest }] = await Promise.all([
    import('@hookform/resolvers/zod'),
    import('@parley/domain/auth'),
  ]);
  return zodResolver(loginRequest.omit({ botCheckToken: true }));
});

export function LoginPage() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const { config } = useSiteConfig();
  const { mode } = useColorMode();
  const siteKey = config.turnstileSiteKey;
  const [botCheckToken, setBotCheckToken] = useState<string | null>(null);
  const [botCheckReset, setBotCheckReset] = useState(0);
  // With two-factor sign-in on, the right password earns a challenge for the second step (decision 015).
  const [challenge, setChallenge] = useState<string | null>(null);
  const [startOverNote, setStartOverNote] = useState<string | null>(null);

  const {
    register,
    handleSubmit,
    resetField,
    formState: { errors, isValid },
  } = useForm<FormInput, unknown, FormOutput>({
    resolver,
    mode: 'onTouched',
    defaultValues: { email: '', password: '' },
  });

  const signedIn = (response: LoginResponse) => {
    completeLogin(response);
    navigate(safeReturnTo(searchParams.get('returnTo')) ?? routeTo('home'), { replace: true });
  };
  const mutation = useMutation({
    mutationFn: login,
    onSuccess: (response) => {
      setStartOverNote(null);
      if ('secondFactorRequired' in response) setChallenge(response.challenge);
      else signedIn(response);
    },
    onError: () => {
      if (siteKey) setBotCheckReset((count) => count + 1); // bot-check tokens are single use
    },
  });

  const onSubmit = handleSubmit((values) =>
    mutation.mutate(botCheckToken ? { ...values, botCheckToken } : values),
  );
  const waitingForBotCheck = Boolean(siteKey) && !botCheckToken;

  if (challenge) {
    return (
      <FormCard title={SECOND_FACTOR_TEXT.title}>
        <SecondFactorStep
          challenge={challenge}
          onDone={signedIn}
          onStartOver={(message) => {
            setChallenge(null);
            setStartOverNote(message ?? null);
            resetField('password');
            mutation.reset();
            if (siteKey) setBotCheckReset((count) => count + 1);
          }}
        />
      </FormCard>
    );
  }

  return (
    <FormCard title={PAGE_TITLES.login}>
      <form noValidate onSubmit={onSubmit}>
        <Stack spacing={1}>
          <FormAlert lines={mutation.isError ? errorLines(mutation.error, AUTH_ERRORS.loginFailed) : []} />
          <FormAlert severity="info" lines={startOverNote ? [startOverNote] : []} />
          <FormTextField
            label={LABELS.email}
            type="email"
            autoComplete="email"
            registration={register('email')}
            error={errors.email?.message}
          />
          <FormTextField
            label={LABELS.password}
            type="password"
            autoComplete="current-password"
            registration={register('password')}
            error={errors.password?.message}
          />
          {siteKey ? (
            <TurnstileWidget
              siteKey={siteKey}
              theme={mode}
              onToken={setBotCheckToken}
              resetKey={botCheckReset}
            />
          ) : null}
          <Button
            type="submit"
            variant="contained"
            size="large"
            fullWidth
            disabled={!isValid || mutation.isPending || waitingForBotCheck}
            sx={{ mt: 1 }}
          >
            {BUTTONS.logIn}
          </Button>
        </Stack>
      </form>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 2, textAlign: 'center' }}>
        {AUTH_TEXT.loginNote}
      </Typography>
      <AuthLinks
        links={[
          { to: routeTo('request-reset'), label: LINKS.resetPassword },
          { to: routeTo('register'), label: LINKS.register },
          { to: routeTo('resend-invitation'), label: LINKS.resendInvitation },
        ]}
      />
    </FormCard>
  );
}
