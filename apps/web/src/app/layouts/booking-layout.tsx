import HomeIcon from '@mui/icons-material/Home';
import AppBar from '@mui/material/AppBar';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { routeTo } from '@parley/domain/routes';
import { useEffect } from 'react';
import { Outlet, Link as RouterLink } from 'react-router';
import { GlobalProgress } from '../../components/global-progress';
import { useIsMobile } from '../../components/use-is-mobile';
import { clearCurrentUser, useSession } from '../../lib/session';
import { BUTTONS } from '../../lib/ui-text';
import { useAppHeading } from '../use-app-heading';
import { BOTTOM_BAR_HEIGHT, BottomBar, bookingBottomItems } from './bottom-bar';
import { ThemeToggleButton } from './theme-toggle-button';

/** Public booking pages: a Home button; logged-in mobile users also get a bottom bar. */
export function BookingLayout() {
  const isMobile = useIsMobile();
  const heading = useAppHeading();
  const { token, user, loadingAuth } = useSession();
  const showBottomBar = isMobile && token !== null;

  useEffect(() => {
    // Spec §2: if the visitor is not logged in, the current user is cleared.
    if (token === null) clearCurrentUser();
  }, [token]);

  return (
    <>
      <GlobalProgress active={loadingAuth} />
      <AppBar position="sticky" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider' }}>
        {/* Dense on a phone by CSS, not by the JS media query: the prerendered page has the same height. */}
        <Toolbar variant="dense" sx={{ gap: 1, minHeight: { md: 64 } }}>
          <Typography component="div" variant="h6" noWrap sx={{ flexGrow: 1, fontWeight: 700 }}>
            {heading}
          </Typography>
          <Button color="inherit" component={RouterLink} to={routeTo('home')} startIcon={<HomeIcon />}>
            {BUTTONS.home}
          </Button>
          {token ? null : <ThemeToggleButton />}
        </Toolbar>
      </AppBar>
      <Container
        component="main"
        maxWidth="lg"
        sx={{ pt: { xs: 2, md: 3 }, pb: showBottomBar ? `${BOTTOM_BAR_HEIGHT + 24}px` : { xs: 2, md: 3 } }}
      >
        <Outlet />
      </Container>
      {showBottomBar ? <BottomBar items={bookingBottomItems(Boolean(user?.isAdmin))} /> : null}
    </>
  );
}
