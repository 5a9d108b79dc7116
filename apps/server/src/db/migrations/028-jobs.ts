import { type Kysely, sql } from 'kysely';

// Work too big for one request (issue 39, decision 037): a reminder to a district's 40,000 recipients. A
// job goes in batches, each one transaction that does its part (mails, links, pushes, audit) and moves
// the job's cursor with it, so a recipient is handled exactly once however often the job is resumed. The
// worker holding it renews `locked_until` with every batch; once that has passed, any process may claim it
// (`claims` goes up: a worker whose claim was taken over finds its number gone and stops).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE jobs (
    id serial PRIMARY KEY,
    school_id integer NOT NULL REFERENCES schools (id) ON DELETE CASCADE,
    event_id integer,
    kind text NOT NULL CHECK (kind IN ('event-message')),
    payload jsonb NOT NULL,
    total integer NOT NULL CHECK (total >= 0),
    done integer NOT NULL DEFAULT 0 CHECK (done >= 0),
    cursor integer NOT NULL DEFAULT 0,
    status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'done', 'failed')),
    locked_until timestamptz,
    claims integer NOT NULL DEFAULT 0,
    failures integer NOT NULL DEFAULT 0,
    last_error text,
    created_at timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz,
    CHECK ((status = 'running') = (finished_at IS NULL)),
    FOREIGN KEY (event_id, school_id) REFERENCES events (id, school_id) ON DELETE CASCADE
  )`.execute(db);
  // The worker's question (which running job is free?) and the messages card's (this event's jobs).
  await sql`CREATE INDEX jobs_running_idx ON jobs (id) WHERE status = 'running'`.execute(db);
  await sql`CREATE INDEX jobs_event_idx ON jobs (school_id, event_id, id)`.execute(db);
  await sql`ALTER TABLE jobs ENABLE ROW LEVEL SECURITY`.execute(db);
  await sql`CREATE POLICY school_wall ON jobs TO parley_app
    USING (school_id = parley_school() OR parley_all_schools())
    WITH CHECK (school_id = parley_school() OR parley_all_schools())`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE jobs`.execute(db);
}
