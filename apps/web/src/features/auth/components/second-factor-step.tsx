import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { LoginResponse } from '@parley/domain/auth';
import { normaliseCode, RECOVERY_CODE_LENGTH, TOTP_PATTERN } from '@parley/domain/two-factor';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { FormAlert } from '../../../components/form-alert';
import { TextField } from '../../../components/text-field';
import { ApiError, serverMessage } from '../../../lib/api-client';
import { loginSecondFactor } from '../api';
import { SECOND_FACTOR_TEXT as TEXT } from '../second-factor-text';

type Props = {
  challenge: string;
  onDone: (response: LoginResponse) => void;
  /** The challenge expired or the person wants to start again: back to the password. */
  onStartOver: (message?: string) => void;
};

/** What is wrong with a typed code, or null when it has the shape its kind asks for. */
export function codeProblem(code: string, recovery: boolean): string | null {
  const typed = normaliseCode(code);
  if (recovery) return typed.length === RECOVERY_CODE_LENGTH ? null : TEXT.recoveryFormat;
  return TOTP_PATTERN.test(typed) ? null : TEXT.codeFormat;
}

/** The login's second step: a 6-digit code from the authenticator app, or a recovery code. */
export function SecondFactorStep({ challenge, onDone, onStartOver }: Props) {
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [touched, setTouched] = useState(false);
  const mutation = useMutation({
    mutationFn: loginSecondFactor,
    onSuccess: onDone,
    onError: (error) => {
      // An expired or spent challenge: only a new password step helps.
      if (error instanceof ApiError && error.errors?.challenge) onStartOver(error.errors.challenge[0]);
    },
  });
  const problem = codeProblem(code, recovery);
  const serverError =
    mutation.error instanceof ApiError && mutation.error.errors?.code
      ? mutation.error.errors.code[0]
      : undefined;
  const shownError = (touched && problem) || serverError;
  const otherError = mutation.isError && !serverError ? serverMessage(mutation.error, TEXT.failed) : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!problem) mutation.mutate({ challenge, code });
  };
  const switchKind = () => {
    setRecovery((value) => !value);
    setCode('');
    setTouched(false);
    mutation.reset();
  };

  return (
    <form noValidate onSubmit={submit}>
      <Stack spacing={1.5}>
        <Typography variant="body2" color="text.secondary">
          {recovery ? TEXT.recoveryHelp : TEXT.codeHelp}
        </Typography>
        <FormAlert lines={otherError ? [otherError] : []} />
        <TextField
          key={recovery ? 'recovery' : 'totp'}
          label={recovery ? TEXT.recoveryCode : TEXT.code}
          value={code}
          onChange={(event) => {
            setCode(event.target.value);
            if (mutation.isError) mutation.reset();
          }}
          onBlur={() => setTouched(code !== '')}
          error={Boolean(shownError)}
          helperText={shownError || ' '}
          autoFocus
          autoComplete={recovery ? 'off' : 'one-time-code'}
          slotProps={{
            htmlInput: recovery
              ? { spellCheck: false, autoCapitalize: 'none', maxLength: 20 }
              : { inputMode: 'numeric', pattern: '[0-9 ]*', maxLength: 7 },
          }}
        />
        <Button
          type="submit"
          variant="contained"
          size="large"
          fullWidth
          disabled={Boolean(problem) || mutation.isPending}
        >
          {TEXT.verify}
        </Button>
        <Stack direction="row" sx={{ justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>
          <Link component="button" type="button" variant="body2" onClick={switchKind}>
            {recovery ? TEXT.useApp : TEXT.useRecoveryCode}
          </Link>
          <Link component="button" type="button" variant="body2" onClick={() => onStartOver()}>
            {TEXT.startOver}
          </Link>
        </Stack>
      </Stack>
    </form>
  );
}
