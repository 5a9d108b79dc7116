import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { compiledOnce } from './compiled-once';
import { pgliteDatabase } from './database';
import { asOwner } from './scope';

describe('compiledOnce', () => {
  const db = pgliteDatabase(new PGlite());
  afterAll(() => db.destroy());

  // An unmigrated database has no app role yet: as its owner.
  it('compiles once and runs with each call’s values in place of the sentinels; constants stay', () =>
    asOwner(async () => {
      let builds = 0;
      const query = compiledOnce(
        (d, a: number, b: string) => {
          builds += 1;
          return d.selectNoFrom([
            sql<number>`${a}::int + 1`.as('n'),
            sql<string>`${b}::text || ${'!'}::text`.as('s'),
            sql<number>`${a}::int * 2`.as('twice'),
          ]);
        },
        [-987_001, '\u0000sentinel-b'],
      );
      expect(await query(db, 41, 'hi')).toEqual([{ n: 42, s: 'hi!', twice: 82 }]);
      expect(await query(db, 1, 'yo')).toEqual([{ n: 2, s: 'yo!', twice: 2 }]);
      await db.transaction().execute(async (trx) => {
        expect(await query(trx, 5, 'in a transaction')).toEqual([
          { n: 6, s: 'in a transaction!', twice: 10 },
        ]);
      });
      expect(builds).toBe(1);
    }));
});
