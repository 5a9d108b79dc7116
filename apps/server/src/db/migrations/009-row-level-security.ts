import { type Kysely, sql } from 'kysely';

// Row-level security, the second wall for tenancy (issue 11, decision 016). The app works as the role
// parley_app, which owns nothing and is bound by a policy on every table that holds a school's rows: it
// sees and writes only the rows of the school named by the setting parley.school (db/scope.ts sets it for
// each connection), or every school's when that setting is 'all' (work that is no one school's: sign-in,
// the mail worker). Unset, it sees nothing. Migrations run as the tables' owner, whom the policies leave be.
export async function up(db: Kysely<unknown>): Promise<void> {
  // Roles belong to the whole cluster: another database (a test run's copy) may have made it already, or be
  // making it at this very moment.
  await sql`DO $$ BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'parley_app') THEN
      CREATE ROLE parley_app NOLOGIN NOSUPERUSER NOBYPASSRLS;
    END IF;
  EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
  END $$`.execute(db);
  // The login the app connects as must be able to become parley_app (SET ROLE).
  await sql`DO $$ BEGIN
    IF NOT pg_has_role(current_user, 'parley_app', 'MEMBER') THEN
      EXECUTE format('GRANT parley_app TO %I', current_user);
    END IF;
  END $$`.execute(db);

  await sql`GRANT USAGE ON SCHEMA public TO parley_app`.execute(db);
  // No TRUNCATE: it would pass by the policies.
  await sql`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO parley_app`.execute(db);
  await sql`GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO parley_app`.execute(db);
  // Tables of later migrations get the same grants; their policy is theirs to add (a test checks it).
  await sql`ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO parley_app`.execute(
    db,
  );
  await sql`ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO parley_app`.execute(
    db,
  );

  // The school of the work in hand: a number, or null for 'all' and for unset (which then matches no row).
  await sql`CREATE FUNCTION parley_school() RETURNS integer LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT nullif(nullif(current_setting('parley.school', true), ''), 'all')::integer
  $$`.execute(db);
  await sql`CREATE FUNCTION parley_all_schools() RETURNS boolean LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT coalesce(current_setting('parley.school', true) = 'all', false)
  $$`.execute(db);

  const { rows } = await sql<{ table_name: string }>`
    SELECT c.table_name FROM information_schema.columns c
    JOIN information_schema.tables t USING (table_schema, table_name)
    WHERE c.table_schema = 'public' AND c.column_name = 'school_id' AND t.table_type = 'BASE TABLE'
    ORDER BY c.table_name`.execute(db);
  for (const { table_name } of rows) await wall(db, table_name, 'school_id');
  await wall(db, 'schools', 'id');

  // Every request finds its caller's session before it knows the school: this one lookup reads across
  // schools, as the owner, and answers only for the token presented. It is what findSession ran before.
  await sql`CREATE FUNCTION parley_session(p_token_hash text)
    RETURNS TABLE (user_id integer, school_id integer, roles text[])
    LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    BEGIN
      RETURN QUERY
        SELECT u.id, u.school_id, array(SELECT r.role FROM user_roles r WHERE r.user_id = u.id ORDER BY r.role)
        FROM auth_tokens t JOIN users u ON u.id = t.user_id
        WHERE t.token_hash = p_token_hash AND t.kind = 'access' AND t.used_at IS NULL
          AND t.expires_at > now() AND u.status = 1;
    END
  $$`.execute(db);
  // An email is one account across all schools: inviting someone asks whether another school has them,
  // and learns which school, nothing more.
  await sql`CREATE FUNCTION parley_email_schools(p_emails text[])
    RETURNS TABLE (email text, school_id integer)
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
      SELECT u.email, u.school_id FROM users u WHERE u.email = ANY (p_emails)
  $$`.execute(db);
  for (const fn of ['parley_session(text)', 'parley_email_schools(text[])']) {
    await sql`REVOKE ALL ON FUNCTION ${sql.raw(fn)} FROM PUBLIC`.execute(db);
    await sql`GRANT EXECUTE ON FUNCTION ${sql.raw(fn)} TO parley_app`.execute(db);
  }
}

async function wall(db: Kysely<unknown>, table: string, column: string): Promise<void> {
  await sql`ALTER TABLE ${sql.table(table)} ENABLE ROW LEVEL SECURITY`.execute(db);
  await sql`CREATE POLICY school_wall ON ${sql.table(table)} TO parley_app
    USING (parley_all_schools() OR ${sql.ref(column)} = parley_school())
    WITH CHECK (parley_all_schools() OR ${sql.ref(column)} = parley_school())`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ tablename: string }>`
    SELECT tablename FROM pg_policies WHERE schemaname = 'public' AND policyname = 'school_wall'`.execute(db);
  for (const { tablename } of rows) {
    await sql`DROP POLICY school_wall ON ${sql.table(tablename)}`.execute(db);
    await sql`ALTER TABLE ${sql.table(tablename)} DISABLE ROW LEVEL SECURITY`.execute(db);
  }
  await sql`DROP FUNCTION parley_email_schools(text[])`.execute(db);
  await sql`DROP FUNCTION parley_session(text)`.execute(db);
  await sql`DROP FUNCTION parley_all_schools()`.execute(db);
  await sql`DROP FUNCTION parley_school()`.execute(db);
}
