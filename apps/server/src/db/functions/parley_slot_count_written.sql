-- booked_count is written by the places triggers only: a write of it from outside a trigger is refused.
-- First made by migration 023; this file is its definition now (db/function-files.ts).
CREATE OR REPLACE FUNCTION parley_slot_count_written()
 RETURNS trigger
 LANGUAGE plpgsql
AS $$
BEGIN
  RAISE EXCEPTION 'a slot''s places are counted from its bookings, not written'
    USING ERRCODE = 'check_violation', CONSTRAINT = 'slots_booked_count_derived', TABLE = 'slots';
END
$$
