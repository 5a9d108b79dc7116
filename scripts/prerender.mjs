// Prerenders the pages a parent opens first from a mail (the login page and the booking links) into the
// build's .prerendered/ folder; the server answers those addresses with them, so a phone paints the page
// from the HTML before any JavaScript has run (decision 019). The app itself, bundled into one script
// (apps/web/src/prerender.tsx → .prerendered/render.js), renders each page in a fresh jsdom window as a
// signed-out visitor in the dark theme first sees it (apps/web/prerender/page-renderer.mjs, copied beside
// the bundle: the server runs both per request for a booking link with its first answers). Run by the web
// build (a plugin of apps/web/vite.config.ts) once the browser build is written.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const RENDERER = join(root, 'apps/web/prerender/page-renderer.mjs');

/**
 * Each prerendered document, by name (apps/server/src/plugins/web-app.ts), the address it is rendered at,
 * and when the app takes it over (apps/web/src/app/prerendered.tsx): a booking link without its answers at
 * once, since its content comes from the API; the login form once the page is idle.
 */
export const PRERENDERED_PAGES = {
  login: { path: '/auth/login', takeOver: 'when-idle' },
  'book-ptevent': { path: '/book/ptevent/PRERENDER', takeOver: 'at-once' },
  'book-event': { path: '/book/event/PRERENDER', takeOver: 'at-once' },
};

/** Every page of PRERENDERED_PAGES, from the browser build in `dist` (its index.html names the bundles). */
export async function prerenderPages(dist) {
  const { build } = await import('vite');
  const out = join(dist, '.prerendered');
  await build({
    configFile: join(root, 'apps/web/vite.config.ts'),
    logLevel: 'warn',
    // The libraries' production code, as in the browser build, and their builds for a server without Node
    // where they have one: Emotion's then keeps the styles it makes for prerender.tsx to collect.
    define: { 'process.env.NODE_ENV': '"production"' },
    ssr: { resolve: { conditions: ['worker', 'browser', 'module', 'production'] } },
    build: {
      ssr: 'src/prerender.tsx',
      outDir: out,
      emptyOutDir: true,
      copyPublicDir: false,
      minify: true,
      rolldownOptions: {
        // One classic script that leaves its exports in `parleyPrerender`: run in a window's own context.
        output: { format: 'iife', name: 'parleyPrerender', entryFileNames: 'render.js' },
      },
    },
  });
  copyFileSync(RENDERER, join(out, 'page-renderer.mjs'));
  const { renderPage } = await import(pathToFileURL(join(out, 'page-renderer.mjs')).href);
  const { JSDOM } = await import('jsdom');
  const template = readFileSync(join(dist, 'index.html'), 'utf8');
  for (const [name, { path, takeOver }] of Object.entries(PRERENDERED_PAGES)) {
    const html = await renderPage(JSDOM, {
      bundle: join(out, 'render.js'),
      template,
      url: `http://localhost${path}`,
      takeOver,
    });
    writeFileSync(join(out, `${name}.html`), html);
  }
}
