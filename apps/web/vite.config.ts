import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlib } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { visualizer } from 'rollup-plugin-visualizer';
import { defineConfig, type Plugin, type PluginOption } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);
const COMPRESSIBLE = /\.(js|mjs|css|svg|webmanifest|json|txt)$/;

/** A step run once the browser build is written (after the service worker), given its output folder. */
function afterBuild(name: string, step: (outDir: string) => Promise<void>): Plugin {
  let outDir = '';
  return {
    name,
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle: { order: 'post', sequential: true, handler: () => step(outDir) },
  };
}

/**
 * Writes a .br and a .gz beside every text file of the build (the server picks one by Accept-Encoding,
 * apps/server/src/plugins/web-app.ts): compressing once here at the strongest levels costs the server
 * nothing per request. Left out: index.html, which the server rewrites per answer (the CSP nonce), and
 * the service worker, whose bytes are how browsers find a new version (one file, so no stale copy can
 * answer for it). Small files and those that do not shrink too.
 */
const precompress = () =>
  afterBuild('parley:precompress', async (outDir) => {
    const files = (await readdir(outDir, { recursive: true, withFileTypes: true })).filter(
      (entry) =>
        entry.isFile() &&
        COMPRESSIBLE.test(entry.name) &&
        entry.name !== 'service-worker.js' &&
        !entry.parentPath.includes('.vite'),
    );
    await Promise.all(
      files.map(async (entry) => {
        const path = join(entry.parentPath, entry.name);
        const raw = await readFile(path);
        if (raw.length < 1024) return;
        const [br, gz] = await Promise.all([
          brotli(raw, {
            params: {
              [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
              [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length,
            },
          }),
          gzipped(raw, { level: 9 }),
        ]);
        if (br.length < raw.length) await writeFile(`${path}.br`, br);
        if (gz.length < raw.length) await writeFile(`${path}.gz`, gz);
      }),
    );
  });

/**
 * The login page and the booking links, prerendered from this build (scripts/prerender.mjs, decision 019)
 * into its .prerendered folder: the server answers those addresses with them.
 */
const prerender = () =>
  afterBuild('parley:prerender', async (outDir) => {
    // Loaded by Node as it is, not bundled into this config.
    const script = new URL('../../scripts/prerender.mjs', import.meta.url).href;
    const { prerenderPages } = (await import(script)) as { prerenderPages: (dist: string) => Promise<void> };
    await prerenderPages(outDir);
  });

/**
 * Lets the bundle drop the domain's schemas that a page does not use. packages/domain keeps texts, paths
 * and rules beside the zod schemas of the wire contract; a module's top-level `const X = z.object(...)`
 * counts as code with effects, so taking a text from it brought every schema of the module, and zod's
 * 25 KB, into the page. Each top-level constant built by a call becomes a pure-annotated
 * `(() => …)()`: kept where used, dropped where not. The domain is free of I/O by rule, so nothing
 * is lost.
 */
function pureDomainConstants(): Plugin {
  const DOMAIN = /[\\/]packages[\\/]domain[\\/]src[\\/][^\\/]+\.ts$/;
  return {
    name: 'parley:pure-domain-constants',
    apply: 'build',
    transform(code, id) {
      if (!DOMAIN.test(id) || id.endsWith('.test.ts')) return null;
      const inits: { start: number; end: number }[] = [];
      for (const statement of this.parse(code).body) {
        const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
        if (declaration?.type !== 'VariableDeclaration') continue;
        for (const { init } of declaration.declarations) {
          if (init?.type === 'CallExpression') inits.push({ start: init.start, end: init.end });
        }
      }
      if (inits.length === 0) return null;
      let out = code;
      for (const { start, end } of inits.reverse()) {
        out = `${out.slice(0, start)}/* @__PURE__ */ (() => ${out.slice(start, end)})()${out.slice(end)}`;
      }
      return { code: out, map: null };
    },
  };
}

// The build for browsers, and (isSsrBuild) the prerender bundle that scripts/prerender.mjs runs in Node:
// the same app, without the service worker, the compressed copies and the chunk layout.
export default defineConfig(({ isSsrBuild }) => ({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), pureDomainConstants(), ...(isSsrBuild ? [] : browserPlugins())],
  // A placeholder nonce on every script, style and preload tag Vite emits, and a <meta property="csp-nonce">:
  // the server swaps in a fresh nonce per page (apps/server/src/plugins/security-headers.ts).
  html: { cspNonce: 'PARLEY_CSP_NONCE' },
  // Prerendering runs the libraries' browser builds in jsdom, bundled into one script for its window.
  ssr: { target: 'webworker', noExternal: true },
  build: isSsrBuild
    ? { rolldownOptions: { output: { codeSplitting: false } } }
    : {
        outDir: 'dist',
        emptyOutDir: true,
        // .vite/manifest.json: which chunks each page loads, read by scripts/check-bundle-budget.mjs.
        manifest: true,
        sourcemap: Boolean(process.env.ANALYZE),
        chunkSizeWarningLimit: 600,
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                // What every page runs first: React and the router, MUI's styling core (both stable across
                // releases of the app, so they stay cached), and the app's shell.
                {
                  name: 'react',
                  test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
                  priority: 3,
                },
                {
                  name: 'mui-core',
                  test: /[\\/]node_modules[\\/](@mui[\\/](system|utils|styled-engine|private-theming)|@emotion|stylis|hoist-non-react-statics|react-is|clsx|@babel)[\\/]/,
                  priority: 2,
                },
                // The rest of what the entry imports statically, in one file rather than some 25: over
                // HTTP/1.1 each file is a round trip on a slow network, and one file compresses better.
                { name: 'shell', tags: ['$initial'], priority: 1 },
              ],
            },
          },
        },
      },
  server: { port: 5173, proxy: { '/api': { target: 'http://localhost:3000', ws: true } } },
}));

/** The installable app's service worker and manifest, the compressed copies, and the bundle treemap. */
function browserPlugins(): PluginOption[] {
  return [
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
    precompress(),
    prerender(),
    // `ANALYZE=1 npm run build`: where the bytes go, as a treemap in apps/web/dist/.stats.html.
    process.env.ANALYZE
      ? visualizer({
          filename: fileURLToPath(new URL('dist/.stats.html', import.meta.url)),
          template: process.env.ANALYZE === 'json' ? 'raw-data' : 'treemap',
          gzipSize: true,
          brotliSize: true,
          sourcemap: true, // sizes of the minified code, not of the source
        })
      : null,
  ];
}
