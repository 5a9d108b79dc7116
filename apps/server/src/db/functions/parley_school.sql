-- The school of the work in hand (the setting parley.school): a number, or null for 'all' and unset.
-- First made by migration 009; this file is its definition now (db/function-files.ts).
CREATE OR REPLACE FUNCTION parley_school()
 RETURNS integer
 LANGUAGE sql
 STABLE PARALLEL SAFE
AS $$
SELECT nullif(nullif(current_setting('parley.school', true), ''), 'all')::integer
$$
