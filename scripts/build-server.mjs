// The server for production: one ES module per entry point in apps/server/dist, TypeScript and the domain
// package compiled in (esbuild), every npm dependency of apps/server and the domain package left to node_modules, so the
// production image needs Node and `npm ci --omit=dev` only — no tsx, no TypeScript at run time.
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const dependencies = (path) => Object.keys(JSON.parse(readFileSync(path, 'utf8')).dependencies ?? {});

await build({
  entryPoints: {
    main: 'apps/server/src/main.ts',
    migrate: 'apps/server/src/migrate-command.ts',
  },
  outdir: 'apps/server/dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  sourcemap: true,
  // Stack traces name the TypeScript files (node --enable-source-maps in the image).
  sourcesContent: false,
  external: [...dependencies('apps/server/package.json'), ...dependencies('packages/domain/package.json')],
  logLevel: 'warning',
});
// The database's function files (db/function-files.ts), read at run time beside the bundle that runs them.
rmSync('apps/server/dist/functions', { recursive: true, force: true });
cpSync('apps/server/src/db/functions', 'apps/server/dist/functions', { recursive: true });
console.log(
  'Server built: apps/server/dist/main.js, apps/server/dist/migrate.js, apps/server/dist/functions/',
);
