import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The real server as `npm start` runs it (main.ts in its own process), for what app.inject cannot show:
// that the process survives a dropped connection, and what SIGTERM does to requests in flight.

export type ServerProcess = {
  url: string;
  child: ChildProcess;
  output(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
};

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

/** The exit code once the process has ended (null when a signal ended it, as SIGKILL does). */
export function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** Starts main.ts on a free port (PostgreSQL at databaseUrl, else a fresh PGlite) and waits until ready. */
export async function startServer(env: { databaseUrl?: string } & Record<string, string | undefined> = {}) {
  const { databaseUrl, ...rest } = env;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  // Folders made here go with the process; a DATA_DIR the caller passes (to restart on it) stays.
  const made = [mkdtempSync(join(tmpdir(), 'parley-dist-'))];
  if (!databaseUrl && rest.DATA_DIR === undefined) made.push(mkdtempSync(join(tmpdir(), 'parley-server-')));
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: url,
      LOG_LEVEL: 'warn',
      DATABASE_URL: databaseUrl ?? '',
      DATA_DIR: made[1] ?? '',
      WEB_DIST: made[0],
      SMTP_URL: '',
      ...rest,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  child.once('exit', () => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    if (Date.now() > deadline) throw new Error(`server not ready:\n${output}`);
    const ready = await fetch(`${url}/api/ready`).catch(() => undefined);
    if (ready?.ok) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    child,
    output: () => output,
    stop: async () => {
      child.kill('SIGTERM');
      // A server that does not drain within 15 s is killed (and the test sees no exit code 0).
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const code = await exited(child);
      clearTimeout(timer);
      return code;
    },
  } satisfies ServerProcess;
}
