import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client';
import { type ReactNode, useMemo } from 'react';
import { type ColorMode, ColorModeProvider } from '../components/color-mode';
import { SnackbarProvider } from '../components/snackbar';
import { cachePersistOptions, queryClient, queryPersister } from '../lib/query-client';
import { createAppTheme } from './theme';

// Emotion writes MUI's styles into <style> tags, which the strict CSP (style-src with a nonce, no
// 'unsafe-inline') blocks unless they carry this page's nonce: the server puts a fresh one into
// <meta property="csp-nonce"> of every page (the browser hides the attribute; the property keeps it).
// Prerendering at build time (import.meta.env.SSR) reads the styles back as text (written as text nodes)
// and emotion's names for them from the cache (apps/web/src/prerender.tsx).
export const emotionCache = createCache({
  key: 'css',
  nonce: document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce || undefined,
  speedy: import.meta.env.SSR ? false : undefined,
});

function ThemedApp({ mode, children }: { mode: ColorMode; children: ReactNode }) {
  const theme = useMemo(() => createAppTheme(mode), [mode]);
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline enableColorScheme />
      <SnackbarProvider>{children}</SnackbarProvider>
    </ThemeProvider>
  );
}

// Restoring the persisted cache holds every query back until the stored lists, home data and events
// are in memory: an offline start shows them instead of failing a fetch.
const persistOptions = cachePersistOptions(queryPersister);

/** Theme (dark by default, remembered toggle), data cache and snackbar for the whole app. */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <CacheProvider value={emotionCache}>
      <PersistQueryClientProvider client={queryClient} persistOptions={persistOptions}>
        <ColorModeProvider>{(mode) => <ThemedApp mode={mode}>{children}</ThemedApp>}</ColorModeProvider>
      </PersistQueryClientProvider>
    </CacheProvider>
  );
}
