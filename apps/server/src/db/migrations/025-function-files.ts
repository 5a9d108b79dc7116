import { type Kysely, sql } from 'kysely';

// The database's functions are kept in files from here on (db/functions/*.sql, db/function-files.ts): after
// the migrations, each file whose SHA-256 differs from the one recorded here is run (CREATE OR REPLACE) and
// recorded, so a function's new body reaches every database on its next start without editing the landed
// migration that first made it. The owner's table: the app role has no business with it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE parley_function_files (
    file text PRIMARY KEY,
    sha256 text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`.execute(db);
  await sql`REVOKE ALL ON parley_function_files FROM parley_app`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE parley_function_files`.execute(db);
}
