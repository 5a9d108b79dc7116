import { CompiledQuery as Compiled, type CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner } from '../../src/db/scope';
import { peoplePage, searchPeople } from '../../src/modules/people/people.repository';
import { createTestDb, type TestDb } from '../test-db';
import { statementsOf } from './statements';

// The directory's search reads a district's 66,000 people through migration 027's trigram index only as
// long as its expression is the index's, character for character. An edit of either (a column added to
// the search) would still answer right, a full scan at a time, and no other test would notice: so the
// planner is asked whether the index serves the very statements the repository sends.

const PEOPLE = 2_000;

let test: TestDb;

beforeAll(async () => {
  test = await createTestDb();
  await asOwner(async () => {
    await sql`insert into schools (name) values ('Index School')`.execute(test.db);
    await sql`insert into users (school_id, first_name, last_name, email, status)
      select (select max(id) from schools), 'First' || n, 'Last' || n, 'person' || n || '@index.example.org', 1
      from generate_series(1, ${PEOPLE}) n`.execute(test.db);
    await sql`insert into user_roles (user_id, school_id, role)
      select id, school_id, 'parent' from users where email like '%@index.example.org'`.execute(test.db);
    // As autovacuum leaves it: the index's pending list merged, the planner's statistics fresh.
    await sql`vacuum analyze users`.execute(test.db);
    await sql`analyze user_roles`.execute(test.db);
  });
}, 60_000);
afterAll(() => test.close());

/**
 * The plan of a statement with sequential scans priced out: a test's few thousand rows fit in a few pages,
 * which a scan reads faster than any index, where a district's 66,000 do not. Whether the index can serve
 * the statement at all is what is asked.
 */
async function planOf(statement: CompiledQuery): Promise<string> {
  const explained = await asOwner(() =>
    test.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      return trx.executeQuery(
        Compiled.raw(`explain (format json) ${statement.sql}`, [...statement.parameters]),
      );
    }),
  );
  return JSON.stringify(explained.rows);
}

describe('the directory search uses the trigram index (migration 027)', () => {
  const schoolId = async () =>
    Number((await sql<{ id: number }>`select max(id) as id from schools`.execute(test.db)).rows[0]?.id);

  it('for a page of the directory searched on a word', async () => {
    const school = await schoolId();
    const [page] = await statementsOf(test.db, (db) =>
      asOwner(() =>
        peoplePage(db, school, 'parent', {
          words: ['last4321'],
          sort: 'name',
          dir: 'asc',
          limit: 10,
          offset: 0,
        }),
      ),
    );
    if (!page) throw new Error('no statement');
    expect(await planOf(page)).toContain('users_search_trgm_idx');
  });

  it('for the search of addresses (inviting, scanners)', async () => {
    const school = await schoolId();
    const [search] = await statementsOf(test.db, (db) =>
      asOwner(() => searchPeople(db, school, 'person4321@', ['parent'])),
    );
    if (!search) throw new Error('no statement');
    expect(await planOf(search)).toContain('users_search_trgm_idx');
  });
});
