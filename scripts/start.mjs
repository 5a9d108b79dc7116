// npm start (and `npm run migrate`: `node scripts/start.mjs migrate`). In production (NODE_ENV=production)
// it runs the build of `npm run build` with production dependencies only. Otherwise — a first look after
// `npm ci`, or development — the server runs from TypeScript (tsx) and the web app is built when its
// sources are newer than the last build; both start together (the database opens and migrates while Vite
// builds, so the app is up when the build lands). Decision 024.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const built = 'apps/web/dist/index.html';
const migrateOnly = process.argv[2] === 'migrate';
const builtServer = migrateOnly ? 'apps/server/dist/migrate.js' : 'apps/server/dist/main.js';
const serverSource = migrateOnly ? 'apps/server/src/migrate-command.ts' : 'apps/server/src/main.ts';
const sources = ['apps/web/src', 'apps/web/index.html', 'apps/web/vite.config.ts', 'packages/domain/src'];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

function run(args) {
  const server = spawn(process.execPath, args, { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
  server.on('exit', (code) => process.exit(code ?? 0));
  return server;
}

if (process.env.NODE_ENV === 'production') {
  if (!existsSync(builtServer) || (!migrateOnly && !existsSync(built))) {
    console.error('No production build here: run `npm run build` first (the Dockerfile does).');
    process.exit(1);
  }
  run(['--enable-source-maps', builtServer]);
} else {
  const server = run(['--import', 'tsx', serverSource]);
  const stale = () => !existsSync(built) || Math.max(...sources.map(newestMtime)) > statSync(built).mtimeMs;
  if (!migrateOnly && stale()) {
    console.log('Building the web app…');
    const build = spawn(
      'npx',
      ['vite', 'build', '--config', 'apps/web/vite.config.ts', '--logLevel', 'warn'],
      {
        stdio: 'inherit',
      },
    );
    build.on('exit', (code) => {
      if (code === 0) return console.log('Web app built.');
      console.error('The web app failed to build.');
      server.kill('SIGTERM');
    });
  }
}
