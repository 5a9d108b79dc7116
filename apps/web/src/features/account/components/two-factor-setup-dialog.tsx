import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { normaliseCode, TOTP_PATTERN, type TwoFactorEnrolment } from '@parley/domain/two-factor';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { FormAlert } from '../../../components/form-alert';
import { TextField } from '../../../components/text-field';
import { useIsMobile } from '../../../components/use-is-mobile';
import { ApiError, serverMessage } from '../../../lib/api-client';
import { TicketQr } from '../../tickets/components/ticket-qr';
import { TWO_FACTOR_TEXT as TEXT } from '../account-text';
import { confirmTwoFactor } from '../api';

type Props = {
  enrolment: TwoFactorEnrolment | null;
  onCancel: () => void;
  onDone: (recoveryCodes: string[]) => void;
};

/** The secret in groups of four, easier to type into an app by hand. */
export const groupedSecret = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

/** Enrolment: the QR code (and the key as text), then a current code from the app turns it on. */
export function TwoFactorSetupDialog({ enrolment, onCancel, onDone }: Props) {
  const titleId = useId();
  const fullScreen = useIsMobile();
  const [code, setCode] = useState('');
  const mutation = useMutation({
    mutationFn: confirmTwoFactor,
    onSuccess: (result) => {
      setCode('');
      onDone(result.recoveryCodes);
    },
  });
  const valid = TOTP_PATTERN.test(normaliseCode(code));
  const fieldError =
    mutation.error instanceof ApiError && mutation.error.errors?.code
      ? mutation.error.errors.code[0]
      : undefined;
  const otherError =
    mutation.isError && !fieldError ? serverMessage(mutation.error, TEXT.confirmFailed) : null;
  const cancel = () => {
    setCode('');
    mutation.reset();
    onCancel();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (valid) mutation.mutate({ code });
  };

  return (
    <Dialog
      open={enrolment !== null}
      onClose={mutation.isPending ? undefined : cancel}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="xs"
      fullScreen={fullScreen}
    >
      <form noValidate onSubmit={submit}>
        <DialogTitle id={titleId}>{TEXT.setUpTitle}</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            <Typography variant="body2">{TEXT.scan}</Typography>
            {enrolment ? (
              <Box sx={{ display: 'flex', justifyContent: 'center' }}>
                <TicketQr text={enrolment.otpauthUri} size={200} label={TEXT.qrLabel} />
              </Box>
            ) : null}
            <Box>
              <Typography variant="body2" color="text.secondary">
                {TEXT.manual}
              </Typography>
              <Typography
                aria-label={TEXT.secretLabel}
                data-secret={enrolment?.secret}
                sx={{ fontFamily: 'monospace', fontSize: '1.05rem', mt: 0.5 }}
              >
                {enrolment ? groupedSecret(enrolment.secret) : ''}
              </Typography>
            </Box>
            <Typography variant="body2">{TEXT.enterCode}</Typography>
            <FormAlert lines={otherError ? [otherError] : []} />
            <TextField
              label={TEXT.code}
              value={code}
              onChange={(event) => {
                setCode(event.target.value);
                if (mutation.isError) mutation.reset();
              }}
              error={Boolean(fieldError)}
              helperText={fieldError ?? ' '}
              autoComplete="one-time-code"
              slotProps={{ htmlInput: { inputMode: 'numeric', pattern: '[0-9 ]*', maxLength: 7 } }}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={cancel} disabled={mutation.isPending}>
            {TEXT.cancel}
          </Button>
          <Button type="submit" variant="contained" disabled={!valid || mutation.isPending}>
            {TEXT.confirm}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
