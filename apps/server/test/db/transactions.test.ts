import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { AND_COMMIT, type Db } from '../../src/db/database';
import { asOwner } from '../../src/db/scope';
import { withDatabase } from '../global-setup';
import { createTestDb, type TestDb } from '../test-db';

// Transactions as the app runs them (db/database.ts): on PostgreSQL a transaction's BEGIN is held back and
// sent with its first statement, in one round trip, and its COMMIT goes with a statement marked AND_COMMIT.
// It must still be a transaction from its first statement on: what that statement locks or writes is held
// until COMMIT and undone by ROLLBACK, and a marked statement that fails takes the whole change with it.

const sends: unknown[] = [];
let testDb: TestDb;
let db: Db;

beforeAll(async () => {
  // Seen below the app's wrapper: every message batch it hands to pg (the wrapper binds this at connect).
  const original = pg.Client.prototype.query;
  vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
    sends.push(args[0]);
    return (original as (...a: unknown[]) => unknown).apply(this, args) as never;
  });
  testDb = await createTestDb();
  db = testDb.db;
  await asOwner(() =>
    sql`create table tx_probe (id int primary key, n int not null check (n >= 0))`.execute(db),
  );
  await asOwner(() => sql`insert into tx_probe values (1, 0)`.execute(db));
});

afterAll(async () => {
  vi.restoreAllMocks();
  await testDb?.close();
});

/**
 * What was handed to pg since `sends` was emptied: a text, or the kind of query object. A connection
 * switched into the owner's scope first says so (db/scope.ts): not part of it.
 */
const sent = () =>
  sends
    .filter((item) => !JSON.stringify(item).includes('set_config'))
    .map((item) =>
      typeof item === 'string' ? item : (item as { constructor: { name: string } }).constructor.name,
    );

const readN = async () =>
  (await asOwner(() => sql<{ n: number }>`select n from tx_probe where id = 1`.execute(db))).rows[0]?.n;
const bump = (trx: Db, by: number) =>
  sql`update tx_probe set n = n + ${by} where id = 1 returning n`.execute(trx);
const bumpAndCommit = (trx: Db, by: number) =>
  sql`${sql.raw(AND_COMMIT)}update tx_probe set n = n + ${by} where id = 1 returning n`.execute(trx);

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

  it.each([
    ['a later statement', bump],
    ['the statement marked AND_COMMIT', bumpAndCommit],
  ])('undo everything when %s fails, and leave the connection usable', async (_, last) => {
    const before = await readN();
    await expect(
      asOwner(() =>
        db.transaction().execute(async (trx) => {
          await bump(trx, 1);
          await last(trx, -1000); // the CHECK refuses it
        }),
      ),
    ).rejects.toMatchObject({ code: '23514' });
    expect(await readN()).toBe(before);
    await asOwner(() => db.transaction().execute((trx) => bump(trx, 1)));
    expect(await readN()).toBe((before ?? 0) + 1);
  });

  it('fail as a whole when the first statement fails, and leave the connection usable', async () => {
    const before = await readN();
    for (const first of [bump, bumpAndCommit])
      await expect(asOwner(() => db.transaction().execute((trx) => first(trx, -1000)))).rejects.toMatchObject(
        { code: '23514' },
      );
    // Twice: a statement whose Parse failed is not taken for one the connection has prepared.
    for (let i = 0; i < 2; i++)
      await expect(
        asOwner(() => db.transaction().execute((trx) => sql`select * from no_such_table`.execute(trx))),
      ).rejects.toMatchObject({ code: '42P01' });
    expect(await readN()).toBe(before);
  });

  it('commit with a statement marked AND_COMMIT, which answers as it would alone', async () => {
    const before = (await readN()) ?? 0;
    const result = await asOwner(() =>
      db.transaction().execute(async (trx) => {
        await bump(trx, 1);
        return bumpAndCommit(trx, 2);
      }),
    );
    expect(result.rows).toEqual([{ n: before + 3 }]);
    expect(await readN()).toBe(before + 3);
    // The transaction's first statement may be its last.
    await asOwner(() => db.transaction().execute((trx) => bumpAndCommit(trx, 1)));
    expect(await readN()).toBe(before + 4);
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

  /** What a transaction of two statements hands to pg, the second one `last`. */
  async function sentBy(last: typeof bump) {
    sends.length = 0;
    await asOwner(() =>
      db.transaction().execute(async (trx) => {
        await bump(trx, 1);
        await last(trx, 1);
      }),
    );
    return sent();
  }

  it("gives a failing statement's error the frames of the code that awaited it, not only pg's socket handling", async () => {
    const awaitedHere = async () => {
      await asOwner(() => sql`select * from no_such_table`.execute(db));
    };
    const error = await awaitedHere().catch((caught: Error) => caught);
    expect(error).toMatchObject({ code: '42P01' });
    expect(error?.stack).toContain('awaitedHere');
  });

  it('sends its BEGIN with its first statement: one round trip fewer', async () => {
    const texts = await sentBy(bump);
    expect(texts).not.toContain('begin');
    expect(texts.filter((text) => text === 'PipelinedQuery')).toHaveLength(1);
    expect(texts.at(-1)).toBe('commit');
    expect(texts).toHaveLength(3);
  });

  it('commits one begun otherwise (an isolation level set): its COMMIT is sent', async () => {
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

  it('sends its COMMIT with the statement marked AND_COMMIT, and nothing after it', async () => {
    expect(await sentBy(bumpAndCommit)).toEqual(['PipelinedQuery', 'PipelinedQuery']);
    // Still a transaction until then: a statement after the COMMIT is refused, not run on its own.
    const before = await readN();
    await expect(
      asOwner(() =>
        db.transaction().execute(async (trx) => {
          await bumpAndCommit(trx, 1);
          await bump(trx, 1);
        }),
      ),
    ).rejects.toThrow('A statement after the one its transaction committed with.');
    expect(await readN()).toBe((before ?? 0) + 1);
    // Nor one sent while it is in flight; and the connection is fine afterwards.
    await expect(
      asOwner(() => db.transaction().execute((trx) => Promise.all([bumpAndCommit(trx, 1), bump(trx, 1)]))),
    ).rejects.toThrow('A statement after the one its transaction committed with.');
    await asOwner(() => db.transaction().execute((trx) => bump(trx, 1)));
    expect(await readN()).toBe((before ?? 0) + 3);
  });
});

/** The connection string of the test database (its pool's), for a second, independent client. */
async function urlOf(handle: Db): Promise<string> {
  const { rows } = await asOwner(() =>
    sql<{ name: string }>`select current_database() as name`.execute(handle),
  );
  return withDatabase(inject('pgAdminUrl'), rows[0]?.name ?? '');
}
