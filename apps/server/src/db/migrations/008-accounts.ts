import { type Kysely, sql } from 'kysely';

// Two-factor sign-in and the list of signed-in sessions (decision 015).
export async function up(db: Kysely<unknown>): Promise<void> {
  // A session's device and activity: shown on the profile page. last_used_at is written at most once a
  // minute (tokens.repository findSession); null until then, read as created_at.
  await sql`ALTER TABLE auth_tokens ADD COLUMN last_used_at timestamptz,
    ADD COLUMN user_agent text, ADD COLUMN ip text`.execute(db);
  // "challenge": between a right password and the second factor of the same login.
  await sql`ALTER TABLE auth_tokens DROP CONSTRAINT auth_tokens_kind_check`.execute(db);
  await sql`ALTER TABLE auth_tokens ADD CONSTRAINT auth_tokens_kind_check
    CHECK (kind in ('access', 'verify', 'reset', 'invite', 'event', 'challenge'))`.execute(db);

  // One row per person who turned two-factor sign-in on or is setting it up (enabled_at null). The
  // secret is sealed with AES-256-GCM (lib/secret-box.ts); last_step is the time step of the last code
  // accepted, which no later code may repeat.
  await sql`CREATE TABLE two_factor (
    user_id integer PRIMARY KEY,
    school_id integer NOT NULL REFERENCES schools (id) ON DELETE CASCADE,
    secret text NOT NULL,
    enabled_at timestamptz,
    last_step integer,
    created_at timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (user_id, school_id) REFERENCES users (id, school_id) ON DELETE CASCADE
  )`.execute(db);

  // One-time recovery codes, kept only as SHA-256 (60 random bits each, and only useful after the
  // password); a used one keeps its row with used_at.
  await sql`CREATE TABLE recovery_codes (
    id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id integer NOT NULL,
    school_id integer NOT NULL REFERENCES schools (id) ON DELETE CASCADE,
    code_hash text NOT NULL,
    used_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (user_id, school_id) REFERENCES users (id, school_id) ON DELETE CASCADE,
    UNIQUE (user_id, code_hash)
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE recovery_codes`.execute(db);
  await sql`DROP TABLE two_factor`.execute(db);
  await sql`DELETE FROM auth_tokens WHERE kind = 'challenge'`.execute(db);
  await sql`ALTER TABLE auth_tokens DROP CONSTRAINT auth_tokens_kind_check`.execute(db);
  await sql`ALTER TABLE auth_tokens ADD CONSTRAINT auth_tokens_kind_check
    CHECK (kind in ('access', 'verify', 'reset', 'invite', 'event'))`.execute(db);
  await sql`ALTER TABLE auth_tokens DROP COLUMN last_used_at, DROP COLUMN user_agent, DROP COLUMN ip`.execute(
    db,
  );
}
