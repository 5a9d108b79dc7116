import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { routeTo } from '@parley/domain/routes';
import { useState } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import { useSession } from '../../lib/session';
import { NAV } from '../../lib/ui-text';
import { isActive, TOP_BAR_ITEMS, visibleItems } from './nav-items';
import { ThemeToggleButton } from './theme-toggle-button';
import { UserMenu } from './user-menu';

const MENU_ID = 'user-menu';

/** Wide screens: heading, Home (+ admin sections) and the user menu. */
export function WideTopBar({ heading }: { heading: string }) {
  const { pathname } = useLocation();
  const { token, user } = useSession();
  const [anchorEl, setAnchorEl] = useState<HTMLElement | null>(null);
  const items = token
    ? visibleItems(TOP_BAR_ITEMS, { isAdmin: Boolean(user?.isAdmin), isMobile: false })
    : [];

  return (
    <AppBar position="sticky" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider' }}>
      <Toolbar sx={{ gap: 1 }}>
        <Typography
          component={RouterLink}
          to={routeTo('home')}
          variant="h6"
          noWrap
          sx={{ color: 'inherit', textDecoration: 'none', fontWeight: 700, mr: 2, maxWidth: 320 }}
        >
          {heading}
        </Typography>
        <Box component="nav" aria-label="Main" sx={{ display: 'flex', gap: 0.5, flexGrow: 1 }}>
          {items.map((item) => {
            const active = isActive(item, pathname);
            return (
              <Button
                key={item.key}
                component={RouterLink}
                to={item.to}
                color="inherit"
                aria-current={active ? 'page' : undefined}
                sx={{
                  opacity: active ? 1 : 0.8,
                  borderBottom: 2,
                  borderColor: active ? 'currentColor' : 'transparent',
                  borderRadius: 0,
                }}
              >
                {item.label}
              </Button>
            );
          })}
        </Box>
        {token ? (
          <>
            <Button
              color="inherit"
              startIcon={<AccountCircleIcon />}
              // The visible first name starts the accessible name (WCAG 2.5.3, label in name).
              aria-label={user?.firstName ? `${user.firstName}, ${NAV.userMenu}` : NAV.userMenu}
              aria-controls={anchorEl ? MENU_ID : undefined}
              aria-haspopup="true"
              aria-expanded={anchorEl ? 'true' : undefined}
              onClick={(event) => setAnchorEl(event.currentTarget)}
            >
              {user?.firstName ?? ''}
            </Button>
            <UserMenu id={MENU_ID} anchorEl={anchorEl} onClose={() => setAnchorEl(null)} isMobile={false} />
          </>
        ) : (
          <ThemeToggleButton />
        )}
      </Toolbar>
    </AppBar>
  );
}
