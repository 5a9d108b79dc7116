// npm run build:mobile -- https://parley.example-school.org
// The web build for the native shell: it names the Parley server the app calls (the bundled pages load
// from the device, not from the server; apps/web/src/lib/api-base.ts), then copies it into android/ and
// ios/ with cap sync. The server must allow the app's origins (NATIVE_APP_ORIGINS, default fine).
import { spawnSync } from 'node:child_process';

const server = (process.argv[2] ?? process.env.PARLEY_SERVER_URL ?? '').trim().replace(/\/+$/, '');
if (!/^https:\/\/[^/\s]+$/.test(server)) {
  console.error('Name the Parley server the app calls, as an https origin:');
  console.error('  npm run build:mobile -- https://parley.example-school.org   (or PARLEY_SERVER_URL=…)');
  process.exit(1);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

run('npx', ['vite', 'build', '--config', 'apps/web/vite.config.ts', '--logLevel', 'warn'], {
  env: { ...process.env, VITE_PARLEY_SERVER: server },
});
run('npx', ['cap', 'sync'], { cwd: 'apps/mobile' });
console.log(`The native projects now hold a build that calls ${server}/api.`);
