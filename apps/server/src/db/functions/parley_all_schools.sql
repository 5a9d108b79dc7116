-- Whether the work in hand is every school's (the setting parley.school is 'all'): row-level security.
-- First made by migration 009; this file is its definition now (db/function-files.ts).
CREATE OR REPLACE FUNCTION parley_all_schools()
 RETURNS boolean
 LANGUAGE sql
 STABLE PARALLEL SAFE
AS $$
SELECT coalesce(current_setting('parley.school', true) = 'all', false)
$$
