-- An event whose kind changes between counting parties and people: its slots counted again, in id order.
-- First made by migration 023; this file is its definition now (db/function-files.ts).
CREATE OR REPLACE FUNCTION parley_event_places_recount()
 RETURNS trigger
 LANGUAGE plpgsql
AS $$
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
END
$$
