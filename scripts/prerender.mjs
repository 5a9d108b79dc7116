// Prerenders the pages a parent opens first from a mail (the login page and the booking links) into the
// build's .prerendered/ folder; the server answers those addresses with them, so a phone paints the page
// from the HTML before any JavaScript has run (decision 019). The app itself, bundled for Node
// (apps/web/src/prerender.tsx), renders each page in jsdom as a signed-out visitor in the dark theme first
// sees it; each page in a process of its own, so no page's module state reaches another. Run by the web
// build (a plugin of apps/web/vite.config.ts) once the browser build is written.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const bundleDir = join(root, 'node_modules/.cache/parley-prerender');
const bundle = join(bundleDir, 'prerender.mjs');

/**
 * Each prerendered document, by name (apps/server/src/plugins/web-app.ts), the address it is rendered at,
 * and when the app takes it over (apps/web/src/app/prerendered.ts): a booking link at once, since its
 * content comes from the API; the login form at the visitor's first gesture.
 */
export const PRERENDERED_PAGES = {
  login: { path: '/auth/login', takeOver: 'on-gesture' },
  'book-ptevent': { path: '/book/ptevent/PRERENDER', takeOver: 'at-once' },
  'book-event': { path: '/book/event/PRERENDER', takeOver: 'at-once' },
};

/** One page, in this process: jsdom at its address, the bundle's renderDocument, the file written. */
async function renderOne(name, dist) {
  const { JSDOM } = await import('jsdom');
  const template = readFileSync(join(dist, 'index.html'), 'utf8');
  const { path, takeOver } = PRERENDERED_PAGES[name];
  const dom = new JSDOM(template, { url: `http://localhost${path}`, pretendToBeVisual: true });
  // The browser's globals, as the web tests have them (Node's own win where both exist, as in Vitest).
  for (const key of Object.getOwnPropertyNames(dom.window)) {
    if (key in globalThis || key.startsWith('_')) continue;
    Object.defineProperty(globalThis, key, {
      configurable: true,
      get: () => dom.window[key],
      set: (value) => {
        dom.window[key] = value;
      },
    });
  }
  const { renderDocument } = await import(pathToFileURL(bundle).href);
  const html = await renderDocument(template, takeOver);
  mkdirSync(join(dist, '.prerendered'), { recursive: true });
  writeFileSync(join(dist, '.prerendered', `${name}.html`), html);
}

/** Every page of PRERENDERED_PAGES, from the browser build in `dist` (its index.html names the bundles). */
export async function prerenderPages(dist) {
  const { build } = await import('vite');
  rmSync(bundleDir, { recursive: true, force: true });
  await build({
    configFile: join(root, 'apps/web/vite.config.ts'),
    logLevel: 'warn',
    // The libraries' production code, as in the browser build.
    define: { 'process.env.NODE_ENV': '"production"' },
    build: {
      ssr: 'src/prerender.tsx',
      outDir: bundleDir,
      emptyOutDir: true,
      rolldownOptions: {
        output: { entryFileNames: 'prerender.mjs' },
        // React Router probes for React 19's useOptimistic, which Preact does not have (it falls back).
        onLog(level, log, handler) {
          if (log.code === 'IMPORT_IS_UNDEFINED' && log.message.includes('useOptimistic')) return;
          handler(level, log);
        },
      },
    },
  });
  const run = promisify(execFile);
  await Promise.all(
    Object.keys(PRERENDERED_PAGES).map((name) =>
      run(process.execPath, [fileURLToPath(import.meta.url), name, dist], { cwd: root }).catch((error) => {
        throw new Error(`prerendering ${name} failed:\n${error.stderr || error.message}`);
      }),
    ),
  );
}

// The child process of one page: node scripts/prerender.mjs <name> <dist>.
const [page, dist] = process.argv.slice(2);
if (page && dist && process.argv[1] === fileURLToPath(import.meta.url)) {
  await renderOne(page, dist);
  process.exit(0); // the app's timers (query cache, idle callbacks) would keep jsdom alive for minutes
}
