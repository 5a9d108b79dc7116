import { type Kysely, sql } from 'kysely';

// Billing (issue 15, decision 021): each school's subscription and billing details, invoices and credit
// notes numbered without gaps per seller (a counter row bumped in the issuing transaction, never a
// sequence, which skips numbers on rollback), immutable once issued, and the Stripe events handled.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE school_billing (
    school_id integer PRIMARY KEY REFERENCES schools (id) ON DELETE CASCADE,
    plan_id text,
    trial_ends_at timestamptz NOT NULL,
    paid_until timestamptz,
    billing_name text,
    address text,
    tax_number text,
    finance_email text,
    stripe_customer_id text UNIQUE,
    updated_at timestamptz NOT NULL DEFAULT now()
  )`.execute(db);
  // Every school there is starts its free trial now (new ones at registration).
  await sql`INSERT INTO school_billing (school_id, trial_ends_at)
    SELECT id, now() + interval '30 days' FROM schools`.execute(db);

  await sql`CREATE TABLE invoice_counters (
    seller text PRIMARY KEY,
    last_number integer NOT NULL CHECK (last_number > 0)
  )`.execute(db);

  await sql`CREATE TABLE invoices (
    id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    school_id integer NOT NULL REFERENCES schools (id),
    seller text NOT NULL,
    number integer NOT NULL,
    kind text NOT NULL CHECK (kind IN ('invoice', 'credit_note')),
    credits_invoice_id integer,
    issued_at timestamptz NOT NULL DEFAULT now(),
    due_at timestamptz NOT NULL,
    plan_id text NOT NULL,
    plan_name text NOT NULL,
    period_start timestamptz NOT NULL,
    period_end timestamptz NOT NULL,
    po_number text,
    currency text NOT NULL,
    net_minor integer NOT NULL,
    tax_rate_percent numeric(5, 2) NOT NULL,
    tax_minor integer NOT NULL,
    total_minor integer NOT NULL CHECK (total_minor = net_minor + tax_minor),
    bill_to jsonb NOT NULL,
    seller_details jsonb NOT NULL,
    reason text,
    stripe_session_id text UNIQUE,
    paid_at timestamptz,
    payment_method text CHECK (payment_method IN ('transfer', 'card')),
    CONSTRAINT invoices_number_key UNIQUE (seller, number),
    CONSTRAINT invoices_id_school UNIQUE (id, school_id),
    CONSTRAINT invoices_credits_fk FOREIGN KEY (credits_invoice_id, school_id) REFERENCES invoices (id, school_id),
    CONSTRAINT invoices_credit_shape CHECK ((kind = 'credit_note') = (credits_invoice_id IS NOT NULL)),
    CONSTRAINT invoices_one_credit UNIQUE (credits_invoice_id),
    CONSTRAINT invoices_paid_shape CHECK ((paid_at IS NULL) = (payment_method IS NULL))
  )`.execute(db);
  await sql`CREATE INDEX invoices_school_idx ON invoices (school_id, issued_at)`.execute(db);
  // An issued document never changes and never goes: only its payment is recorded, once.
  await sql`CREATE FUNCTION invoices_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
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
  $$`.execute(db);
  await sql`CREATE TRIGGER invoices_immutable BEFORE UPDATE OR DELETE ON invoices
    FOR EACH ROW EXECUTE FUNCTION invoices_immutable()`.execute(db);

  // Stripe's events handled, by id: a replay finds its id here and changes nothing.
  await sql`CREATE TABLE stripe_events (
    id text PRIMARY KEY,
    type text NOT NULL,
    received_at timestamptz NOT NULL DEFAULT now()
  )`.execute(db);

  for (const table of ['school_billing', 'invoices']) {
    await sql`ALTER TABLE ${sql.table(table)} ENABLE ROW LEVEL SECURITY`.execute(db);
    await sql`CREATE POLICY school_wall ON ${sql.table(table)} TO parley_app
      USING (parley_all_schools() OR school_id = parley_school())
      WITH CHECK (parley_all_schools() OR school_id = parley_school())`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['stripe_events', 'invoices', 'invoice_counters', 'school_billing']) {
    await sql`DROP TABLE ${sql.table(table)}`.execute(db);
  }
  await sql`DROP FUNCTION invoices_immutable()`.execute(db);
}
