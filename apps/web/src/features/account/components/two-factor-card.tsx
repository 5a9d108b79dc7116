import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { TwoFactorEnrolment, TwoFactorStatus } from '@parley/domain/two-factor';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { SectionCard } from '../../../components/section-card';
import { useSnackbar } from '../../../components/snackbar';
import { serverMessage } from '../../../lib/api-client';
import { TWO_FACTOR_TEXT as TEXT } from '../account-text';
import { renewRecoveryCodes, startTwoFactor, turnOffTwoFactor, twoFactorQuery } from '../api';
import { ProofDialog } from './proof-dialog';
import { RecoveryCodesDialog } from './recovery-codes-dialog';
import { TwoFactorSetupDialog } from './two-factor-setup-dialog';

/** Fewer left than this: the card suggests new ones. */
const FEW_CODES = 3;

/** Two-factor sign-in on the profile: admins turn it on; whoever has it renews codes or turns it off. */
export function TwoFactorCard() {
  const query = useQuery(twoFactorQuery);
  const status = query.data;
  if (query.isError)
    return (
      <SectionCard title={TEXT.title}>
        <Alert severity="warning">{serverMessage(query.error, TEXT.loadFailed)}</Alert>
      </SectionCard>
    );
  if (!status || (!status.available && !status.enabled)) return null;
  return <TwoFactorSettings status={status} />;
}

function TwoFactorSettings({ status }: { status: TwoFactorStatus }) {
  const showSnackbar = useSnackbar();
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [proof, setProof] = useState<'off' | 'codes' | null>(null);
  const start = useMutation({
    mutationFn: startTwoFactor,
    onSuccess: setEnrolment,
    onError: (error) => showSnackbar(serverMessage(error, TEXT.startFailed), 'error'),
  });

  return (
    <SectionCard
      title={TEXT.title}
      action={
        <Chip
          label={status.enabled ? TEXT.on : TEXT.off}
          color={status.enabled ? 'success' : 'default'}
          size="small"
          variant="outlined"
        />
      }
    >
      {status.enabled ? (
        <Stack spacing={1}>
          <Typography variant="body2">
            {TEXT.onHelp(status.enabledAtLabel ?? '', status.recoveryCodesLeft)}
          </Typography>
          {status.recoveryCodesLeft < FEW_CODES ? <Alert severity="warning">{TEXT.fewLeft}</Alert> : null}
          <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1, flexWrap: 'wrap' }}>
            <Button variant="outlined" onClick={() => setProof('codes')}>
              {TEXT.newCodes}
            </Button>
            <Button variant="outlined" color="error" onClick={() => setProof('off')}>
              {TEXT.turnOff}
            </Button>
          </Box>
        </Stack>
      ) : (
        <Stack spacing={1}>
          <Typography variant="body2" color="text.secondary">
            {TEXT.offHelp}
          </Typography>
          <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
            <Button variant="contained" onClick={() => start.mutate()} disabled={start.isPending}>
              {start.isPending ? TEXT.starting : TEXT.turnOn}
            </Button>
          </Box>
        </Stack>
      )}
      <TwoFactorSetupDialog
        enrolment={enrolment}
        onCancel={() => setEnrolment(null)}
        onDone={(recoveryCodes) => {
          setEnrolment(null);
          setCodes(recoveryCodes);
        }}
      />
      <RecoveryCodesDialog codes={codes} onClose={() => setCodes(null)} />
      <ProofDialog
        open={proof === 'codes'}
        title={TEXT.proofTitleCodes}
        help={TEXT.proofHelpCodes}
        confirmLabel={TEXT.newCodes}
        action={renewRecoveryCodes}
        onDone={(result) => {
          setProof(null);
          setCodes(result.recoveryCodes);
        }}
        onCancel={() => setProof(null)}
      />
      <ProofDialog
        open={proof === 'off'}
        title={TEXT.proofTitleOff}
        help={TEXT.proofHelpOff}
        confirmLabel={TEXT.turnOff}
        destructive
        action={turnOffTwoFactor}
        onDone={(result) => {
          setProof(null);
          showSnackbar(result.message, 'success');
        }}
        onCancel={() => setProof(null)}
      />
    </SectionCard>
  );
}
