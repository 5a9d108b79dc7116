import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { InvoiceParty } from '../../db/schema';

// Billing's SQL (decision 021). Every function that takes a school filters by it.

/** Starts a school's free trial (at registration); a school that has its row keeps it. */
export async function startTrial(db: Db, schoolId: number, trialDays: number): Promise<void> {
  await db
    .insertInto('school_billing')
    .values({ school_id: schoolId, trial_ends_at: sql`now() + make_interval(days => ${trialDays})` })
    .onConflict((oc) => oc.column('school_id').doNothing())
    .execute();
}

/** The school's billing row, made on first read for a school older than billing (trial from its creation). */
export async function findBilling(db: Db, schoolId: number, trialDays: number, lock = false) {
  await db
    .insertInto('school_billing')
    .columns(['school_id', 'trial_ends_at'])
    .expression(
      db
        .selectFrom('schools')
        .select(['id', sql<Date>`created_at + make_interval(days => ${trialDays})`.as('trial_ends_at')])
        .where('id', '=', schoolId),
    )
    .onConflict((oc) => oc.column('school_id').doNothing())
    .execute();
  let query = db
    .selectFrom('school_billing as b')
    .innerJoin('schools as s', 's.id', 'b.school_id')
    .selectAll('b')
    .select(['s.name as school_name', 's.address as school_address', 's.timezone'])
    .where('b.school_id', '=', schoolId);
  if (lock) query = query.forUpdate('b');
  return query.executeTakeFirstOrThrow();
}
export type BillingRow = Awaited<ReturnType<typeof findBilling>>;

export async function setPlan(db: Db, schoolId: number, planId: string): Promise<void> {
  await db
    .updateTable('school_billing')
    .set({ plan_id: planId, updated_at: sql`now()` })
    .where('school_id', '=', schoolId)
    .execute();
}

export async function updateDetails(
  db: Db,
  schoolId: number,
  details: {
    billing_name: string | null;
    address: string | null;
    tax_number: string | null;
    finance_email: string | null;
  },
): Promise<void> {
  await db
    .updateTable('school_billing')
    .set({ ...details, updated_at: sql`now()` })
    .where('school_id', '=', schoolId)
    .execute();
}

export async function setStripeCustomer(db: Db, schoolId: number, customerId: string): Promise<void> {
  await db
    .updateTable('school_billing')
    .set({ stripe_customer_id: customerId, updated_at: sql`now()` })
    .where('school_id', '=', schoolId)
    .execute();
}

/** Paid cover only grows: a late or replayed payment never shortens it. */
export async function extendPaidUntil(db: Db, schoolId: number, until: Date): Promise<void> {
  await db
    .updateTable('school_billing')
    .set({ paid_until: sql`greatest(paid_until, ${until})`, updated_at: sql`now()` })
    .where('school_id', '=', schoolId)
    .execute();
}

/** Students on the roll, and events made this calendar year in the school's zone. */
export async function usage(db: Db, schoolId: number) {
  const students = await db
    .selectFrom('user_roles')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('school_id', '=', schoolId)
    .where('role', '=', 'student')
    .executeTakeFirstOrThrow();
  const events = await db
    .selectFrom('events as e')
    .innerJoin('schools as s', 's.id', 'e.school_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('e.school_id', '=', schoolId)
    .where(
      sql<boolean>`date_trunc('year', e.created_at AT TIME ZONE s.timezone) = date_trunc('year', now() AT TIME ZONE s.timezone)`,
    )
    .executeTakeFirstOrThrow();
  return { students: Number(students.n), eventsThisYear: Number(events.n) };
}

const invoiceColumns = (db: Db) =>
  db
    .selectFrom('invoices as i')
    .selectAll('i')
    .select((eb) =>
      eb
        .exists(eb.selectFrom('invoices as c').select('c.id').whereRef('c.credits_invoice_id', '=', 'i.id'))
        .as('credited'),
    );

export function listInvoices(db: Db, schoolId: number) {
  return invoiceColumns(db)
    .where('i.school_id', '=', schoolId)
    .orderBy('i.issued_at', 'desc')
    .orderBy('i.id', 'desc')
    .execute();
}
export type InvoiceRow = Awaited<ReturnType<typeof listInvoices>>[number];

export function findInvoice(db: Db, schoolId: number, invoiceId: number) {
  return invoiceColumns(db)
    .where('i.school_id', '=', schoolId)
    .where('i.id', '=', invoiceId)
    .executeTakeFirst();
}

/** An invoice by its number, for the operator (any school: the system scope). */
export function findInvoiceByNumber(db: Db, seller: string, number: number) {
  return invoiceColumns(db).where('i.seller', '=', seller).where('i.number', '=', number).executeTakeFirst();
}

/** The invoice still waiting for payment: not paid, not credited. */
export function openInvoice(db: Db, schoolId: number) {
  return invoiceColumns(db)
    .where('i.school_id', '=', schoolId)
    .where('i.kind', '=', 'invoice')
    .where('i.paid_at', 'is', null)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb.selectFrom('invoices as c').select('c.id').whereRef('c.credits_invoice_id', '=', 'i.id'),
        ),
      ),
    )
    .orderBy('i.id', 'desc')
    .executeTakeFirst();
}

/**
 * The seller's next number, without gaps: the counter row is bumped in the issuing transaction and stays
 * locked until it commits, so a rolled-back issue gives its number back and two issues never share one.
 */
export async function nextNumber(db: Db, seller: string): Promise<number> {
  const row = await db
    .insertInto('invoice_counters')
    .values({ seller, last_number: 1 })
    .onConflict((oc) =>
      oc.column('seller').doUpdateSet({ last_number: sql`invoice_counters.last_number + 1` }),
    )
    .returning('last_number')
    .executeTakeFirstOrThrow();
  return row.last_number;
}

export type NewInvoice = {
  schoolId: number;
  seller: string;
  number: number;
  kind: 'invoice' | 'credit_note';
  creditsInvoiceId: number | null;
  dueAt: Date;
  planId: string;
  planName: string;
  periodStart: Date;
  periodEnd: Date;
  poNumber: string | null;
  currency: string;
  netMinor: number;
  taxRatePercent: number;
  taxMinor: number;
  totalMinor: number;
  billTo: InvoiceParty;
  sellerDetails: InvoiceParty;
  reason: string | null;
  stripeSessionId: string | null;
  paid: { at: Date; method: 'transfer' | 'card' } | null;
};

export async function insertInvoice(db: Db, invoice: NewInvoice) {
  const { id } = await db
    .insertInto('invoices')
    .values({
      school_id: invoice.schoolId,
      seller: invoice.seller,
      number: invoice.number,
      kind: invoice.kind,
      credits_invoice_id: invoice.creditsInvoiceId,
      due_at: invoice.dueAt,
      plan_id: invoice.planId,
      plan_name: invoice.planName,
      period_start: invoice.periodStart,
      period_end: invoice.periodEnd,
      po_number: invoice.poNumber,
      currency: invoice.currency,
      net_minor: invoice.netMinor,
      tax_rate_percent: invoice.taxRatePercent,
      tax_minor: invoice.taxMinor,
      total_minor: invoice.totalMinor,
      bill_to: JSON.stringify(invoice.billTo),
      seller_details: JSON.stringify(invoice.sellerDetails),
      reason: invoice.reason,
      stripe_session_id: invoice.stripeSessionId,
      paid_at: invoice.paid?.at ?? null,
      payment_method: invoice.paid?.method ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const row = await findInvoice(db, invoice.schoolId, id);
  if (!row) throw new Error('inserted invoice not found');
  return row;
}

/** Records a payment once: an invoice already paid is left as it is (false). */
export async function markInvoicePaid(
  db: Db,
  schoolId: number,
  invoiceId: number,
  method: 'transfer' | 'card',
  at: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('invoices')
    .set({ paid_at: at, payment_method: method })
    .where('school_id', '=', schoolId)
    .where('id', '=', invoiceId)
    .where('paid_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export function invoiceBySession(db: Db, sessionId: string) {
  return db
    .selectFrom('invoices')
    .select(['id', 'school_id'])
    .where('stripe_session_id', '=', sessionId)
    .executeTakeFirst();
}

/** Every school with its billing row (the operator's list; system scope). */
export function listSchoolsWithBilling(db: Db) {
  return (
    db
      .selectFrom('schools as s')
      .leftJoin('school_billing as b', 'b.school_id', 's.id')
      .select(['s.id', 's.name', 's.created_at', 'b.plan_id', 'b.trial_ends_at', 'b.paid_until'])
      .select((eb) =>
        eb
          .selectFrom('invoices as i')
          .select('i.due_at')
          .whereRef('i.school_id', '=', 's.id')
          .where('i.kind', '=', 'invoice')
          .where('i.paid_at', 'is', null)
          .where((w) =>
            w.not(
              w.exists(
                w.selectFrom('invoices as c').select('c.id').whereRef('c.credits_invoice_id', '=', 'i.id'),
              ),
            ),
          )
          .orderBy('i.id', 'desc')
          .limit(1)
          .as('open_due_at'),
      )
      // A load-test rehearsal's sandbox (decision 022) is nobody's customer.
      .where('s.sandbox_of', 'is', null)
      .orderBy('s.id')
      .execute()
  );
}

/** Stripe's event, once: false when it was handled before (a replay). */
export async function recordStripeEvent(db: Db, id: string, type: string): Promise<boolean> {
  const rows = await db
    .insertInto('stripe_events')
    .values({ id, type })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .execute();
  return rows.length === 1;
}

export function schoolByStripeCustomer(db: Db, customerId: string) {
  return db
    .selectFrom('school_billing')
    .select('school_id')
    .where('stripe_customer_id', '=', customerId)
    .executeTakeFirst();
}

/** Whether the school exists (the operator names schools by id). System scope. */
export async function schoolExists(db: Db, schoolId: number): Promise<boolean> {
  const row = await db
    .selectFrom('schools')
    .select('id')
    .where('id', '=', schoolId)
    .where('sandbox_of', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}
