import { type Kysely, sql } from 'kysely';

// A slot's taken places are PostgreSQL's to count, from its live bookings, on every write to them (issue
// 34, decision 009). Before, the booking code moved slots.booked_count by what a request asked for, and
// ordinary cancels and moves drifted it: a student's cancel of a place shared with a sibling gave it back,
// and two cancels of one booking gave it back twice. Now:
// - a parent-teacher or booking event's slot holds one place per party (a parent's bookings, or a student's
//   own), held while any of the party's rows in the slot is live: counted again from the rows under the
//   slot's lock whenever a row's liveness, slot or party changes;
// - a ticketed event's slot (groups 2 and 3) holds a person per attendee and guest: moved by the people of
//   the one row that changed state, as the trigger sees it (never what a request asked for);
// - the CHECK slots_booked_count (0 ≤ booked_count ≤ capacity) then refuses a write that would leave a
//   slot over capacity, whatever code path makes it;
// - booked_count is written by these triggers only: a direct write of it is refused.

/** The parties a slot's live bookings are: a parent's rows, or a student's own (ids are positive). */
const PARTIES = `SELECT count(DISTINCT coalesce(b.parent_id, -b.student_id))::integer FROM bookings b
  WHERE b.slot_id = s.id AND b.status = 'booked'`;
/** The people a ticketed slot's live bookings bring. */
const PEOPLE = `SELECT coalesce(sum(1 + b.guests), 0)::integer FROM bookings b
  WHERE b.slot_id = s.id AND b.status = 'booked'`;

export async function up(db: Kysely<unknown>): Promise<void> {
  // One slot's places after a change of its bookings. The slot's row is locked first (with its event's
  // kind), so two changes to one slot's bookings count one after the other, and a count is a statement
  // of its own after the lock (it sees every change committed before the lock was granted). People move by
  // the changed row's own (p_before → p_after); without them (an event's kind changed) they are counted.
  await sql`CREATE FUNCTION parley_count_places(p_slot integer, p_before integer, p_after integer)
    RETURNS void LANGUAGE plpgsql AS $$
    DECLARE
      v_people boolean;
      v_places integer;
    BEGIN
      SELECT t.group_int IN (2, 3) INTO v_people
      FROM slots s JOIN events e ON e.id = s.event_id JOIN event_types t ON t.id = e.event_type_id
      WHERE s.id = p_slot
      FOR NO KEY UPDATE OF s;
      IF NOT FOUND THEN
        RETURN; -- the slot is gone (deleted in this transaction)
      END IF;
      IF v_people AND p_before IS NOT NULL THEN
        IF p_after <> p_before THEN
          UPDATE slots SET booked_count = booked_count + p_after - p_before WHERE id = p_slot;
        END IF;
        RETURN;
      END IF;
      IF v_people THEN
        SELECT (${sql.raw(PEOPLE)}) INTO v_places FROM slots s WHERE s.id = p_slot;
      ELSE
        SELECT (${sql.raw(PARTIES)}) INTO v_places FROM slots s WHERE s.id = p_slot;
      END IF;
      UPDATE slots SET booked_count = v_places WHERE id = p_slot AND booked_count <> v_places;
    END $$`.execute(db);

  // What a booking row's change does to the places of the slot it leaves and the one it enters (in slot
  // id order). Row by row, for the rows that really changed (the WHEN clauses below): a second cancel of
  // a cancelled row changes no row and fires nothing.
  await sql`CREATE FUNCTION parley_booking_places() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      v_left integer;
      v_entered integer;
    BEGIN
      IF TG_OP <> 'INSERT' AND OLD.status = 'booked' THEN v_left := OLD.slot_id; END IF;
      IF TG_OP <> 'DELETE' AND NEW.status = 'booked' THEN v_entered := NEW.slot_id; END IF;
      IF v_left = v_entered THEN
        PERFORM parley_count_places(v_left, 1 + OLD.guests, 1 + NEW.guests);
      ELSIF v_entered IS NULL OR v_left < v_entered THEN
        IF v_left IS NOT NULL THEN PERFORM parley_count_places(v_left, 1 + OLD.guests, 0); END IF;
        IF v_entered IS NOT NULL THEN PERFORM parley_count_places(v_entered, 0, 1 + NEW.guests); END IF;
      ELSE
        PERFORM parley_count_places(v_entered, 0, 1 + NEW.guests);
        IF v_left IS NOT NULL THEN PERFORM parley_count_places(v_left, 1 + OLD.guests, 0); END IF;
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER bookings_places_added AFTER INSERT ON bookings FOR EACH ROW
    WHEN (NEW.status = 'booked' AND NEW.slot_id IS NOT NULL)
    EXECUTE FUNCTION parley_booking_places()`.execute(db);
  await sql`CREATE TRIGGER bookings_places_changed
    AFTER UPDATE OF status, slot_id, parent_id, student_id, guests ON bookings FOR EACH ROW
    WHEN ((OLD.status = 'booked' OR NEW.status = 'booked')
      AND (OLD.status, OLD.slot_id, OLD.parent_id, OLD.student_id, OLD.guests)
        IS DISTINCT FROM (NEW.status, NEW.slot_id, NEW.parent_id, NEW.student_id, NEW.guests))
    EXECUTE FUNCTION parley_booking_places()`.execute(db);
  await sql`CREATE TRIGGER bookings_places_removed AFTER DELETE ON bookings FOR EACH ROW
    WHEN (OLD.status = 'booked' AND OLD.slot_id IS NOT NULL)
    EXECUTE FUNCTION parley_booking_places()`.execute(db);

  // An event whose kind changes between counting parties and people (the app refuses it once sections
  // exist; this keeps the count true whatever changes it): its slots counted again, in id order.
  await sql`CREATE FUNCTION parley_event_places_recount() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_TABLE_NAME = 'events' THEN
        PERFORM parley_count_places(s.id, NULL, NULL)
        FROM (SELECT id FROM slots WHERE event_id = NEW.id ORDER BY id) s;
      ELSE
        PERFORM parley_count_places(s.id, NULL, NULL)
        FROM (SELECT sl.id FROM slots sl JOIN events e ON e.id = sl.event_id
          WHERE e.event_type_id = NEW.id ORDER BY sl.id) s;
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER events_places_recount AFTER UPDATE OF event_type_id ON events FOR EACH ROW
    WHEN (OLD.event_type_id IS DISTINCT FROM NEW.event_type_id)
    EXECUTE FUNCTION parley_event_places_recount()`.execute(db);
  await sql`CREATE TRIGGER event_types_places_recount AFTER UPDATE OF group_int ON event_types FOR EACH ROW
    WHEN (OLD.group_int IS DISTINCT FROM NEW.group_int)
    EXECUTE FUNCTION parley_event_places_recount()`.execute(db);

  // Counts drifted by the old code are set from the rows. A slot found holding more than its capacity (it
  // was sold past it) keeps its families: its capacity is raised to what it holds, so the school sees it
  // full rather than a booking disappearing.
  await sql`UPDATE slots s SET booked_count = x.places, capacity = greatest(s.capacity, x.places)
    FROM (SELECT s.id, CASE WHEN t.group_int IN (2, 3) THEN (${sql.raw(PEOPLE)}) ELSE (${sql.raw(PARTIES)}) END
        AS places
      FROM slots s JOIN events e ON e.id = s.event_id JOIN event_types t ON t.id = e.event_type_id) x
    WHERE x.id = s.id AND s.booked_count <> x.places`.execute(db);

  // Written by the triggers above only: a new slot holds nothing, and a write of the count from outside a
  // trigger (a statement at depth 0, as the WHEN clause sees it) is refused. Nothing runs on the triggers'
  // own writes.
  await sql`CREATE FUNCTION parley_slot_count_written() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'a slot''s places are counted from its bookings, not written'
        USING ERRCODE = 'check_violation', CONSTRAINT = 'slots_booked_count_derived', TABLE = 'slots';
    END $$`.execute(db);
  await sql`CREATE TRIGGER slots_count_derived_added BEFORE INSERT ON slots FOR EACH ROW
    WHEN (NEW.booked_count <> 0 AND pg_trigger_depth() < 1)
    EXECUTE FUNCTION parley_slot_count_written()`.execute(db);
  await sql`CREATE TRIGGER slots_count_derived_changed BEFORE UPDATE OF booked_count ON slots FOR EACH ROW
    WHEN (NEW.booked_count <> OLD.booked_count AND pg_trigger_depth() < 1)
    EXECUTE FUNCTION parley_slot_count_written()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER slots_count_derived_changed ON slots`.execute(db);
  await sql`DROP TRIGGER slots_count_derived_added ON slots`.execute(db);
  await sql`DROP FUNCTION parley_slot_count_written()`.execute(db);
  await sql`DROP TRIGGER event_types_places_recount ON event_types`.execute(db);
  await sql`DROP TRIGGER events_places_recount ON events`.execute(db);
  await sql`DROP FUNCTION parley_event_places_recount()`.execute(db);
  await sql`DROP TRIGGER bookings_places_removed ON bookings`.execute(db);
  await sql`DROP TRIGGER bookings_places_changed ON bookings`.execute(db);
  await sql`DROP TRIGGER bookings_places_added ON bookings`.execute(db);
  await sql`DROP FUNCTION parley_booking_places()`.execute(db);
  await sql`DROP FUNCTION parley_count_places(integer, integer, integer)`.execute(db);
}
