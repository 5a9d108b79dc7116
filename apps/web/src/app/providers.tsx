import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useMemo } from 'react';
import { type ColorMode, ColorModeProvider } from '../components/color-mode';
import { SnackbarProvider } from '../components/snackbar';
import { queryClient } from '../lib/query-client';
import { createAppTheme } from './theme';

function ThemedApp({ mode, children }: { mode: ColorMode; children: ReactNode }) {
  const theme = useMemo(() => createAppTheme(mode), [mode]);
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline enableColorScheme />
      <SnackbarProvider>{children}</SnackbarProvider>
    </ThemeProvider>
  );
}

/** Theme (dark by default, remembered toggle), data cache and snackbar for the whole app. */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ColorModeProvider>{(mode) => <ThemedApp mode={mode}>{children}</ThemedApp>}</ColorModeProvider>
    </QueryClientProvider>
  );
}
