-- One slot's places after a change of its bookings, counted under the slot's lock: a place per party,
-- or a person per attendee and guest at a ticketed event.
-- First made by migration 023; this file is its definition now (db/function-files.ts).
CREATE OR REPLACE FUNCTION parley_count_places(p_slot integer, p_before integer, p_after integer)
 RETURNS void
 LANGUAGE plpgsql
AS $$
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
      SELECT (SELECT coalesce(sum(1 + b.guests), 0)::integer FROM bookings b
WHERE b.slot_id = s.id AND b.status = 'booked') INTO v_places FROM slots s WHERE s.id = p_slot;
    ELSE
      SELECT (SELECT count(DISTINCT coalesce(b.parent_id, -b.student_id))::integer FROM bookings b
WHERE b.slot_id = s.id AND b.status = 'booked') INTO v_places FROM slots s WHERE s.id = p_slot;
    END IF;
    UPDATE slots SET booked_count = v_places WHERE id = p_slot AND booked_count <> v_places;
  END
$$
