import { type Kysely, sql } from 'kysely';

// The directory searched on the server (issue 39, decision 035): part of a name or an email, in any case,
// among a district's 66,000 people. A trigram index (pg_trgm, which PGlite ships too) answers "contains"
// without reading every person; the expression is the one people.repository.ts searches, word by word.
// The name index walks a school's people in the directory's default order, so the first page of 20,000
// parents is read, not sorted.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
  await sql`CREATE INDEX users_search_trgm_idx ON users USING gin (
    lower(coalesce(title, '') || ' ' || first_name || ' ' || last_name || ' ' || email) gin_trgm_ops)`.execute(
    db,
  );
  await sql`CREATE INDEX users_school_name_idx ON users (school_id, lower(last_name), lower(first_name), id)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX users_school_name_idx`.execute(db);
  await sql`DROP INDEX users_search_trgm_idx`.execute(db);
}
