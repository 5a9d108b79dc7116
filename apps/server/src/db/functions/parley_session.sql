-- A request's session by its token's hash, across schools, as the owner; with the token's end.
-- First made by migration 018; this file is its definition now (db/function-files.ts).
CREATE OR REPLACE FUNCTION parley_session(p_token_hash text)
 RETURNS TABLE(user_id integer, school_id integer, roles text[], expires_at timestamp with time zone)
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $$
BEGIN
  RETURN QUERY
    SELECT u.id, u.school_id, array(SELECT r.role FROM user_roles r WHERE r.user_id = u.id ORDER BY r.role), t.expires_at
    FROM auth_tokens t JOIN users u ON u.id = t.user_id
    WHERE t.token_hash = p_token_hash AND t.kind = 'access' AND t.used_at IS NULL
      AND t.expires_at > now() AND u.status = 1;
END
$$
