-- A school's name or zone, an event type's name or group changed: every event of theirs moves its
-- version on (event-contexts.ts).
-- First made by migration 021; this file is its definition now (db/function-files.ts).
CREATE OR REPLACE FUNCTION parley_event_owner_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $$
BEGIN
  IF TG_TABLE_NAME = 'schools' THEN
    UPDATE events SET version = version + 1 WHERE school_id = NEW.id;
  ELSE
    UPDATE events SET version = version + 1 WHERE school_id = NEW.school_id AND event_type_id = NEW.id;
  END IF;
  RETURN NULL;
END
$$
