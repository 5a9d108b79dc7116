import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import CreditCardIcon from '@mui/icons-material/CreditCard';
import EventIcon from '@mui/icons-material/Event';
import EventAvailableIcon from '@mui/icons-material/EventAvailable';
import HomeIcon from '@mui/icons-material/Home';
import SchoolIcon from '@mui/icons-material/School';
import BottomNavigation from '@mui/material/BottomNavigation';
import BottomNavigationAction from '@mui/material/BottomNavigationAction';
import GlobalStyles from '@mui/material/GlobalStyles';
import Paper from '@mui/material/Paper';
import { routeTo } from '@parley/domain/routes';
import { Link as RouterLink, useLocation } from 'react-router';
import { NAV } from '../../lib/ui-text';
import { isActive, type NavItem } from './nav-items';

/** Height reserved under the content so the fixed bar never hides it. */
export const BOTTOM_BAR_HEIGHT = 56;

const home: NavItem = { key: 'home', label: NAV.home, to: routeTo('home'), icon: <HomeIcon /> };
const account: NavItem = {
  key: 'account',
  label: NAV.account,
  to: routeTo('profile'),
  icon: <AccountCircleIcon />,
};

/** Main layout on mobile: Home, Events, Current, Teachers (the three admin only) and Account. */
export function mainBottomItems(isAdmin: boolean): NavItem[] {
  const adminItems: NavItem[] = [
    { key: 'events', label: NAV.events, to: routeTo('events'), icon: <EventIcon /> },
    { key: 'current', label: NAV.current, to: routeTo('events.current'), icon: <EventAvailableIcon /> },
    { key: 'teachers', label: NAV.teachers, to: routeTo('teachers'), icon: <SchoolIcon /> },
  ];
  return [home, ...(isAdmin ? adminItems : []), account];
}

/** Booking layout on mobile (logged in): Home and Account, plus Billing for admins. */
export function bookingBottomItems(isAdmin: boolean): NavItem[] {
  const billing: NavItem = {
    key: 'billing',
    label: NAV.billing,
    to: routeTo('billing'),
    icon: <CreditCardIcon />,
  };
  return [home, account, ...(isAdmin ? [billing] : [])];
}

function currentKey(items: NavItem[], pathname: string): string | false {
  // The most specific match wins (/events/view/id=current is "Current", not "Events").
  const matches = items.filter((item) => isActive(item, pathname));
  matches.sort((a, b) => b.to.length - a.to.length);
  return matches[0]?.key ?? false;
}

export function BottomBar({ items }: { items: NavItem[] }) {
  const { pathname } = useLocation();
  return (
    <>
      {/* Focus and scroll-into-view keep a field or button clear of the fixed bar, not under it. */}
      <GlobalStyles styles={{ html: { scrollPaddingBottom: BOTTOM_BAR_HEIGHT + 16 } }} />
      <Paper
        component="nav"
        aria-label="Bottom navigation"
        elevation={8}
        sx={{ position: 'fixed', left: 0, right: 0, bottom: 0, zIndex: (theme) => theme.zIndex.appBar }}
      >
        <BottomNavigation showLabels value={currentKey(items, pathname)} sx={{ height: BOTTOM_BAR_HEIGHT }}>
          {items.map((item) => (
            <BottomNavigationAction
              key={item.key}
              value={item.key}
              label={item.label}
              icon={item.icon}
              component={RouterLink}
              to={item.to}
              // Shares the width at any text size (200 % text must not push the bar off screen).
              sx={{
                minWidth: 0,
                px: 0.5,
                '& .MuiBottomNavigationAction-label': { overflowWrap: 'anywhere', textAlign: 'center' },
              }}
            />
          ))}
        </BottomNavigation>
      </Paper>
    </>
  );
}
