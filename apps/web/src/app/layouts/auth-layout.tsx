import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { Outlet } from 'react-router';
import { GlobalProgress } from '../../components/global-progress';
import { useSession } from '../../lib/session';
import { useAppHeading } from '../use-app-heading';
import { ThemeToggleButton } from './theme-toggle-button';

/** Authentication pages: centred content, a thin progress bar while authentication loads. */
export function AuthLayout() {
  const { loadingAuth } = useSession();
  const heading = useAppHeading();
  return (
    <Box sx={{ minHeight: '100dvh', display: 'flex', flexDirection: 'column' }}>
      <GlobalProgress active={loadingAuth} label={loadingAuth ? 'Checking your session' : undefined} />
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', p: 1 }}>
        <ThemeToggleButton />
      </Box>
      <Box
        component="main"
        sx={{
          flexGrow: 1,
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'center',
          justifyContent: 'center',
          px: { xs: 1.5, md: 3 },
          pb: { xs: 3, md: 6 },
        }}
      >
        <Typography
          component="h1"
          variant="h4"
          sx={{ fontWeight: 700, mb: { xs: 2, md: 3 }, textAlign: 'center' }}
        >
          {heading}
        </Typography>
        <Outlet />
      </Box>
    </Box>
  );
}
