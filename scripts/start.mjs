// npm start: the one server process, and the web build when its sources are newer than the last build.
// Both start together: the database opens and migrates while Vite builds, so the app is up when the build lands.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const built = 'apps/web/dist/index.html';
const sources = ['apps/web/src', 'apps/web/index.html', 'apps/web/vite.config.ts', 'packages/domain/src'];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));

if (!existsSync(built) || Math.max(...sources.map(newestMtime)) > statSync(built).mtimeMs) {
  console.log('Building the web app…');
  const build = spawn('npx', ['vite', 'build', '--config', 'apps/web/vite.config.ts', '--logLevel', 'warn'], {
    stdio: 'inherit',
  });
  build.on('exit', (code) => {
    if (code === 0) return console.log('Web app built.');
    console.error('The web app failed to build.');
    server.kill('SIGTERM');
  });
}
