import { createTheme, type Theme } from '@mui/material/styles';
import { BREAKPOINTS } from '@parley/domain/constants';
import type { ColorMode } from '../components/color-mode';
import { PRERENDERED } from './prerendered';

// Spec §9: breakpoints sm 340, md 540, lg 800, xl 1280; dark primary #efefef, success #78c217.
// The light theme darkens success, warning, info and error so text in them keeps 4.5:1 on white and on
// the grey page (WCAG 1.4.3; #78c217 on white is 2.2:1). Decision 020.

/** Asked for by the device: no transitions and no finite animations (WCAG 2.3.3, decision 020). */
const REDUCED_MOTION = '@media (prefers-reduced-motion: reduce)';

function prefersReducedMotion(): boolean {
  return typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
}

/** Menus open in 300 ms and close in 250 ms (spec §9). */
export const MENU_TRANSITION = { enter: 300, exit: 250 } as const;

export function createAppTheme(mode: ColorMode): Theme {
  // One focus ring for every control reached by the keyboard, in the text colour of the theme (at least
  // 3:1 against the page in both), outside the control so a filled button keeps it (WCAG 2.4.7).
  const ring = `2px solid ${mode === 'dark' ? '#efefef' : '#1f2933'}`;
  return createTheme({
    breakpoints: { values: { ...BREAKPOINTS } },
    palette:
      mode === 'dark'
        ? {
            mode: 'dark',
            primary: { main: '#efefef' },
            success: { main: '#78c217' },
            // A lighter red than MUI's #f44336: its text keeps 4.5:1 on the dark papers, and filled
            // chips take dark text on it.
            error: { main: '#f28b82' },
            background: { default: '#121212', paper: '#1c1c1c' },
          }
        : {
            mode: 'light',
            primary: { main: '#1f2933' },
            success: { main: '#3d7a0a' },
            warning: { main: '#a84e00' },
            info: { main: '#01579b' },
            error: { main: '#c62828' },
            background: { default: '#f4f5f7', paper: '#ffffff' },
          },
    shape: { borderRadius: 8 },
    typography: {
      fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
      button: { textTransform: 'none', fontWeight: 600 },
    },
    // JavaScript-timed transitions (Collapse, Grow) end at once too; the CSS below covers a change of mind.
    ...(prefersReducedMotion() && { transitions: { create: () => 'none' } }),
    components: {
      MuiCssBaseline: {
        styleOverrides: {
          // A prerendered page (decision 019) has no script to set MUI's class yet: the browser's own
          // :focus-visible marks its buttons and boxes until the app takes over.
          [`.Mui-focusVisible, a:focus-visible, [tabindex]:focus-visible, [${PRERENDERED}] button:focus-visible, [${PRERENDERED}] .MuiButtonBase-root:has(> input:focus-visible)`]:
            {
              outline: `${ring} !important`,
              outlineOffset: 2,
            },
          // Menu and list items fill their box: the ring goes inside, where the menu does not clip it.
          '.MuiMenuItem-root.Mui-focusVisible, .MuiListItemButton-root.Mui-focusVisible': {
            outlineOffset: '-2px !important',
          },
          // A text box is focused inside (a date's parts sit in the input's own shadow tree).
          '.MuiInputBase-root:focus-within': { outline: ring, outlineOffset: 2 },
          // A name typed without spaces (an event's, a school's) wraps inside its card on a phone rather
          // than being cut off by it (break-word, not anywhere: a flex item keeps its width).
          body: { overflowWrap: 'break-word' },
          [REDUCED_MOTION]: {
            '*, *::before, *::after': {
              transitionDuration: '0s !important',
              transitionDelay: '0s !important',
              scrollBehavior: 'auto !important',
            },
            // Progress indicators keep moving (they say "working"); the rest stops.
            '*:not(.MuiLinearProgress-bar):not(.MuiCircularProgress-svg):not(.MuiCircularProgress-circle), *::before, *::after':
              { animationDuration: '0s !important', animationIterationCount: '1 !important' },
          },
        },
      },
      // Dark theme: a filled red button takes a deeper red with white text (5.6:1).
      MuiButton: {
        styleOverrides: {
          root: ({ ownerState }) =>
            mode === 'dark' && ownerState.variant === 'contained' && ownerState.color === 'error'
              ? { backgroundColor: '#c62828', color: '#ffffff', '&:hover': { backgroundColor: '#b71c1c' } }
              : {},
        },
      },
      MuiMenu: { defaultProps: { transitionDuration: MENU_TRANSITION } },
      MuiTextField: { defaultProps: { fullWidth: true, margin: 'normal' } },
    },
  });
}
