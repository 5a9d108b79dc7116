import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { ProofRequest } from '@parley/domain/two-factor';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { FormAlert } from '../../../components/form-alert';
import { TextField } from '../../../components/text-field';
import { ApiError, serverMessage } from '../../../lib/api-client';
import { TWO_FACTOR_TEXT as TEXT } from '../account-text';
import { proofOf } from '../api';

type Props<T> = {
  open: boolean;
  title: string;
  help: string;
  confirmLabel: string;
  destructive?: boolean;
  action: (proof: ProofRequest) => Promise<T>;
  onDone: (result: T) => void;
  onCancel: () => void;
};

/** Asks for a current code from the app or the password before turning off or renewing codes. */
export function ProofDialog<T>({
  open,
  title,
  help,
  confirmLabel,
  destructive,
  action,
  onDone,
  onCancel,
}: Props<T>) {
  const titleId = useId();
  const [typed, setTyped] = useState('');
  const mutation = useMutation({
    mutationFn: action,
    onSuccess: (result) => {
      setTyped('');
      onDone(result);
    },
  });
  const errors = mutation.error instanceof ApiError ? mutation.error.errors : undefined;
  const fieldError = errors?.code?.[0] ?? errors?.password?.[0];
  const otherError = mutation.isError && !fieldError ? serverMessage(mutation.error, TEXT.proofFailed) : null;
  const cancel = () => {
    setTyped('');
    mutation.reset();
    onCancel();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (typed) mutation.mutate(proofOf(typed));
  };

  return (
    <Dialog
      open={open}
      onClose={mutation.isPending ? undefined : cancel}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="xs"
    >
      <form noValidate onSubmit={submit}>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{help}</DialogContentText>
          <FormAlert lines={otherError ? [otherError] : []} />
          <TextField
            label={TEXT.proofLabel}
            type="password"
            value={typed}
            onChange={(event) => {
              setTyped(event.target.value);
              if (mutation.isError) mutation.reset();
            }}
            error={Boolean(fieldError)}
            helperText={fieldError ?? ' '}
            autoComplete="current-password"
            fullWidth
            sx={{ mt: 1 }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={cancel} disabled={mutation.isPending}>
            {TEXT.cancel}
          </Button>
          <Button
            type="submit"
            variant="contained"
            color={destructive ? 'error' : 'primary'}
            disabled={!typed || mutation.isPending}
          >
            {confirmLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
