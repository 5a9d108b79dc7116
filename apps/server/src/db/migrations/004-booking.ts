import { type Kysely, sql } from 'kysely';

// Booking (issue 5). The rules that must hold under a rush live here, in constraints PostgreSQL checks
// whatever the code does:
// - a slot never holds more parties than its capacity (slots_booked_count, from 003, with the booking
//   path's conditional UPDATE);
// - a parent never holds two slots of the same teacher in one event, nor a child two with one teacher;
// - a parent and a child are never in two overlapping appointments. Siblings seen together by one teacher
//   share a slot (one row per child in the same slot), which is not an overlap;
// - a client's retry with the same idempotency key creates nothing new.
// Frozen once released: later changes go in a new migration.
export async function up(db: Kysely<unknown>): Promise<void> {
  // Equality on integers inside a GiST exclusion constraint (trusted extension, PostgreSQL 13+; PGlite
  // loads it from its contrib bundle).
  await sql`CREATE EXTENSION IF NOT EXISTS btree_gist`.execute(db);

  await sql`ALTER TABLE bookings
    ADD COLUMN during tstzrange GENERATED ALWAYS AS (tstzrange(starts_at, ends_at)) STORED,
    ADD COLUMN booked_by integer,
    ADD COLUMN idempotency_key text,
    ADD COLUMN confirmed_at timestamptz,
    ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now(),
    ADD CONSTRAINT bookings_order CHECK (starts_at < ends_at)`.execute(db);
  await sql`ALTER TABLE bookings ADD CONSTRAINT bookings_booked_by_fk FOREIGN KEY (booked_by, school_id)
    REFERENCES users (id, school_id) ON DELETE SET NULL (booked_by)`.execute(db);

  await sql`ALTER TABLE bookings ADD CONSTRAINT bookings_parent_overlap
    EXCLUDE USING gist (parent_id WITH =, during WITH &&, slot_id WITH <>) WHERE (status = 'booked')`.execute(
    db,
  );
  await sql`ALTER TABLE bookings ADD CONSTRAINT bookings_student_overlap
    EXCLUDE USING gist (student_id WITH =, during WITH &&) WHERE (status = 'booked')`.execute(db);
  await sql`ALTER TABLE bookings ADD CONSTRAINT bookings_parent_teacher_once
    EXCLUDE USING gist (event_id WITH =, teacher_id WITH =, parent_id WITH =, slot_id WITH <>)
    WHERE (status = 'booked')`.execute(db);
  // The same for the child, whoever books (the child, or either of two parents).
  await sql`ALTER TABLE bookings ADD CONSTRAINT bookings_student_teacher_once
    EXCLUDE USING gist (event_id WITH =, teacher_id WITH =, student_id WITH =, slot_id WITH <>)
    WHERE (status = 'booked')`.execute(db);
  // One booking per idempotency key, booker, slot and child (siblings share a slot in one request); a
  // replay finds them instead of booking again.
  await sql`CREATE UNIQUE INDEX bookings_idempotency_key
    ON bookings (booked_by, idempotency_key, slot_id, coalesce(student_id, 0))
    WHERE idempotency_key IS NOT NULL`.execute(db);

  // A personal booking link: an "event" token names the one event it opens (invitation mails).
  await sql`ALTER TABLE auth_tokens DROP CONSTRAINT IF EXISTS auth_tokens_kind_check`.execute(db);
  await sql`ALTER TABLE auth_tokens ADD CONSTRAINT auth_tokens_kind_check
    CHECK (kind in ('access', 'verify', 'reset', 'invite', 'event'))`.execute(db);
  await sql`ALTER TABLE auth_tokens ADD COLUMN event_id integer`.execute(db);
  await sql`ALTER TABLE auth_tokens ADD CONSTRAINT auth_tokens_event_fk FOREIGN KEY (event_id, school_id)
    REFERENCES events (id, school_id) ON DELETE CASCADE`.execute(db);
  await sql`ALTER TABLE auth_tokens ADD CONSTRAINT auth_tokens_event_kind
    CHECK ((kind = 'event') = (event_id IS NOT NULL))`.execute(db);

  // Calendar files travel with their mail: [{ filename, contentType, content }].
  await sql`ALTER TABLE mail_outbox ADD COLUMN attachments jsonb NOT NULL DEFAULT '[]'::jsonb`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE mail_outbox DROP COLUMN attachments`.execute(db);
  await sql`DELETE FROM auth_tokens WHERE kind = 'event'`.execute(db);
  await sql`ALTER TABLE auth_tokens DROP CONSTRAINT auth_tokens_event_kind`.execute(db);
  await sql`ALTER TABLE auth_tokens DROP CONSTRAINT auth_tokens_event_fk`.execute(db);
  await sql`ALTER TABLE auth_tokens DROP COLUMN event_id`.execute(db);
  await sql`ALTER TABLE auth_tokens DROP CONSTRAINT auth_tokens_kind_check`.execute(db);
  await sql`ALTER TABLE auth_tokens ADD CONSTRAINT auth_tokens_kind_check
    CHECK (kind in ('access', 'verify', 'reset', 'invite'))`.execute(db);
  await sql`DROP INDEX bookings_idempotency_key`.execute(db);
  await sql`ALTER TABLE bookings
    DROP CONSTRAINT bookings_student_teacher_once,
    DROP CONSTRAINT bookings_parent_teacher_once,
    DROP CONSTRAINT bookings_student_overlap,
    DROP CONSTRAINT bookings_parent_overlap,
    DROP CONSTRAINT bookings_booked_by_fk,
    DROP CONSTRAINT bookings_order,
    DROP COLUMN updated_at, DROP COLUMN confirmed_at, DROP COLUMN idempotency_key,
    DROP COLUMN booked_by, DROP COLUMN during`.execute(db);
}
