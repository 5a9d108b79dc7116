import Container from '@mui/material/Container';
import { Outlet, useLocation } from 'react-router';
import { GlobalProgress } from '../../components/global-progress';
import { useIsMobile } from '../../components/use-is-mobile';
import { useSession } from '../../lib/session';
import { findRoute } from '../route-guard';
import { useAppHeading } from '../use-app-heading';
import { BOTTOM_BAR_HEIGHT, BottomBar, mainBottomItems } from './bottom-bar';
import { MobileHeader } from './mobile-header';
import { WideTopBar } from './wide-top-bar';

/** Main layout: wide top bar, or on mobile a compact header and a bottom bar. */
export function MainLayout() {
  const isMobile = useIsMobile();
  const heading = useAppHeading();
  const { pathname } = useLocation();
  const { token, user, loadingAuth } = useSession();
  const showBottomBar = isMobile && token !== null;

  return (
    <>
      <GlobalProgress active={loadingAuth} />
      {isMobile ? (
        <MobileHeader heading={heading} showBackArrow={Boolean(findRoute(pathname)?.backArrow)} />
      ) : (
        <WideTopBar heading={heading} />
      )}
      <Container
        component="main"
        maxWidth="xl"
        sx={{
          pt: { xs: 2, md: 3 },
          px: { xs: 1.5, md: 3 },
          // Room for the fixed bottom bar. Not combined with a responsive `py`: its xs media rule would win.
          pb: showBottomBar ? `${BOTTOM_BAR_HEIGHT + 24}px` : { xs: 2, md: 3 },
        }}
      >
        <Outlet />
      </Container>
      {showBottomBar ? <BottomBar items={mainBottomItems(Boolean(user?.isAdmin))} /> : null}
    </>
  );
}
