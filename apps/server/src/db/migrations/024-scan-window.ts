import { type Kysely, sql } from 'kysely';

// The door's window (issue 35): a ticket is admitted only from some hours before the event's first section
// starts to some hours after its last one ends, so a scanner cannot admit everyone days early (and every
// real holder hear "Already Scanned"). Each event sets its own; a day either side by default; at most 60
// days, past which a window guards nothing.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE events
    ADD COLUMN scan_opens_hours_before integer NOT NULL DEFAULT 24
      CONSTRAINT events_scan_opens_hours_before_check CHECK (scan_opens_hours_before BETWEEN 0 AND 1440),
    ADD COLUMN scan_closes_hours_after integer NOT NULL DEFAULT 24
      CONSTRAINT events_scan_closes_hours_after_check CHECK (scan_closes_hours_after BETWEEN 0 AND 1440)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE events DROP COLUMN scan_opens_hours_before, DROP COLUMN scan_closes_hours_after`.execute(
    db,
  );
}
