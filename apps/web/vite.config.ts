import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

// zod compiles its parsers with new Function() and probes whether it may as each schema is built, at module
// load (before any of our code runs). The CSP forbids eval, so that probe is a reported violation: switch
// compiling off in zod's global config (which it reads from globalThis) ahead of zod, in its chunk.
const ZOD_JITLESS = 'globalThis.__zod_globalConfig = { jitless: true };';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [
    react(),
    // The installable app (issue 12): the manifest, and a service worker built from src/sw/service-worker.ts
    // with the build's precache list injected. The page registers it itself (src/features/app-update), in
    // production builds only: `npm run dev:web` runs without one.
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src/sw',
      filename: 'service-worker.ts',
      injectRegister: false,
      manifestFilename: 'manifest.webmanifest',
      injectManifest: {
        rollupFormat: 'iife',
        globPatterns: ['**/*.{js,css,html,woff,woff2,png,svg,ico,webmanifest}'],
        maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
      },
      includeAssets: ['favicon.svg'],
      manifest: {
        id: '/',
        // DEFAULT_APP_NAME of packages/domain (not imported: the config is loaded by Node without TypeScript
        // paths); e2e/pwa.test.ts checks they agree.
        name: 'Parley',
        short_name: 'Parley',
        description: 'Parent-teacher meetings, bookings and ticketed events for schools',
        lang: 'en',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'any',
        // Spec §9's dark theme (background.default of src/app/theme.ts).
        theme_color: '#121212',
        background_color: '#121212',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      devOptions: { enabled: false },
    }),
  ],
  // A placeholder nonce on every script, style and preload tag Vite emits, and a <meta property="csp-nonce">:
  // the server swaps in a fresh nonce per page (apps/server/src/plugins/security-headers.ts).
  html: { cspNonce: 'PARLEY_CSP_NONCE' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        intro: (chunk) =>
          Object.keys(chunk.modules).some((id) => /[\\/]node_modules[\\/]zod[\\/]/.test(id))
            ? ZOD_JITLESS
            : '',
      },
    },
  },
  server: { port: 5173, proxy: { '/api': 'http://localhost:3000' } },
});
