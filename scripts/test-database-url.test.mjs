// node --test scripts/test-database-url.test.mjs (run by scripts/test.sh before the API suite): with
// TEST_DATABASE_URL set, a PostgreSQL that cannot be reached fails the run (a non-zero exit naming the
// variable), never a skip nor a green run on PGlite only. Nothing but this machine's loopback is dialled.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** A small test file of the API suite: the run must fail before it, in the global setup. */
const ANY_API_TEST = 'apps/server/src/lib/keep-recent.test.ts';

/** `vitest run --project api-pg` on one file with TEST_DATABASE_URL at `url`: its exit code and output. */
function vitestOnPg(url) {
  return new Promise((resolve) => {
    const child = spawn('npx', ['vitest', 'run', '--project', 'api-pg', ANY_API_TEST], {
      cwd: ROOT,
      env: { ...process.env, TEST_DATABASE_URL: url, NO_COLOR: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    // The run must end by itself: a hang (a connection waiting forever) is a failure too.
    const timer = setTimeout(() => {
      output += '\n(killed: the run had not ended after 90 s)';
      child.kill('SIGKILL');
    }, 90_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, output });
    });
  });
}

/** A loopback server; `onConnection` is given each connection. */
async function listening(onConnection) {
  const server = createServer(onConnection);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

const sockets = new Set();
const servers = [];
after(() => {
  for (const socket of sockets) socket.destroy();
  for (const server of servers) server.close();
});

function assertFailedLoudly({ status, output }, cause) {
  assert.notEqual(status, 0, output);
  assert.match(
    output,
    /TEST_DATABASE_URL is set, but PostgreSQL at postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:/,
  );
  assert.match(output, cause);
  assert.doesNotMatch(output, /\bskipped\b|\bpassed\b/, output);
  assert.doesNotMatch(output, /hunter2/, 'the password is not printed');
}

test('nothing listens at TEST_DATABASE_URL: the run fails, saying so', async () => {
  // A port that was free a moment ago: connection refused.
  const server = await listening(() => {});
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  assertFailedLoudly(await vitestOnPg(`postgres://postgres:hunter2@127.0.0.1:${port}/test`), /ECONNREFUSED/);
});

test('a server that accepts and never answers: the run fails after the connection timeout, not hangs', async () => {
  const server = await listening((socket) => sockets.add(socket));
  servers.push(server);
  const { port } = server.address();
  assertFailedLoudly(
    await vitestOnPg(`postgres://postgres:hunter2@127.0.0.1:${port}/test`),
    /timeout|timed out/i,
  );
});
