import { createTheme, type Theme } from '@mui/material/styles';
import { BREAKPOINTS } from '@parley/domain/constants';
import type { ColorMode } from '../components/color-mode';

// Spec §9: breakpoints sm 340, md 540, lg 800, xl 1280; dark primary #efefef, success #78c217.

/** Menus open in 300 ms and close in 250 ms (spec §9). */
export const MENU_TRANSITION = { enter: 300, exit: 250 } as const;

export function createAppTheme(mode: ColorMode): Theme {
  return createTheme({
    breakpoints: { values: { ...BREAKPOINTS } },
    palette:
      mode === 'dark'
        ? {
            mode: 'dark',
            primary: { main: '#efefef' },
            success: { main: '#78c217' },
            background: { default: '#121212', paper: '#1c1c1c' },
          }
        : {
            mode: 'light',
            primary: { main: '#1f2933' },
            success: { main: '#78c217' },
            background: { default: '#f4f5f7', paper: '#ffffff' },
          },
    shape: { borderRadius: 8 },
    typography: {
      fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
      button: { textTransform: 'none', fontWeight: 600 },
    },
    components: {
      MuiMenu: { defaultProps: { transitionDuration: MENU_TRANSITION } },
      MuiTextField: { defaultProps: { fullWidth: true, margin: 'normal' } },
    },
  });
}
