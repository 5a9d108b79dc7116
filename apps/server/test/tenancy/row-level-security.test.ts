import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ROLE, asOwner, asSchool, asSystem } from '../../src/db/scope';
import { requireSession } from '../../src/plugins/auth';
import { bearer } from '../factories';
import { createTestApp, json, type TestApp } from '../test-app';
import { type School, schoolOfEverything, schoolTables } from './two-schools';

// The second wall (migration 009, decision 016): as the app's role, a query that forgets its school filter
// finds only the school of the work in hand, on PGlite and on PostgreSQL alike.

let t: TestApp;
let a: School;
let b: School;
let tables: string[];

/** Rows of `table` per school, counted as the tables' owner (whom the policies leave be). */
async function ownerCounts(table: string): Promise<Map<number, number>> {
  const { rows } = await asOwner(() =>
    sql<{ school_id: number; n: number }>`SELECT school_id, count(*)::int AS n FROM ${sql.table(table)}
      WHERE school_id IS NOT NULL GROUP BY school_id`.execute(t.db),
  );
  return new Map(rows.map((row) => [row.school_id, row.n]));
}

beforeAll(async () => {
  t = await createTestApp();
  // A probe behind the app's own authentication: a query with no school filter at all.
  t.app.get('/api/test/unfiltered-users', { onRequest: requireSession(t.db) }, async () => {
    const users = await t.db.selectFrom('users').select(['id', 'school_id', 'email']).execute();
    const [who] = (await sql<{ user: string }>`SELECT current_user AS user`.execute(t.db)).rows;
    return { users, user: who?.user };
  });
  // Every kind of row exists twice: one school's rows are there to be missed by the other.
  a = await schoolOfEverything(t, 'Alpha Academy');
  b = await schoolOfEverything(t, 'Beta Academy');
  tables = await schoolTables(t.db);
});

afterAll(() => t.close());

describe('row-level security', () => {
  it('puts a policy on every table that holds a school’s rows, tables included that later migrations add', async () => {
    const { rows } = await asOwner(() =>
      sql<{ relname: string; rls: boolean; policies: number }>`SELECT c.relname, c.relrowsecurity AS rls,
        (SELECT count(*)::int FROM pg_policies p WHERE p.tablename = c.relname AND p.policyname = 'school_wall'
          AND ${APP_ROLE} = ANY (p.roles)) AS policies
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relname = ANY (${[...tables, 'schools']}::text[])`.execute(t.db),
    );
    expect(rows).toHaveLength(tables.length + 1);
    for (const row of rows)
      expect(row, row.relname).toEqual({ relname: row.relname, rls: true, policies: 1 });
    console.log(`row-level security: ${rows.length} tables walled (${tables.join(', ')}, schools)`);
  });

  it('asks first whether a row is the school’s own (one read of the setting per row in a school’s scope)', async () => {
    const { rows } = await asOwner(() =>
      sql<{ tablename: string; qual: string; with_check: string }>`SELECT tablename, qual, with_check
        FROM pg_policies WHERE schemaname = 'public' AND policyname = 'school_wall'`.execute(t.db),
    );
    expect(rows.length).toBeGreaterThan(tables.length);
    for (const row of rows) {
      const column = row.tablename === 'schools' ? 'id' : 'school_id';
      const expected = `((${column} = parley_school()) OR parley_all_schools())`;
      expect({ table: row.tablename, qual: row.qual, check: row.with_check }).toEqual({
        table: row.tablename,
        qual: expected,
        check: expected,
      });
    }
  });

  it('has a query without its school filter find only its own school’s rows, table by table', async () => {
    let foreignSeen = 0;
    for (const table of tables) {
      const counts = await ownerCounts(table);
      const unfiltered = async (schoolId: number) =>
        (
          await asSchool(schoolId, () =>
            sql<{ school_id: number; n: number }>`SELECT school_id, count(*)::int AS n
              FROM ${sql.table(table)} GROUP BY school_id`.execute(t.db),
          )
        ).rows;
      for (const school of [a.schoolId, b.schoolId]) {
        const seen = await unfiltered(school);
        const expected = counts.get(school);
        expect(seen, `${table} as school ${school}`).toEqual(
          expected ? [{ school_id: school, n: expected }] : [],
        );
      }
      foreignSeen += counts.get(b.schoolId) ?? 0;
    }
    // The other school's rows are there to be missed: the test could fail.
    expect(foreignSeen).toBeGreaterThan(20);
    const schools = await asSchool(a.schoolId, () => t.db.selectFrom('schools').select('id').execute());
    expect(schools).toEqual([{ id: a.schoolId }]);
  });

  it('walls a signed-in request: an unfiltered query in a route sees its caller’s school, as parley_app', async () => {
    for (const e of [a, b]) {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/test/unfiltered-users',
        headers: bearer(e.admin.token),
      });
      const body = json<{ users: Array<{ school_id: number }>; user: string }>(response);
      expect(body.user).toBe(APP_ROLE);
      expect(body.users.length).toBeGreaterThan(5);
      expect(new Set(body.users.map((user) => user.school_id))).toEqual(new Set([e.schoolId]));
    }
  });

  it('refuses to write a row into another school', async () => {
    const write = asSchool(a.schoolId, () =>
      t.db.insertInto('subjects').values({ school_id: b.schoolId, name: 'Smuggled' }).execute(),
    );
    await expect(write).rejects.toThrow(/row-level security/);
    const moved = await asSchool(a.schoolId, () =>
      t.db.updateTable('users').set({ first_name: 'Moved' }).where('school_id', '=', b.schoolId).execute(),
    );
    expect(Number(moved[0]?.numUpdatedRows)).toBe(0);
  });

  it('sees nothing when no school is set, and every school only in the system scope', async () => {
    const nothing = await asOwner(() =>
      t.db.transaction().execute(async (trx) => {
        await sql`SET LOCAL ROLE ${sql.raw(APP_ROLE)}`.execute(trx);
        await sql`SELECT set_config('parley.school', '', true)`.execute(trx);
        return trx.selectFrom('users').select('id').execute();
      }),
    );
    expect(nothing).toEqual([]);
    const all = await asSystem(() => t.db.selectFrom('schools').select('id').execute());
    expect(all.map((row) => row.id)).toEqual(expect.arrayContaining([a.schoolId, b.schoolId]));
  });

  it('runs the app as a role that is neither superuser nor the tables’ owner', async () => {
    const [role] = (
      await asSchool(a.schoolId, () =>
        sql<{ user: string; superuser: boolean; bypass: boolean; owns: number }>`SELECT current_user AS user,
          r.rolsuper AS superuser, r.rolbypassrls AS bypass,
          (SELECT count(*)::int FROM pg_tables WHERE schemaname = 'public' AND tableowner = current_user) AS owns
          FROM pg_roles r WHERE r.rolname = current_user`.execute(t.db),
      )
    ).rows;
    expect(role).toEqual({ user: APP_ROLE, superuser: false, bypass: false, owns: 0 });
  });
});
