import { type Kysely, sql } from 'kysely';

// Issue 41, video appointments: an admin joins a call only when its teacher has invited them to help
// (an interpreter, a hard conversation). One row per booking and admin; the call's authorisation reads it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE call_invitations (
    id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    school_id integer NOT NULL,
    booking_id integer NOT NULL,
    admin_id integer NOT NULL,
    invited_by integer NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT call_invitations_once UNIQUE (booking_id, admin_id),
    CONSTRAINT call_invitations_booking_fk FOREIGN KEY (booking_id) REFERENCES bookings (id) ON DELETE CASCADE,
    CONSTRAINT call_invitations_admin_fk FOREIGN KEY (admin_id, school_id)
      REFERENCES users (id, school_id) ON DELETE CASCADE,
    CONSTRAINT call_invitations_by_fk FOREIGN KEY (invited_by, school_id)
      REFERENCES users (id, school_id) ON DELETE CASCADE
  )`.execute(db);
  await sql`ALTER TABLE call_invitations ENABLE ROW LEVEL SECURITY`.execute(db);
  await sql`CREATE POLICY school_wall ON call_invitations TO parley_app
    USING (school_id = parley_school() OR parley_all_schools())
    WITH CHECK (school_id = parley_school() OR parley_all_schools())`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE call_invitations`.execute(db);
}
