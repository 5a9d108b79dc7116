import { type Kysely, sql } from 'kysely';

// Issue 41, video appointments. An event is held in person or by video. A video appointment's call runs
// between the browsers (WebRTC); Parley only relays their signalling, each message a row of call_signals
// announced on parley_calls by its id, so that the two sides may be connected to different processes.
// The rows are the call's setup (offers, answers, candidates, who is there), never its media, and are
// deleted once the appointment is over.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE events ADD COLUMN meeting_mode text NOT NULL DEFAULT 'in_person'
    CHECK (meeting_mode IN ('in_person', 'video'))`.execute(db);
  await sql`CREATE TABLE call_signals (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    school_id integer NOT NULL,
    booking_id integer NOT NULL,
    from_user integer NOT NULL,
    payload jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT call_signals_booking_fk FOREIGN KEY (booking_id) REFERENCES bookings (id) ON DELETE CASCADE,
    CONSTRAINT call_signals_from_fk FOREIGN KEY (from_user, school_id)
      REFERENCES users (id, school_id) ON DELETE CASCADE
  )`.execute(db);
  await sql`CREATE INDEX call_signals_created ON call_signals (created_at)`.execute(db);
  await sql`ALTER TABLE call_signals ENABLE ROW LEVEL SECURITY`.execute(db);
  await sql`CREATE POLICY school_wall ON call_signals TO parley_app
    USING (school_id = parley_school() OR parley_all_schools())
    WITH CHECK (school_id = parley_school() OR parley_all_schools())`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE call_signals`.execute(db);
  await sql`ALTER TABLE events DROP COLUMN meeting_mode`.execute(db);
}
