import { sql } from 'kysely';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { HEARTBEAT, openDatabase, SESSION_CHANNEL, watchSessions } from '../../src/db/database';
import { withDatabase } from '../global-setup';
import { connectElsewhere, createTestDb, type TestDb } from '../test-db';
import { silenceableProxy, waitFor } from './fault-support';

// A listening connection that goes silent without closing (issue 39: a proxy in front of PostgreSQL that
// stopped passing data) must not leave the process believing it hears the other processes' changes. The
// listener announces to itself (db/database.ts HEARTBEAT) and counts as lost when that does not come back:
// everything kept is forgotten within the heartbeat's limits, so a revoked session is read again. The
// negative control has no heartbeat and shows what went wrong before: the change is never heard and the
// listener still says it hears.

const onPg = process.env.TEST_DB === 'pg';

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
    const proxy = await silenceableProxy(databaseUrl);
    const db = openDatabase({ databaseUrl: proxy.url, heartbeat });
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
