import { sql } from 'kysely';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, SLOT_LABEL_CHANNEL, watchSlotLabels } from '../../src/db/database';
import { waitFor } from '../faults/fault-support';
import { connectElsewhere, createTestDb, type TestDb } from '../test-db';

// The database's announcements (db/database.ts) reach every connection that listens: each pooled
// connection of the process and its listener. Each is acted on once, whichever connections hear it: a
// late copy would forget again what the process read since (a lost race's labels, a session).

const onPg = process.env.TEST_DB === 'pg';
let testDb: TestDb;
let db: Db;
let elsewhere: pg.Client | undefined;
const heard: number[] = [];

beforeAll(async () => {
  testDb = await createTestDb();
  db = testDb.db;
  if (!onPg) return;
  elsewhere = await connectElsewhere(db);
  let hearing = false;
  watchSlotLabels(db, { changed: (id) => heard.push(id), hearing: (all) => (hearing = all) });
  await waitFor('the listener', () => hearing, 3000, 20);
  // Every pooled connection open (each listening): five statements at once.
  await Promise.all(Array.from({ length: 5 }, () => sql`select pg_sleep(0.05)`.execute(db)));
});
afterAll(async () => {
  await elsewhere?.end();
  await testDb.close();
});

const announce = (id: number) => `select pg_notify('${SLOT_LABEL_CHANNEL}', '${id}')`;
const timesHeard = (id: number) => heard.filter((heardId) => heardId === id).length;

describe.runIf(onPg)('the database’s announcements', () => {
  it('are acted on once, the process’s own on its connection before the statement returns', async () => {
    await sql.raw(announce(41)).execute(db);
    expect(timesHeard(41)).toBe(1);
    // The copies the other pooled connections and the listener hear are left alone.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(timesHeard(41)).toBe(1);
  });

  it('are acted on once when another process makes them', async () => {
    await elsewhere?.query(announce(42));
    await waitFor('the announcement', () => timesHeard(42) > 0, 3000, 20);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(timesHeard(42)).toBe(1);
  });
});
