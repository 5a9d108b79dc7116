import { type Kysely, sql } from 'kysely';

// The school wall (migration 009) asks its two questions in the cheaper order for the common case: a
// request in one school's scope matches its rows on the first (`school_id = parley_school()`) and never
// reads the setting a second time to learn it is not 'all'. Same rows either way: NULL OR true is true,
// NULL OR false is NULL (no row), so unset still sees nothing and 'all' still sees every row, those
// without a school included. Evaluated for every row a statement scans, on every hot statement (issue 14).
export async function up(db: Kysely<unknown>): Promise<void> {
  await reorder(db, (column) => `${column} = parley_school() OR parley_all_schools()`);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await reorder(db, (column) => `parley_all_schools() OR ${column} = parley_school()`);
}

async function reorder(db: Kysely<unknown>, predicate: (column: string) => string): Promise<void> {
  const { rows } = await sql<{ tablename: string }>`
    SELECT tablename FROM pg_policies WHERE schemaname = 'public' AND policyname = 'school_wall'
    ORDER BY tablename`.execute(db);
  for (const { tablename } of rows) {
    const column = tablename === 'schools' ? 'id' : 'school_id';
    await sql`ALTER POLICY school_wall ON ${sql.table(tablename)}
      USING (${sql.raw(predicate(column))}) WITH CHECK (${sql.raw(predicate(column))})`.execute(db);
  }
}
