import { type Kysely, sql } from 'kysely';

// Each process keeps the sessions it has looked up (modules/tokens/session-cache.ts, decision 029). What
// may end or change a session announces the user on the channel parley_sessions, whichever code path or
// process makes the change: a token used, revoked or re-dated, a user disabled, moved or deleted, a role
// given or taken. The announcement is sent at commit, so a change rolled back says nothing. The session
// lookup now also says until when the token runs, so a kept session ends on time.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE FUNCTION parley_session_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('parley_sessions',
        (CASE WHEN TG_OP = 'DELETE' THEN to_jsonb(OLD) ELSE to_jsonb(NEW) END) ->> TG_ARGV[0]);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER auth_tokens_session_changed AFTER UPDATE ON auth_tokens FOR EACH ROW
    WHEN (OLD.used_at IS DISTINCT FROM NEW.used_at OR OLD.expires_at IS DISTINCT FROM NEW.expires_at
      OR OLD.kind IS DISTINCT FROM NEW.kind OR OLD.user_id IS DISTINCT FROM NEW.user_id)
    EXECUTE FUNCTION parley_session_changed('user_id')`.execute(db);
  await sql`CREATE TRIGGER auth_tokens_session_deleted AFTER DELETE ON auth_tokens FOR EACH ROW
    EXECUTE FUNCTION parley_session_changed('user_id')`.execute(db);
  await sql`CREATE TRIGGER users_session_changed AFTER UPDATE ON users FOR EACH ROW
    WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.school_id IS DISTINCT FROM NEW.school_id)
    EXECUTE FUNCTION parley_session_changed('id')`.execute(db);
  await sql`CREATE TRIGGER users_session_deleted AFTER DELETE ON users FOR EACH ROW
    EXECUTE FUNCTION parley_session_changed('id')`.execute(db);
  await sql`CREATE TRIGGER user_roles_session_changed AFTER INSERT OR UPDATE OR DELETE ON user_roles
    FOR EACH ROW EXECUTE FUNCTION parley_session_changed('user_id')`.execute(db);

  await sql`DROP FUNCTION parley_session(text)`.execute(db);
  await createSessionFunction(db, true);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER user_roles_session_changed ON user_roles`.execute(db);
  await sql`DROP TRIGGER users_session_deleted ON users`.execute(db);
  await sql`DROP TRIGGER users_session_changed ON users`.execute(db);
  await sql`DROP TRIGGER auth_tokens_session_deleted ON auth_tokens`.execute(db);
  await sql`DROP TRIGGER auth_tokens_session_changed ON auth_tokens`.execute(db);
  await sql`DROP FUNCTION parley_session_changed()`.execute(db);
  await sql`DROP FUNCTION parley_session(text)`.execute(db);
  await createSessionFunction(db, false);
}

/** Migration 009's lookup, with the token's end when `withEnd`. */
async function createSessionFunction(db: Kysely<unknown>, withEnd: boolean): Promise<void> {
  const end = withEnd ? sql`, expires_at timestamptz` : sql``;
  const endValue = withEnd ? sql`, t.expires_at` : sql``;
  await sql`CREATE FUNCTION parley_session(p_token_hash text)
    RETURNS TABLE (user_id integer, school_id integer, roles text[]${end})
    LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    BEGIN
      RETURN QUERY
        SELECT u.id, u.school_id, array(SELECT r.role FROM user_roles r WHERE r.user_id = u.id ORDER BY r.role)${endValue}
        FROM auth_tokens t JOIN users u ON u.id = t.user_id
        WHERE t.token_hash = p_token_hash AND t.kind = 'access' AND t.used_at IS NULL
          AND t.expires_at > now() AND u.status = 1;
    END
  $$`.execute(db);
  await sql`REVOKE ALL ON FUNCTION parley_session(text) FROM PUBLIC`.execute(db);
  await sql`GRANT EXECUTE ON FUNCTION parley_session(text) TO parley_app`.execute(db);
}
