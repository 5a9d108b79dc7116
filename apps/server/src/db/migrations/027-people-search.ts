import { type Kysely, sql } from 'kysely';

// The directory searched on the server (issue 39, decision 035): part of a name or an email, in any case,
// among a district's 66,000 people. A trigram index (pg_trgm, which PGlite ships too) answers "contains"
// without reading every person; the expression is the one people.repository.ts searches, word by word.
// (An index in the directory's name order was tried and dropped: a page counts all its matches anyway, and
// walking 40,000 people in order to join their roles one by one took 100 ms where a hash join takes 30.)
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
  await sql`CREATE INDEX users_search_trgm_idx ON users USING gin (
    lower(coalesce(title, '') || ' ' || first_name || ' ' || last_name || ' ' || email) gin_trgm_ops)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX users_search_trgm_idx`.execute(db);
}
