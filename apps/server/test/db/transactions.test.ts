import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Db, openDatabase } from '../../src/db/database';
import { asOwner } from '../../src/db/scope';
import type { SentStatement } from '../../src/db/statement-pool';
import { withDatabase } from '../global-setup';
import { createTestDb, type TestDb } from '../test-db';

// Transactions as the app runs them (db/database.ts): BEGIN, the statements (on PostgreSQL each data
// statement a named prepared one), COMMIT, each sent as Kysely sends it. A transaction is one from its first
// statement on: what that statement locks or writes is held until COMMIT and undone by ROLLBACK, and a
// statement that fails takes the whole change with it.

let testDb: TestDb;
let db: Db;

beforeAll(async () => {
  testDb = await createTestDb();
  db = testDb.db;
  await asOwner(() =>
    sql`create table tx_probe (id int primary key, n int not null check (n >= 0))`.execute(db),
  );
  await asOwner(() => sql`insert into tx_probe values (1, 0)`.execute(db));
});

afterAll(async () => {
  await testDb?.close();
});

const readN = async () =>
  (await asOwner(() => sql<{ n: number }>`select n from tx_probe where id = 1`.execute(db))).rows[0]?.n;
const bump = (trx: Db, by: number) =>
  sql`update tx_probe set n = n + ${by} where id = 1 returning n`.execute(trx);

describe('transactions', () => {
  it('commit what their statements wrote, the first included', async () => {
    const before = await readN();
    await asOwner(() =>
      db.transaction().execute(async (trx) => {
        await bump(trx, 1);
        await bump(trx, 1);
      }),
    );
    expect(await readN()).toBe((before ?? 0) + 2);
  });

  it('undo everything, the first statement included, when the work throws', async () => {
    const before = await readN();
    await expect(
      asOwner(() =>
        db.transaction().execute(async (trx) => {
          await bump(trx, 5);
          throw new Error('changed my mind');
        }),
      ),
    ).rejects.toThrow('changed my mind');
    expect(await readN()).toBe(before);
  });

  it('undo everything when a later statement fails, and leave the connection usable', async () => {
    const before = await readN();
    await expect(
      asOwner(() =>
        db.transaction().execute(async (trx) => {
          await bump(trx, 1);
          await bump(trx, -1000); // the CHECK refuses it
        }),
      ),
    ).rejects.toMatchObject({ code: '23514' });
    expect(await readN()).toBe(before);
    await asOwner(() => db.transaction().execute((trx) => bump(trx, 1)));
    expect(await readN()).toBe((before ?? 0) + 1);
  });

  it('fail as a whole when the first statement fails, and leave the connection usable', async () => {
    const before = await readN();
    await expect(asOwner(() => db.transaction().execute((trx) => bump(trx, -1000)))).rejects.toMatchObject({
      code: '23514',
    });
    // Twice: a statement whose Parse failed is not taken for one the connection has prepared.
    for (let i = 0; i < 2; i++)
      await expect(
        asOwner(() => db.transaction().execute((trx) => sql`select id from no_such_table`.execute(trx))),
      ).rejects.toMatchObject({ code: '42P01' });
    expect(await readN()).toBe(before);
  });

  it('answer with what their last statement returns', async () => {
    const before = (await readN()) ?? 0;
    const result = await asOwner(() =>
      db.transaction().execute(async (trx) => {
        await bump(trx, 1);
        return bump(trx, 2);
      }),
    );
    expect(result.rows).toEqual([{ n: before + 3 }]);
    expect(await readN()).toBe(before + 3);
  });

  it('may run no statement at all', async () => {
    await expect(asOwner(() => db.transaction().execute(async () => 'nothing'))).resolves.toBe('nothing');
    await expect(readN()).resolves.toBeTypeOf('number');
  });
});

describe.runIf(process.env.TEST_DB === 'pg')('a transaction on PostgreSQL', () => {
  it('is one from its first statement: a row it locks stays locked until COMMIT', async () => {
    const other = new pg.Client({ connectionString: await urlOf(db) });
    await other.connect();
    try {
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let locked = () => {};
      const lockTaken = new Promise<void>((resolve) => {
        locked = resolve;
      });
      const work = asOwner(() =>
        db.transaction().execute(async (trx) => {
          await sql`select id from tx_probe where id = 1 for update`.execute(trx);
          locked();
          await held;
        }),
      );
      await lockTaken;
      await expect(
        other.query('select id from tx_probe where id = 1 for update nowait'),
      ).rejects.toMatchObject({
        code: '55P03',
      });
      release();
      await work;
      await expect(
        other.query('select id from tx_probe where id = 1 for update nowait'),
      ).resolves.toBeTruthy();
    } finally {
      await other.end();
    }
  });

  it("gives a failing statement's error the frames of the code that awaited it, not only pg's socket handling", async () => {
    const awaitedHere = async () => {
      await asOwner(() => sql`select * from no_such_table`.execute(db));
    };
    const error = await awaitedHere().catch((caught: Error) => caught);
    expect(error).toMatchObject({ code: '42P01' });
    expect(error?.stack).toContain('awaitedHere');
  });

  it('sends BEGIN, its statements as named prepared statements, then COMMIT', async () => {
    const sent: SentStatement[] = [];
    const watched = openDatabase({
      databaseUrl: await urlOf(db),
      onStatement: (statement) => sent.push(statement),
    });
    try {
      const before = (await readN()) ?? 0;
      await asOwner(() =>
        watched.transaction().execute(async (trx) => {
          await bump(trx, 1);
          await bump(trx, 1);
        }),
      );
      expect(await readN()).toBe(before + 2);
      const texts = sent.filter((statement) => !statement.text.includes('set_config'));
      expect(texts.map((statement) => statement.text)).toEqual([
        'begin',
        'update tx_probe set n = n + $1 where id = 1 returning n',
        'update tx_probe set n = n + $1 where id = 1 returning n',
        'commit',
      ]);
      expect(texts.map((statement) => statement.name !== undefined)).toEqual([false, true, true, false]);
    } finally {
      await watched.destroy();
    }
  });

  it('prepares each data statement on its connection, and never one whose result has a *', async () => {
    const prepared = await asOwner(() =>
      db.transaction().execute(async (trx) => {
        await sql`select n from tx_probe where id = 1`.execute(trx);
        await sql`select * from tx_probe where id = 1`.execute(trx);
        const { rows } = await sql<{
          statement: string;
        }>`select statement from pg_prepared_statements`.execute(trx);
        return rows.map((row) => row.statement);
      }),
    );
    expect(prepared).toContain('select n from tx_probe where id = 1');
    expect(prepared).not.toContain('select * from tx_probe where id = 1');
  });

  it('commits one begun with an isolation level', async () => {
    const other = new pg.Client({ connectionString: await urlOf(db) });
    await other.connect();
    try {
      const n = async () => (await other.query('select n from tx_probe where id = 1')).rows[0]?.n;
      const before = await n();
      await asOwner(() =>
        db
          .transaction()
          .setIsolationLevel('serializable')
          .execute((trx) => bump(trx, 1)),
      );
      expect(await n()).toBe(before + 1);
    } finally {
      await other.end();
    }
  });
});

/** The connection string of the test database (its pool's), for a second, independent client. */
async function urlOf(handle: Db): Promise<string> {
  const { rows } = await asOwner(() =>
    sql<{ name: string }>`select current_database() as name`.execute(handle),
  );
  return withDatabase(inject('pgAdminUrl'), rows[0]?.name ?? '');
}
