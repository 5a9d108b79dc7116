-- An issued invoice or credit note never changes and never goes: only its payment is recorded, once.
-- First made by migration 013; this file is its definition now (db/function-files.ts).
CREATE OR REPLACE FUNCTION invoices_immutable()
 RETURNS trigger
 LANGUAGE plpgsql
AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'an issued invoice cannot be deleted; issue a credit note' USING ERRCODE = 'check_violation';
  END IF;
  IF (to_jsonb(NEW) - 'paid_at' - 'payment_method') IS DISTINCT FROM (to_jsonb(OLD) - 'paid_at' - 'payment_method')
     OR (OLD.paid_at IS NOT NULL AND NEW.paid_at IS DISTINCT FROM OLD.paid_at) THEN
    RAISE EXCEPTION 'an issued invoice cannot be changed; issue a credit note' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END
$$
