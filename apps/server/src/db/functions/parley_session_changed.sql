-- What may end or change a session announces its user on parley_sessions (session-cache.ts).
-- First made by migration 018; this file is its definition now (db/function-files.ts).
CREATE OR REPLACE FUNCTION parley_session_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM pg_notify('parley_sessions',
    (CASE WHEN TG_OP = 'DELETE' THEN to_jsonb(OLD) ELSE to_jsonb(NEW) END) ->> TG_ARGV[0]);
  RETURN NULL;
END
$$
