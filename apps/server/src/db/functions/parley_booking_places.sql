-- What a booking row's change does to the places of the slot it leaves and the one it enters (in slot
-- id order), for the rows that really changed.
-- First made by migration 023; this file is its definition now (db/function-files.ts).
CREATE OR REPLACE FUNCTION parley_booking_places()
 RETURNS trigger
 LANGUAGE plpgsql
AS $$
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
END
$$
