import { type Kysely, sql } from 'kysely';

// Each round trip of a booking costs both processes CPU (a socket write and a wake-up each way), so the
// booking transaction sends fewer of them (issue 14, decision 009):
//
// - parley_booking_open locks the event FOR SHARE and the booking party's row FOR NO KEY UPDATE (decision
//   008's order), then reads what the change is checked against: the family, the slots asked for that are
//   full, the party's holdings and the slots asked for. One call where there were two statements: inside a
//   function each statement takes its own snapshot, so the read after the lock sees every change the
//   family committed before it (one statement would read them as they were before it waited).
// - parley_places_missing lets the statement that takes the places fail by itself when a place is missing
//   (as the CHECK slots_booked_count would, and with its name), so the transaction's COMMIT can go with that
//   statement: nothing after it is left to decide.

/**
 * What parley_booking_open returns under its locks, for a party that is a parent (the bookings it made) or a
 * student (the bookings for them), as one statement: the party's row (version, family, the slots asked for
 * that are full and not the party's own), then its holdings in time order (live bookings, and any this
 * idempotency key made), then the slots asked for that are still to come, unlocked (their places are taken
 * last). A branch per kind of party, so that each plan finds the party's bookings through its own index.
 */
const readUnderLock = (holder: 'parent_id' | 'student_id') => `
      RETURN QUERY
        SELECT 'party', v_version, v_email, v_first_name, v_settings,
          array(SELECT ps.student_id FROM parent_students ps
            WHERE ps.school_id = p_school AND ps.parent_id = p_party),
          array(SELECT ps.parent_id FROM parent_students ps
            WHERE ps.school_id = p_school AND ps.student_id = p_party),
          array(SELECT s.id FROM slots s WHERE s.id = ANY (p_asked) AND s.school_id = p_school
            AND s.event_id = p_event AND s.booked_count >= s.capacity
            AND NOT EXISTS (SELECT 1 FROM bookings b WHERE b.slot_id = s.id AND b.status = 'booked'
              AND b.${holder} = p_party)),
          NULL::integer, NULL::integer, NULL::integer, NULL::timestamptz, NULL::timestamptz, NULL::integer,
          NULL::text, NULL::text, NULL::integer, NULL::integer, NULL::integer
        UNION ALL
        (SELECT 'held', NULL, NULL, NULL, NULL, NULL, NULL, NULL, b.id, b.slot_id, b.teacher_id, b.starts_at,
          b.ends_at, b.student_id, b.status, b.idempotency_key, b.guests, NULL, NULL
        FROM bookings b WHERE b.school_id = p_school AND b.event_id = p_event AND b.${holder} = p_party
          AND (b.status = 'booked' OR b.idempotency_key = p_key)
        ORDER BY b.starts_at, b.id)
        UNION ALL
        SELECT 'slot', NULL, NULL, NULL, NULL, NULL, NULL, NULL, s.id, s.id, s.teacher_id, s.starts_at,
          s.ends_at, NULL, NULL, NULL, 0, s.capacity, s.booked_count
        FROM slots s WHERE s.id = ANY (p_asked) AND s.school_id = p_school AND s.event_id = p_event
          AND s.starts_at > now();`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE FUNCTION parley_booking_open(p_school integer, p_event integer, p_party integer,
      p_as_parent boolean, p_asked integer[], p_key text)
    RETURNS TABLE (row_kind text, version integer, email text, first_name text, settings jsonb,
      children integer[], parents integer[], full_slots integer[], id integer, slot_id integer,
      teacher_id integer, starts_at timestamptz, ends_at timestamptz, student_id integer, status text,
      idempotency_key text, guests integer, capacity integer, booked_count integer)
    LANGUAGE plpgsql AS $$
    #variable_conflict use_column
    DECLARE
      v_version integer;
      v_email text;
      v_first_name text;
      v_settings jsonb;
    BEGIN
      SELECT e.version, u.email, u.first_name, u.settings INTO v_version, v_email, v_first_name, v_settings
      FROM events e JOIN users u ON u.id = p_party AND u.school_id = p_school
      WHERE e.school_id = p_school AND e.id = p_event
      FOR SHARE OF e FOR NO KEY UPDATE OF u;
      IF NOT FOUND THEN
        RETURN;
      END IF;
      IF p_as_parent THEN ${sql.raw(readUnderLock('parent_id'))}
      ELSE ${sql.raw(readUnderLock('student_id'))}
      END IF;
    END $$`.execute(db);

  await sql`CREATE FUNCTION parley_places_missing(p_taken integer, p_wanted integer) RETURNS boolean
    LANGUAGE plpgsql AS $$
    BEGIN
      IF p_taken < p_wanted THEN
        RAISE EXCEPTION 'a slot asked for has no place left' USING ERRCODE = 'check_violation',
          CONSTRAINT = 'slots_booked_count', TABLE = 'slots';
      END IF;
      RETURN false;
    END $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP FUNCTION parley_places_missing(integer, integer)`.execute(db);
  await sql`DROP FUNCTION parley_booking_open(integer, integer, integer, boolean, integer[], text)`.execute(
    db,
  );
}
