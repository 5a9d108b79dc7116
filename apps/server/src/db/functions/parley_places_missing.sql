-- Fails the statement that takes places when one is missing, with the CHECK slots_booked_count's name.
-- First made by migration 022; this file is its definition now (db/function-files.ts).
CREATE OR REPLACE FUNCTION parley_places_missing(p_taken integer, p_wanted integer)
 RETURNS boolean
 LANGUAGE plpgsql
AS $$
BEGIN
  IF p_taken < p_wanted THEN
    RAISE EXCEPTION 'a slot asked for has no place left' USING ERRCODE = 'check_violation',
      CONSTRAINT = 'slots_booked_count', TABLE = 'slots';
  END IF;
  RETURN false;
END
$$
