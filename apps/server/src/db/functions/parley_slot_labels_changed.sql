-- What may change a slot's label announces its event on parley_slot_labels ('0': every event;
-- slot-labels.ts).
-- First made by migration 020; this file is its definition now (db/function-files.ts).
CREATE OR REPLACE FUNCTION parley_slot_labels_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $$
DECLARE
  r record;
BEGIN
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  IF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('parley_slot_labels', '0');
  ELSIF TG_TABLE_NAME = 'section_teachers' THEN
    PERFORM pg_notify('parley_slot_labels', s.event_id::text) FROM sections s WHERE s.id = r.section_id;
  ELSE
    PERFORM pg_notify('parley_slot_labels', r.event_id::text);
  END IF;
  RETURN NULL;
END
$$
