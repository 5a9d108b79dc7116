-- Which schools have an account with each email (an email is one account across all schools).
-- First made by migration 009; this file is its definition now (db/function-files.ts).
CREATE OR REPLACE FUNCTION parley_email_schools(p_emails text[])
 RETURNS TABLE(email text, school_id integer)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $$
SELECT u.email, u.school_id FROM users u WHERE u.email = ANY (p_emails)
$$
