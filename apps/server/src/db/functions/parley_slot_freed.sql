-- A slot that may have room again is announced on parley_slots (full-slot-hints.ts).
-- First made by migration 019; this file is its definition now (db/function-files.ts).
CREATE OR REPLACE FUNCTION parley_slot_freed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM pg_notify('parley_slots', NEW.id::text);
  RETURN NULL;
END
$$
