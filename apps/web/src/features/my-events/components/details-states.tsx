import HomeIcon from '@mui/icons-material/Home';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { routeTo } from '@parley/domain/routes';
import { Link as RouterLink } from 'react-router';
import { DETAILS_TEXT } from '../my-events-text';

/** A details page that cannot show its event (no id, or the load failed): why, and the way home. */
export function DetailsProblem({ message }: { message: string }) {
  return (
    <Stack spacing={2} sx={{ maxWidth: 560 }}>
      <Alert severity="warning">{message}</Alert>
      <div>
        <Button variant="outlined" startIcon={<HomeIcon />} component={RouterLink} to={routeTo('home')}>
          {DETAILS_TEXT.home}
        </Button>
      </div>
    </Stack>
  );
}
