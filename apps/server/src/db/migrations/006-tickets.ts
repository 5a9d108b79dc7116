import { type Kysely, sql } from 'kysely';

// Tickets (issue 10, decision 013). One ticket per attendee of a ticketed or graduation booking: the
// person booked and one per guest. The code is 128 random bits, the only thing the QR carries. Admitting
// is one conditional UPDATE (scanned only if not yet), so two doors presenting one ticket at once admit it
// once; every scan, refusal and undo is recorded in ticket_scans.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE tickets (
    id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    school_id integer NOT NULL,
    event_id integer NOT NULL,
    booking_id integer NOT NULL,
    user_id integer NOT NULL,
    guest_index integer NOT NULL DEFAULT 0 CHECK (guest_index BETWEEN 0 AND 20),
    code text NOT NULL UNIQUE CHECK (length(code) BETWEEN 16 AND 100),
    status text NOT NULL DEFAULT 'valid' CHECK (status IN ('valid', 'void')),
    scanned_at timestamptz,
    scanned_by integer,
    scanned_device text,
    voided_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT tickets_id_school_key UNIQUE (id, school_id),
    CONSTRAINT tickets_event_fk FOREIGN KEY (event_id, school_id) REFERENCES events (id, school_id) ON DELETE CASCADE,
    CONSTRAINT tickets_booking_fk FOREIGN KEY (booking_id, school_id) REFERENCES bookings (id, school_id) ON DELETE CASCADE,
    CONSTRAINT tickets_user_fk FOREIGN KEY (user_id, school_id) REFERENCES users (id, school_id),
    CONSTRAINT tickets_scanned_by_fk FOREIGN KEY (scanned_by, school_id) REFERENCES users (id, school_id)
      ON DELETE SET NULL (scanned_by),
    CONSTRAINT tickets_scanned_by_when CHECK (scanned_by IS NULL OR scanned_at IS NOT NULL),
    CONSTRAINT tickets_voided CHECK ((status = 'void') = (voided_at IS NOT NULL))
  )`.execute(db);
  // One live ticket per booking and head: a re-issue voids the old one first.
  await sql`CREATE UNIQUE INDEX tickets_live_key ON tickets (booking_id, guest_index) WHERE status = 'valid'`.execute(
    db,
  );
  await sql`CREATE INDEX tickets_event_idx ON tickets (event_id, user_id)`.execute(db);
  // A ticket lives with its booking, whichever path cancels it (the family, an admin, a section change).
  await sql`CREATE FUNCTION tickets_void_with_booking() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE tickets SET status = 'void', voided_at = now() WHERE booking_id = NEW.id AND status = 'valid';
      RETURN NEW;
    END $$`.execute(db);
  await sql`CREATE TRIGGER bookings_cancel_voids_tickets AFTER UPDATE OF status ON bookings
    FOR EACH ROW WHEN (OLD.status = 'booked' AND NEW.status = 'cancelled')
    EXECUTE FUNCTION tickets_void_with_booking()`.execute(db);

  await sql`CREATE TABLE ticket_scans (
    id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    school_id integer NOT NULL,
    event_id integer NOT NULL,
    ticket_id integer NOT NULL,
    -- duplicate: admitted by a door that was offline after another door had admitted it (decision 013)
    action text NOT NULL CHECK (action IN ('admit', 'refused', 'undo', 'duplicate')),
    by_user integer,
    device_id text,
    client_nonce text,
    -- When an offline door scanned it, by the device's clock (the server's receipt decides who was first).
    device_time timestamptz,
    answer jsonb,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT ticket_scans_ticket_fk FOREIGN KEY (ticket_id, school_id) REFERENCES tickets (id, school_id)
      ON DELETE CASCADE,
    CONSTRAINT ticket_scans_by_fk FOREIGN KEY (by_user, school_id) REFERENCES users (id, school_id)
      ON DELETE SET NULL (by_user)
  )`.execute(db);
  // A scanner's retry (same nonce) finds the first answer instead of scanning again.
  await sql`CREATE UNIQUE INDEX ticket_scans_nonce_key ON ticket_scans (by_user, client_nonce)
    WHERE client_nonce IS NOT NULL`.execute(db);
  await sql`CREATE INDEX ticket_scans_event_idx ON ticket_scans (event_id, created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER bookings_cancel_voids_tickets ON bookings`.execute(db);
  await sql`DROP FUNCTION tickets_void_with_booking()`.execute(db);
  await db.schema.dropTable('ticket_scans').execute();
  await db.schema.dropTable('tickets').execute();
}
