import { type Kysely, sql } from 'kysely';

// The load-test rehearsal (issue 15, decision 022). A rehearsal's sandbox is a hidden school of its own
// (`schools.sandbox_of` names the real one), so every query that filters by school, and row-level
// security behind them, keeps its rows out of the real school's lists. `load_test_runs` is the lock and
// the record: at most one running row per installation (a unique index, so two servers cannot both start
// one), with the figures the page polls.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE schools ADD COLUMN sandbox_of integer`.execute(db);
  await sql`CREATE INDEX schools_sandbox_idx ON schools (sandbox_of) WHERE sandbox_of IS NOT NULL`.execute(
    db,
  );
  await sql`CREATE TABLE load_test_runs (
    id serial PRIMARY KEY,
    school_id integer NOT NULL REFERENCES schools (id) ON DELETE CASCADE,
    event_id integer NOT NULL,
    event_name text NOT NULL,
    parents integer NOT NULL CHECK (parents BETWEEN 1 AND 1000),
    started_by integer,
    status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'finished', 'failed')),
    sandbox_school_id integer,
    heartbeat_at timestamptz NOT NULL DEFAULT now(),
    started_at timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz,
    cleaned_at timestamptz,
    figures jsonb NOT NULL DEFAULT '{}'::jsonb,
    integrity jsonb,
    failure text
  )`.execute(db);
  // One rehearsal at a time on the whole installation, whichever school and server starts it.
  await sql`CREATE UNIQUE INDEX load_test_runs_one_running ON load_test_runs ((true)) WHERE status = 'running'`.execute(
    db,
  );
  await sql`CREATE INDEX load_test_runs_school_idx ON load_test_runs (school_id, id)`.execute(db);
  await sql`ALTER TABLE load_test_runs ENABLE ROW LEVEL SECURITY`.execute(db);
  await sql`CREATE POLICY school_wall ON load_test_runs TO parley_app
    USING (parley_all_schools() OR school_id = parley_school())
    WITH CHECK (parley_all_schools() OR school_id = parley_school())`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE load_test_runs`.execute(db);
  await sql`ALTER TABLE schools DROP COLUMN sandbox_of`.execute(db);
}
