import { type Kysely, sql } from 'kysely';

// Migrations 003, 004 and 006 were edited after they first ran (before migrations were frozen), so a
// database created then never received the edits. This brings such a database level with a fresh
// install and changes nothing on one (each step leaves the schema as today's 003/004/006 make it).
// apps/server/test/db/upgrade.test.ts proves both from the commits where they first landed.
export async function up(db: Kysely<unknown>): Promise<void> {
  // 003: a family's bookings are the school's records, not deleted with the person (no cascade).
  await sql`ALTER TABLE bookings
    DROP CONSTRAINT bookings_parent_fk,
    DROP CONSTRAINT bookings_student_fk,
    ADD CONSTRAINT bookings_parent_fk FOREIGN KEY (parent_id, school_id) REFERENCES users (id, school_id),
    ADD CONSTRAINT bookings_student_fk FOREIGN KEY (student_id, school_id) REFERENCES users (id, school_id)`.execute(
    db,
  );
  // 004: one live booking per child and teacher, whoever books; the idempotency key per child.
  await sql`DO $$ BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'bookings_student_teacher_once') THEN
      ALTER TABLE bookings ADD CONSTRAINT bookings_student_teacher_once
        EXCLUDE USING gist (event_id WITH =, teacher_id WITH =, student_id WITH =, slot_id WITH <>)
        WHERE (status = 'booked');
    END IF;
  END $$`.execute(db);
  await sql`DROP INDEX bookings_idempotency_key`.execute(db);
  await sql`CREATE UNIQUE INDEX bookings_idempotency_key
    ON bookings (booked_by, idempotency_key, slot_id, coalesce(student_id, 0))
    WHERE idempotency_key IS NOT NULL`.execute(db);
  // 006: scans a door made offline, and the duplicates they can turn out to be.
  await sql`ALTER TABLE ticket_scans ADD COLUMN IF NOT EXISTS device_time timestamptz`.execute(db);
  await sql`ALTER TABLE ticket_scans
    DROP CONSTRAINT ticket_scans_action_check,
    ADD CONSTRAINT ticket_scans_action_check CHECK (action IN ('admit', 'refused', 'undo', 'duplicate'))`.execute(
    db,
  );
}

export async function down(): Promise<void> {
  // Nothing to undo: the schema is today's 003/004/006 either way.
}
