import { type Kysely, sql } from 'kysely';

// Web Push (issue 12, decision 004): browsers' subscriptions, a push outbox worked by the mail outbox's
// lease rules (one row per subscription, so a failure retries that device only), and app-wide settings
// (the VAPID key pair every instance must share; no school's).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE app_settings (
    key text PRIMARY KEY,
    value text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`.execute(db);
  await sql`CREATE TABLE push_subscriptions (
    id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    school_id integer NOT NULL,
    user_id integer NOT NULL,
    endpoint text NOT NULL CONSTRAINT push_subscriptions_endpoint_key UNIQUE,
    p256dh text NOT NULL,
    auth text NOT NULL,
    user_agent text,
    created_at timestamptz NOT NULL DEFAULT now(),
    last_success_at timestamptz,
    CONSTRAINT push_subscriptions_id_school UNIQUE (id, school_id),
    CONSTRAINT push_subscriptions_user_fk FOREIGN KEY (user_id, school_id)
      REFERENCES users (id, school_id) ON DELETE CASCADE
  )`.execute(db);
  await sql`CREATE INDEX push_subscriptions_user_idx ON push_subscriptions (user_id)`.execute(db);
  await sql`CREATE TABLE push_outbox (
    id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    school_id integer NOT NULL,
    subscription_id integer NOT NULL,
    payload jsonb NOT NULL,
    ttl_seconds integer NOT NULL CHECK (ttl_seconds BETWEEN 0 AND 2419200),
    urgency text NOT NULL CHECK (urgency IN ('very-low', 'low', 'normal', 'high')),
    status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
    attempts integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    locked_until timestamptz,
    last_error text,
    sent_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT push_outbox_subscription_fk FOREIGN KEY (subscription_id, school_id)
      REFERENCES push_subscriptions (id, school_id) ON DELETE CASCADE
  )`.execute(db);
  await sql`CREATE INDEX push_outbox_due_idx ON push_outbox (next_attempt_at) WHERE status = 'pending'`.execute(
    db,
  );
  await sql`CREATE INDEX push_outbox_subscription_idx ON push_outbox (subscription_id)`.execute(db);
  // The second wall (migration 009) for the new school tables.
  for (const table of ['push_subscriptions', 'push_outbox']) {
    await sql`ALTER TABLE ${sql.table(table)} ENABLE ROW LEVEL SECURITY`.execute(db);
    await sql`CREATE POLICY school_wall ON ${sql.table(table)} TO parley_app
      USING (parley_all_schools() OR school_id = parley_school())
      WITH CHECK (parley_all_schools() OR school_id = parley_school())`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['push_outbox', 'push_subscriptions', 'app_settings']) {
    await sql`DROP TABLE ${sql.table(table)}`.execute(db);
  }
}
