import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useSnackbar } from '../../../components/snackbar';
import { useIsMobile } from '../../../components/use-is-mobile';
import { TWO_FACTOR_TEXT as TEXT } from '../account-text';
import { recoveryCodesText } from '../security-format';

type Props = { codes: string[] | null; onClose: () => void };

/** The recovery codes, shown once (only their hashes are kept): copy them, then close on purpose. */
export function RecoveryCodesDialog({ codes, onClose }: Props) {
  const titleId = useId();
  const fullScreen = useIsMobile();
  const showSnackbar = useSnackbar();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(recoveryCodesText(codes ?? []));
      showSnackbar(TEXT.copied, 'success');
    } catch {
      // No clipboard (an insecure origin, a refusal): the codes stay on screen to be written down.
    }
  };
  return (
    <Dialog open={codes !== null} aria-labelledby={titleId} fullWidth maxWidth="xs" fullScreen={fullScreen}>
      <DialogTitle id={titleId}>{TEXT.codesTitle}</DialogTitle>
      <DialogContent>
        <Alert severity="warning" sx={{ mb: 2 }}>
          {TEXT.codesHelp}
        </Alert>
        <Box
          component="ul"
          aria-label={TEXT.codesLabel}
          sx={{
            display: 'grid',
            gridTemplateColumns: 'repeat(2, 1fr)',
            gap: 1,
            listStyle: 'none',
            p: 2,
            m: 0,
            borderRadius: 1,
            bgcolor: 'action.hover',
          }}
        >
          {(codes ?? []).map((code) => (
            <Typography key={code} component="li" sx={{ fontFamily: 'monospace', fontSize: '1rem' }}>
              {code}
            </Typography>
          ))}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={copy}>{TEXT.copy}</Button>
        <Button variant="contained" onClick={onClose}>
          {TEXT.saved}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
