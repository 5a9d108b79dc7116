-- Sections or recipients changed (transition tables `added`, `gone`): their events move their version on.
-- First made by migration 021; this file is its definition now (db/function-files.ts).
CREATE OR REPLACE FUNCTION parley_event_rows_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE events SET version = version + 1 WHERE id IN (SELECT event_id FROM added);
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE events SET version = version + 1 WHERE id IN (SELECT event_id FROM gone);
  ELSE
    UPDATE events SET version = version + 1
    WHERE id IN (SELECT event_id FROM added UNION SELECT event_id FROM gone);
  END IF;
  RETURN NULL;
END
$$
