import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../test-db';

// What every connection of the app's pool starts with on PostgreSQL (db/database.ts): bounded waits, and
// planner costs for a database that is read from memory (decision 030).

describe.runIf(process.env.TEST_DB === 'pg')("the app's connections to PostgreSQL", () => {
  let testDb: TestDb;
  beforeAll(async () => {
    testDb = await createTestDb();
  });
  afterAll(() => testDb.close());

  it('give up on a lock after 3 s and on a statement after 10 s, and price a random read near a sequential one', async () => {
    const { rows } = await sql<{ lock: string; statement: string; random: string; sequential: string }>`
      select current_setting('lock_timeout') as lock, current_setting('statement_timeout') as statement,
        current_setting('random_page_cost') as random, current_setting('seq_page_cost') as sequential`.execute(
      testDb.db,
    );
    expect(rows[0]).toEqual({ lock: '3s', statement: '10s', random: '1.1', sequential: '1' });
  });
});
