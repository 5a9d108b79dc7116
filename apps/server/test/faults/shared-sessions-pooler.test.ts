import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { checkSessionConnections, SHARED_SESSIONS_MESSAGE } from '../../src/db/session-check';
import { withDatabase } from '../global-setup';
import { freePort, startServer } from '../server-process';
import { createTestDb, type TestDb } from '../test-db';
import { waitFor } from './fault-support';

// Issue 39: behind a pooler that hands each transaction to whichever server session is free, LISTEN, named
// prepared statements and the session settings behind row-level security do not hold. Parley must refuse
// to start there, saying why, and start as before on direct and session-mode connections. PgBouncer from
// Debian's packages (scripts/test.sh installs it) stands in for the pooler.

const onPg = process.env.TEST_DB === 'pg';
const PGBOUNCER = '/usr/sbin/pgbouncer';

type PoolMode = 'session' | 'transaction' | 'statement';

/** PgBouncer in the given mode in front of the test's PostgreSQL; the URL leads to `database` through it. */
async function pgbouncer(mode: PoolMode, database: string) {
  const target = new URL(inject('pgAdminUrl'));
  const dir = mkdtempSync(join(tmpdir(), 'parley-pgbouncer-'));
  chmodSync(dir, 0o755); // readable by nobody, below
  const port = await freePort();
  const server = [
    `host=${target.hostname}`,
    `port=${target.port || 5432}`,
    `user=${decodeURIComponent(target.username || 'postgres')}`,
    ...(target.password ? [`password=${decodeURIComponent(target.password)}`] : []),
  ].join(' ');
  const config = join(dir, 'pgbouncer.ini');
  writeFileSync(
    config,
    [
      '[databases]',
      `* = ${server}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      // Every client logs in as the one user above; the server's own authentication still applies.
      'auth_type = any',
      `pool_mode = ${mode}`,
      // As a deployer would configure it for a driver that sends these: the check, not a refused login,
      // is what stops Parley.
      'ignore_startup_parameters = options, extra_float_digits',
      '',
    ].join('\n'),
    { mode: 0o644 },
  );
  let output = '';
  // PgBouncer will not run as root: as nobody, then.
  const asNobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
  const child: ChildProcess = spawn(PGBOUNCER, [config], { stdio: ['ignore', 'pipe', 'pipe'], ...asNobody });
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const listening = () =>
    new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    }).then((open) => {
      if (child.exitCode !== null) throw new Error(`PgBouncer exited:\n${output}`);
      return open;
    });
  await waitFor('PgBouncer to listen', listening, 10_000, 50);
  return {
    url: `postgres://${encodeURIComponent(target.username || 'postgres')}@127.0.0.1:${port}/${database}`,
    close: async () => {
      child.kill('SIGINT');
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe.runIf(onPg)('a pooler that shares sessions between connections', () => {
  let testDb: TestDb;
  let database = '';

  beforeAll(async () => {
    if (!existsSync(PGBOUNCER))
      throw new Error(
        'PgBouncer is missing: install it with "apt-get install -y pgbouncer" (scripts/test.sh does)',
      );
    testDb = await createTestDb();
    const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(testDb.db);
    database = rows[0]?.name ?? '';
  });
  afterAll(async () => {
    await testDb?.close();
  });

  it('passes direct connections and a pooler in session mode', async () => {
    await expect(
      checkSessionConnections(withDatabase(inject('pgAdminUrl'), database)),
    ).resolves.toBeUndefined();
    const pooler = await pgbouncer('session', database);
    try {
      await expect(checkSessionConnections(pooler.url)).resolves.toBeUndefined();
    } finally {
      await pooler.close();
    }
  });

  it('refuses a pooler in transaction or statement mode, saying why', async () => {
    for (const mode of ['transaction', 'statement'] as const) {
      const pooler = await pgbouncer(mode, database);
      try {
        await expect(checkSessionConnections(pooler.url), mode).rejects.toThrow(SHARED_SESSIONS_MESSAGE);
      } finally {
        await pooler.close();
      }
    }
  });

  it('the server will not start behind a transaction-mode pooler, and says why', async () => {
    const pooler = await pgbouncer('transaction', database);
    try {
      const start = startServer({ databaseUrl: pooler.url });
      await expect(start).rejects.toThrow(`Parley failed to start: ${SHARED_SESSIONS_MESSAGE}`);
    } finally {
      await pooler.close();
    }
  });
});
