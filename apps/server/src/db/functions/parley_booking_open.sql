-- A booking's opening under decision 008's locks (the event FOR SHARE, the party's row FOR NO KEY
-- UPDATE), then what the change is checked against: the party's row, its holdings, the slots asked for.
-- First made by migration 022; this file is its definition now (db/function-files.ts).
CREATE OR REPLACE FUNCTION parley_booking_open(p_school integer, p_event integer, p_party integer, p_as_parent boolean, p_asked integer[], p_key text)
 RETURNS TABLE(row_kind text, version integer, email text, first_name text, settings jsonb, children integer[], parents integer[], full_slots integer[], id integer, slot_id integer, teacher_id integer, starts_at timestamp with time zone, ends_at timestamp with time zone, student_id integer, status text, idempotency_key text, guests integer, capacity integer, booked_count integer)
 LANGUAGE plpgsql
AS $$
#variable_conflict use_column
DECLARE
  v_version integer;
  v_email text;
  v_first_name text;
  v_settings jsonb;
BEGIN
  SELECT e.version, u.email, u.first_name, u.settings INTO v_version, v_email, v_first_name, v_settings
  FROM events e JOIN users u ON u.id = p_party AND u.school_id = p_school
  WHERE e.school_id = p_school AND e.id = p_event
  FOR SHARE OF e FOR NO KEY UPDATE OF u;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  IF p_as_parent THEN
  RETURN QUERY
    SELECT 'party', v_version, v_email, v_first_name, v_settings,
      array(SELECT ps.student_id FROM parent_students ps
        WHERE ps.school_id = p_school AND ps.parent_id = p_party),
      array(SELECT ps.parent_id FROM parent_students ps
        WHERE ps.school_id = p_school AND ps.student_id = p_party),
      array(SELECT s.id FROM slots s WHERE s.id = ANY (p_asked) AND s.school_id = p_school
        AND s.event_id = p_event AND s.booked_count >= s.capacity
        AND NOT EXISTS (SELECT 1 FROM bookings b WHERE b.slot_id = s.id AND b.status = 'booked'
          AND b.parent_id = p_party)),
      NULL::integer, NULL::integer, NULL::integer, NULL::timestamptz, NULL::timestamptz, NULL::integer,
      NULL::text, NULL::text, NULL::integer, NULL::integer, NULL::integer
    UNION ALL
    (SELECT 'held', NULL, NULL, NULL, NULL, NULL, NULL, NULL, b.id, b.slot_id, b.teacher_id, b.starts_at,
      b.ends_at, b.student_id, b.status, b.idempotency_key, b.guests, NULL, NULL
    FROM bookings b WHERE b.school_id = p_school AND b.event_id = p_event AND b.parent_id = p_party
      AND (b.status = 'booked' OR b.idempotency_key = p_key)
    ORDER BY b.starts_at, b.id)
    UNION ALL
    SELECT 'slot', NULL, NULL, NULL, NULL, NULL, NULL, NULL, s.id, s.id, s.teacher_id, s.starts_at,
      s.ends_at, NULL, NULL, NULL, 0, s.capacity, s.booked_count
    FROM slots s WHERE s.id = ANY (p_asked) AND s.school_id = p_school AND s.event_id = p_event
      AND s.starts_at > now();
  ELSE
  RETURN QUERY
    SELECT 'party', v_version, v_email, v_first_name, v_settings,
      array(SELECT ps.student_id FROM parent_students ps
        WHERE ps.school_id = p_school AND ps.parent_id = p_party),
      array(SELECT ps.parent_id FROM parent_students ps
        WHERE ps.school_id = p_school AND ps.student_id = p_party),
      array(SELECT s.id FROM slots s WHERE s.id = ANY (p_asked) AND s.school_id = p_school
        AND s.event_id = p_event AND s.booked_count >= s.capacity
        AND NOT EXISTS (SELECT 1 FROM bookings b WHERE b.slot_id = s.id AND b.status = 'booked'
          AND b.student_id = p_party)),
      NULL::integer, NULL::integer, NULL::integer, NULL::timestamptz, NULL::timestamptz, NULL::integer,
      NULL::text, NULL::text, NULL::integer, NULL::integer, NULL::integer
    UNION ALL
    (SELECT 'held', NULL, NULL, NULL, NULL, NULL, NULL, NULL, b.id, b.slot_id, b.teacher_id, b.starts_at,
      b.ends_at, b.student_id, b.status, b.idempotency_key, b.guests, NULL, NULL
    FROM bookings b WHERE b.school_id = p_school AND b.event_id = p_event AND b.student_id = p_party
      AND (b.status = 'booked' OR b.idempotency_key = p_key)
    ORDER BY b.starts_at, b.id)
    UNION ALL
    SELECT 'slot', NULL, NULL, NULL, NULL, NULL, NULL, NULL, s.id, s.id, s.teacher_id, s.starts_at,
      s.ends_at, NULL, NULL, NULL, 0, s.capacity, s.booked_count
    FROM slots s WHERE s.id = ANY (p_asked) AND s.school_id = p_school AND s.event_id = p_event
      AND s.starts_at > now();
  END IF;
END
$$
