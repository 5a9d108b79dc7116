import { connect, createServer, type Server, type Socket } from 'node:net';
import { sql } from 'kysely';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { HEARTBEAT, openDatabase, SESSION_CHANNEL, watchSessions } from '../../src/db/database';
import { withDatabase } from '../global-setup';
import { connectElsewhere, createTestDb, type TestDb } from '../test-db';
import { waitFor } from './fault-support';

// A listening connection that goes silent without closing (issue 39: a proxy in front of PostgreSQL that
// stopped passing data) must not leave the process believing it hears the other processes' changes. The
// listener announces to itself (db/database.ts HEARTBEAT) and counts as lost when that does not come back:
// everything kept is forgotten within the heartbeat's limits, so a revoked session is read again. The
// negative control has no heartbeat and shows what went wrong before: the change is never heard and the
// listener still says it hears.

const onPg = process.env.TEST_DB === 'pg';

/** A TCP proxy to PostgreSQL that can go silent: its connections stay open and pass nothing more. */
async function silentableProxy(target: URL) {
  const sockets = new Set<Socket>();
  let silent = false;
  const server: Server = createServer((client) => {
    const to = connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, to]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => sockets.delete(socket));
    }
    client.on('data', (chunk) => !silent && to.write(chunk));
    to.on('data', (chunk) => !silent && client.write(chunk));
    client.on('end', () => to.end());
    to.on('end', () => client.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    silence: () => {
      silent = true;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe.runIf(onPg)('a listener that goes silent without closing', () => {
  let testDb: TestDb;
  let elsewhere: pg.Client | undefined;
  let databaseUrl: URL;

  beforeAll(async () => {
    testDb = await createTestDb();
    elsewhere = await connectElsewhere(testDb.db);
    const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(testDb.db);
    databaseUrl = new URL(withDatabase(inject('pgAdminUrl'), rows[0]?.name ?? ''));
  });
  afterAll(async () => {
    await elsewhere?.end();
    await testDb.close();
  });

  /** A database handle through its own proxy, with its listener's view of the session announcements. */
  async function throughProxy(heartbeat: typeof HEARTBEAT | false) {
    const proxy = await silentableProxy(databaseUrl);
    const url = new URL(databaseUrl);
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    const db = openDatabase({ databaseUrl: url.toString(), heartbeat });
    const seen = { hearing: false, changed: [] as number[] };
    watchSessions(db, {
      changed: (userId) => seen.changed.push(userId),
      hearing: (all) => {
        seen.hearing = all;
      },
    });
    await waitFor('the listener', () => seen.hearing, 5000, 20);
    return {
      seen,
      proxy,
      close: async () => {
        await proxy.close();
        await db.destroy();
      },
    };
  }

  it('counts as lost within its heartbeat once silent, and everything kept is forgotten', async () => {
    const side = await throughProxy(HEARTBEAT);
    try {
      // Heard while the proxy passes data: another process's change.
      await elsewhere?.query(`select pg_notify('${SESSION_CHANNEL}', '7')`);
      await waitFor('the change', () => side.seen.changed.includes(7), 3000, 20);
      const silencedAt = Date.now();
      side.proxy.silence();
      await waitFor('the listener to count as lost', () => !side.seen.hearing, 5000, 20);
      const afterMs = Date.now() - silencedAt;
      console.log(
        `listener silent: counted as lost after ${afterMs} ms (heartbeat every ${HEARTBEAT.everyMs} ms, ` +
          `echo within ${HEARTBEAT.echoWithinMs} ms)`,
      );
      // Within the heartbeat's own bound (the last echo, then the wait), with room for a busy machine.
      expect(afterMs).toBeLessThan(HEARTBEAT.everyMs + HEARTBEAT.echoWithinMs + 1500);
    } finally {
      await side.close();
    }
  });

  it('negative control: without the heartbeat, a silent listener still says it hears, and hears nothing', async () => {
    const side = await throughProxy(false);
    try {
      side.proxy.silence();
      await elsewhere?.query(`select pg_notify('${SESSION_CHANNEL}', '8')`);
      // As long as the heartbeat test's bound: the change is not heard, and nothing says so.
      await new Promise((resolve) => setTimeout(resolve, HEARTBEAT.everyMs + HEARTBEAT.echoWithinMs + 1500));
      console.log(
        `negative control (no heartbeat): hearing ${side.seen.hearing}, the change ${
          side.seen.changed.includes(8) ? 'heard' : 'never heard'
        }: a session revoked meanwhile would stay accepted`,
      );
      expect(side.seen.hearing).toBe(true);
      expect(side.seen.changed).not.toContain(8);
    } finally {
      await side.close();
    }
  });
});
