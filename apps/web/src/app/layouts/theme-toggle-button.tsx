import DarkModeIcon from '@mui/icons-material/DarkMode';
import LightModeIcon from '@mui/icons-material/LightMode';
import IconButton from '@mui/material/IconButton';
import { useColorMode } from '../../components/color-mode';
import { LazyTooltip } from '../../components/lazy-tooltip';
import { NAV } from '../../lib/ui-text';

/** Light/dark toggle for bars shown to visitors (logged-in users have it in the user menu). */
export function ThemeToggleButton() {
  const { mode, toggle } = useColorMode();
  const label = mode === 'dark' ? NAV.lightMode : NAV.darkMode;
  return (
    <LazyTooltip title={label}>
      <IconButton color="inherit" onClick={toggle} aria-label={label}>
        {mode === 'dark' ? <LightModeIcon /> : <DarkModeIcon />}
      </IconButton>
    </LazyTooltip>
  );
}
