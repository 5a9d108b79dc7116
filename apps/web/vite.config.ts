import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// zod compiles its parsers with new Function() and probes whether it may as each schema is built, at module
// load (before any of our code runs). The CSP forbids eval, so that probe is a reported violation: switch
// compiling off in zod's global config (which it reads from globalThis) ahead of zod, in its chunk.
const ZOD_JITLESS = 'globalThis.__zod_globalConfig = { jitless: true };';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
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
