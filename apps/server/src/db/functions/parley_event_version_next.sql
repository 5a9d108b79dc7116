-- Any change to an event's row moves its version on (event-contexts.ts).
-- First made by migration 021; this file is its definition now (db/function-files.ts).
CREATE OR REPLACE FUNCTION parley_event_version_next()
 RETURNS trigger
 LANGUAGE plpgsql
AS $$
BEGIN
  NEW.version := OLD.version + 1;
  RETURN NEW;
END
$$
