import { type Kysely, sql } from 'kysely';

// The audit trail (issue 11, decision 014): one row per change an admin or teacher made to someone else's
// data, written in the change's own transaction. An entry outlives what it is about: it names people and
// events by id with a snapshot of their names, and has no foreign key to them (a cascade would erase the
// record, a restriction would block the deletion it records). Only the school owns it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE audit_entries (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    school_id integer NOT NULL REFERENCES schools (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    -- Who: the user's id, and their name and email as they were then.
    actor_id integer,
    actor_name text NOT NULL CHECK (length(actor_name) <= 300),
    actor_email text NOT NULL CHECK (length(actor_email) <= 300),
    -- What: booking.moved, person.updated…; the object acted on, named as it was then.
    action text NOT NULL CHECK (action ~ '^[a-z]+\\.[a-z_]+$'),
    subject_type text NOT NULL CHECK (subject_type IN ('person', 'event', 'booking', 'ticket')),
    subject_id integer NOT NULL,
    subject_label text NOT NULL CHECK (length(subject_label) <= 500),
    -- The event it happened in, and everyone it touched (a booking's family, a message's recipients).
    event_id integer,
    person_ids integer[] NOT NULL DEFAULT '{}',
    detail jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(detail) = 'object'),
    -- From where: the request's address and browser.
    ip text CHECK (length(ip) <= 100),
    user_agent text CHECK (length(user_agent) <= 1000)
  )`.execute(db);
  // The reads: a person's entries (GIN over the people touched), an event's, and the school's, newest first.
  await sql`CREATE INDEX audit_entries_people_idx ON audit_entries USING gin (person_ids)`.execute(db);
  await sql`CREATE INDEX audit_entries_event_idx ON audit_entries (school_id, event_id, id DESC)
    WHERE event_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX audit_entries_school_idx ON audit_entries (school_id, id DESC)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_entries').execute();
}
