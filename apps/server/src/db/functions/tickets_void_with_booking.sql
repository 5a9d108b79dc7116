-- A ticket lives with its booking, whichever path cancels it.
-- First made by migration 006; this file is its definition now (db/function-files.ts).
CREATE OR REPLACE FUNCTION tickets_void_with_booking()
 RETURNS trigger
 LANGUAGE plpgsql
AS $$
BEGIN
  UPDATE tickets SET status = 'void', voided_at = now() WHERE booking_id = NEW.id AND status = 'valid';
  RETURN NEW;
END
$$
