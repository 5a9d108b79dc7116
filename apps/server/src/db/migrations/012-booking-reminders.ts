import { type Kysely, sql } from 'kysely';

// The day-before reminder push (issue 12): one row per booking once its reminder is queued, so each
// booking is reminded once however many instances sweep (the primary key decides, not the code).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE booking_reminders (
    booking_id integer PRIMARY KEY,
    school_id integer NOT NULL,
    queued_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT booking_reminders_booking_fk FOREIGN KEY (booking_id)
      REFERENCES bookings (id) ON DELETE CASCADE
  )`.execute(db);
  // The sweep reads live bookings by start time.
  await sql`CREATE INDEX bookings_live_starts_idx ON bookings (starts_at) WHERE status = 'booked'`.execute(
    db,
  );
  await sql`ALTER TABLE booking_reminders ENABLE ROW LEVEL SECURITY`.execute(db);
  await sql`CREATE POLICY school_wall ON booking_reminders TO parley_app
    USING (parley_all_schools() OR school_id = parley_school())
    WITH CHECK (parley_all_schools() OR school_id = parley_school())`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE booking_reminders`.execute(db);
  await sql`DROP INDEX bookings_live_starts_idx`.execute(db);
}
