import { afterAll, describe, expect, inject, it } from 'vitest';
import { PASSWORD } from '../factories';
import { withDatabase } from '../global-setup';
import { startServer } from '../server-process';
import { createTestDb, type TestDb } from '../test-db';

// SIGTERM (a deploy, a scale-down): requests already in flight are answered, the mail worker finishes its
// pass, the database closes, the process exits 0. Run against the real main.ts, on the suite's database.

describe('SIGTERM drains the server', () => {
  let testDb: TestDb | undefined;
  afterAll(() => testDb?.close());

  it('answers the requests in flight, then exits 0', async () => {
    let databaseUrl: string | undefined;
    if (process.env.TEST_DB === 'pg') {
      testDb = await createTestDb();
      const name = (
        await testDb.db
          .selectNoFrom((eb) => eb.fn<string>('current_database').as('name'))
          .executeTakeFirstOrThrow()
      ).name;
      databaseUrl = withDatabase(inject('pgAdminUrl'), name);
    }
    const server = await startServer({ LOG_LEVEL: 'debug', ...(databaseUrl && { databaseUrl }) });
    // Five sign-ups (each hashes a password: tens of milliseconds), and the signal while they run.
    const signups = Array.from({ length: 5 }, (_, i) =>
      fetch(`${server.url}/api/site/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          subscriberName: `Drain School ${i}`,
          firstName: 'Ada',
          lastName: 'Lovelace',
          email: `drain${i}.${Date.now()}@example.org`,
          password: PASSWORD,
        }),
      }).then((response) => response.status),
    );
    // The signal once all five have reached the server (its log says so), not before.
    const arrived = () => server.output().split('"url":"/api/site/signup","msg":"incoming"').length - 1;
    while (arrived() < 5) await new Promise((resolve) => setTimeout(resolve, 2));
    const code = server.stop();
    expect(await Promise.all(signups)).toEqual([200, 200, 200, 200, 200]);
    expect(await code).toBe(0);
    expect(server.output()).toContain('SIGTERM: shutting down');
    expect(server.output()).not.toMatch(/"level":(50|60)/);
  }, 90_000);
});
