import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { PAGE_TITLES } from '../../../lib/ui-text';
import { logout } from '../api';

/** /auth/logout: performs the logout, which ends on the login page. */
export function LogoutPage() {
  useEffect(() => {
    void logout();
  }, []);
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center', justifyContent: 'center', py: 4 }}>
      <CircularProgress size={20} />
      <Typography>{PAGE_TITLES.loggingOut}</Typography>
    </Stack>
  );
}
