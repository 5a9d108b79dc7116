import DarkModeIcon from '@mui/icons-material/DarkMode';
import LightModeIcon from '@mui/icons-material/LightMode';
import LogoutIcon from '@mui/icons-material/Logout';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { UI_TEXT } from '@parley/domain/messages';
import { ROLE_LABELS } from '@parley/domain/roles';
import { useNavigate } from 'react-router';
import { useColorMode } from '../../components/color-mode';
import { updateSettings } from '../../features/account/api';
import { logout } from '../../features/auth/api';
import { useSession } from '../../lib/session';
import { NAV } from '../../lib/ui-text';
import { MENU_TRANSITION } from '../theme';
import { USER_MENU_ITEMS, visibleItems } from './nav-items';

type Props = {
  id: string;
  anchorEl: HTMLElement | null;
  onClose: () => void;
  isMobile: boolean;
};

/**
 * The user menu (wide) and overflow menu (mobile): who is logged in (first and last name, email,
 * role), the profile entries, the theme toggle and Logout; on mobile also "Version 1.0.5".
 */
export function UserMenu({ id, anchorEl, onClose, isMobile }: Props) {
  const navigate = useNavigate();
  const { user } = useSession();
  const { mode, toggle } = useColorMode();
  const items = visibleItems(USER_MENU_ITEMS, { isAdmin: Boolean(user?.isAdmin), isMobile });

  return (
    <Menu
      id={id}
      anchorEl={anchorEl}
      open={anchorEl !== null}
      onClose={onClose}
      transitionDuration={MENU_TRANSITION}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      slotProps={{ paper: { sx: { minWidth: 240 } } }}
    >
      {user ? (
        // role="none": a menu holds only menu items and separators (axe aria-required-children); the
        // name, email and role are still read as text.
        <ListSubheader role="none" disableSticky sx={{ lineHeight: 1.5, py: 1, bgcolor: 'transparent' }}>
          <Typography component="span" sx={{ display: 'block', fontWeight: 600, color: 'text.primary' }}>
            {user.firstName} {user.lastName}
          </Typography>
          <Typography component="span" variant="body2" sx={{ display: 'block' }}>
            {user.email}
          </Typography>
          <Typography component="span" variant="caption" sx={{ display: 'block' }}>
            {user.role ? ROLE_LABELS[user.role] : ''}
          </Typography>
        </ListSubheader>
      ) : null}
      {user ? <Divider /> : null}
      {items.map((item) => (
        <MenuItem
          key={item.key}
          onClick={() => {
            onClose();
            navigate(item.to);
          }}
        >
          <ListItemIcon>{item.icon}</ListItemIcon>
          <ListItemText>{item.label}</ListItemText>
        </MenuItem>
      ))}
      <Divider />
      <MenuItem
        onClick={() => {
          toggle();
          // The choice follows the user to other devices (Settings shows the same toggle).
          if (user) {
            updateSettings({ display: { theme: mode === 'dark' ? 'light' : 'dark' } }).catch(
              (error: unknown) => console.warn('Could not save the theme', error),
            );
          }
        }}
      >
        <ListItemIcon>{mode === 'dark' ? <LightModeIcon /> : <DarkModeIcon />}</ListItemIcon>
        <ListItemText>{mode === 'dark' ? NAV.lightMode : NAV.darkMode}</ListItemText>
      </MenuItem>
      <MenuItem
        onClick={() => {
          onClose();
          void logout();
        }}
      >
        <ListItemIcon>
          <LogoutIcon />
        </ListItemIcon>
        <ListItemText>{NAV.logout}</ListItemText>
      </MenuItem>
      {isMobile ? <Divider /> : null}
      {isMobile ? (
        <ListSubheader role="none" disableSticky sx={{ lineHeight: 2.5, bgcolor: 'transparent' }}>
          {UI_TEXT.version}
        </ListSubheader>
      ) : null}
    </Menu>
  );
}
