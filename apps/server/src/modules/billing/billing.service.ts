import {
  type BillingCatalog,
  type BillingDetailsRequest,
  type BillingView,
  documentNumber,
  type InvoiceSummary,
  invoiceAmounts,
  type OutgrownPlan,
  outgrownPlan,
  outgrownText,
  planFits,
  planForStudents,
} from '@parley/domain/billing';
import {
  billingEnforcement,
  nextPeriodStart,
  oneYearAfter,
  subscriptionStatus,
} from '@parley/domain/billing-policy';
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import type { InvoiceParty } from '../../db/schema';
import { conflict, notFound, unprocessable } from '../../lib/http-error';
import { enqueueMail } from '../../mail/outbox.repository';
import { composeMail } from '../../mail/templates';
import * as repo from './billing.repository';
import { catalogOf, findPlan } from './catalog';
import { invoiceFileName, invoiceTitle, renderInvoicePdf } from './invoice-pdf';

// A school's billing (issue 15, decision 021): what the admin sees and does. The operator's commands and
// Stripe's payments share the issuing and the paying below.

export type BillingContext = {
  db: Db;
  config: Pick<Config, 'billingCatalogFile' | 'appUrl' | 'appName' | 'stripe'>;
};

const DAY_MS = 86_400_000;

function summary(row: repo.InvoiceRow, prefix: string): InvoiceSummary {
  return {
    id: row.id,
    kind: row.kind,
    number: documentNumber(prefix, row.number),
    issuedAt: row.issued_at.toISOString(),
    dueAt: row.due_at.toISOString(),
    paidAt: row.paid_at?.toISOString() ?? null,
    credited: Boolean(row.credited),
    planName: row.plan_name,
    periodStart: row.period_start.toISOString(),
    periodEnd: row.period_end.toISOString(),
    poNumber: row.po_number,
    totalMinor: row.total_minor,
    currency: row.currency,
    paymentMethod: row.payment_method,
  };
}

/** A new school's free trial, in its registration's transaction. */
export async function startTrial(
  ctx: Pick<BillingContext, 'config'>,
  trx: Db,
  schoolId: number,
): Promise<void> {
  await repo.startTrial(trx, schoolId, catalogOf(ctx.config).trialDays);
}

/** The status and its consequence from the billing row and the invoice waiting for payment. */
export function statusOf(
  billing: Pick<repo.BillingRow, 'trial_ends_at' | 'paid_until'>,
  openDueAt: Date | null,
  now: Date,
) {
  const status = subscriptionStatus(
    { trialEndsAt: billing.trial_ends_at, paidUntil: billing.paid_until, openInvoiceDueAt: openDueAt },
    now,
  );
  return { status, enforcement: billingEnforcement(status) };
}

/**
 * Decision 021: a school overdue past the grace period may not create new events (409). Nothing else
 * consults billing: its events, their booking windows and families' bookings go on.
 */
export async function assertMayCreateEvents(ctx: BillingContext, schoolId: number): Promise<void> {
  const billing = await repo.findBilling(ctx.db, schoolId, catalogOf(ctx.config).trialDays);
  const open = await repo.openInvoice(ctx.db, schoolId);
  if (!statusOf(billing, open?.due_at ?? null, new Date()).enforcement.canCreateEvents) {
    throw conflict(
      'Creating new events is paused until the subscription is paid (see Billing). Your events and families’ bookings carry on as normal.',
    );
  }
}

export async function billingView(ctx: BillingContext, schoolId: number): Promise<BillingView> {
  const catalog = catalogOf(ctx.config);
  const billing = await repo.findBilling(ctx.db, schoolId, catalog.trialDays);
  const [usage, invoices, open] = await Promise.all([
    repo.usage(ctx.db, schoolId),
    repo.listInvoices(ctx.db, schoolId),
    repo.openInvoice(ctx.db, schoolId),
  ]);
  const { status, enforcement } = statusOf(billing, open?.due_at ?? null, new Date());
  return {
    plans: catalog.plans,
    currency: catalog.currency,
    taxRatePercent: catalog.taxRatePercent,
    planId: findPlan(catalog, billing.plan_id)?.id ?? null,
    suggestedPlanId: planForStudents(catalog.plans, usage.students)?.id ?? null,
    usage,
    status: { state: status.state, until: status.until.toISOString(), days: status.days },
    enforcement: {
      banner: enforcement.banner,
      canCreateEvents: enforcement.canCreateEvents,
      restrictsOn: enforcement.restrictsOn?.toISOString() ?? null,
    },
    details: {
      billingName: billing.billing_name,
      address: billing.address,
      taxNumber: billing.tax_number,
      financeEmail: billing.finance_email,
    },
    invoices: invoices.map((row) => summary(row, catalog.seller.invoicePrefix)),
    cardPayments: ctx.config.stripe !== undefined,
    hasCardCustomer: billing.stripe_customer_id !== null,
  };
}

/**
 * The school's plan against its students, counted from the rows in `db` (the caller's transaction, the one
 * that charges or invoices): a school outgrows its plan whenever students are added, not only at the choice.
 */
export async function outgrownIn(
  db: Db,
  catalog: BillingCatalog,
  schoolId: number,
  planId: string,
): Promise<OutgrownPlan | undefined> {
  const { students } = await repo.usage(db, schoolId);
  return outgrownPlan(catalog.plans, planId, students);
}

/** The admin's choice: a plan of the catalogue whose band holds the school's students. */
export async function choosePlan(
  ctx: BillingContext,
  schoolId: number,
  planId: string,
): Promise<BillingView> {
  const catalog = catalogOf(ctx.config);
  const plan = findPlan(catalog, planId);
  if (!plan) throw unprocessable('Choose one of the plans.', { planId: ['Choose one of the plans.'] });
  const { students } = await repo.usage(ctx.db, schoolId);
  if (!planFits(plan, students)) {
    const text = `${plan.name} is for up to ${plan.maxStudents} students; your school has ${students}.`;
    throw unprocessable(text, { planId: [text] });
  }
  await repo.findBilling(ctx.db, schoolId, catalog.trialDays);
  await repo.setPlan(ctx.db, schoolId, plan.id);
  return billingView(ctx, schoolId);
}

export async function updateBillingDetails(
  ctx: BillingContext,
  schoolId: number,
  body: BillingDetailsRequest,
): Promise<BillingView> {
  const catalog = catalogOf(ctx.config);
  await repo.findBilling(ctx.db, schoolId, catalog.trialDays);
  await repo.updateDetails(ctx.db, schoolId, {
    billing_name: body.billingName,
    address: body.address,
    tax_number: body.taxNumber,
    finance_email: body.financeEmail,
  });
  return billingView(ctx, schoolId);
}

const sellerParty = (catalog: BillingCatalog): InvoiceParty => ({
  name: catalog.seller.name,
  address: catalog.seller.address,
  taxNumber: catalog.seller.taxNumber,
  email: catalog.seller.email,
  bankDetails: catalog.seller.bankDetails,
});

/** The PDF of a stored invoice row, with the number of the invoice a credit note cancels. */
async function pdfOf(db: Db, catalog: BillingCatalog, row: repo.InvoiceRow) {
  const credited = row.credits_invoice_id
    ? await repo.findInvoice(db, row.school_id, row.credits_invoice_id)
    : undefined;
  const bytes = await renderInvoicePdf(row, catalog.seller.invoicePrefix, credited?.number ?? null);
  return { bytes, fileName: invoiceFileName(row, catalog.seller.invoicePrefix) };
}

/** Mails a document to the school's finance contact, with the PDF, in the issuing transaction. */
async function mailDocument(
  ctx: BillingContext,
  trx: Db,
  row: repo.InvoiceRow,
  to: string,
  schoolName: string,
  notes: string[] = [],
) {
  const catalog = catalogOf(ctx.config);
  const { bytes, fileName } = await pdfOf(trx, catalog, row);
  const number = documentNumber(catalog.seller.invoicePrefix, row.number);
  const title = invoiceTitle(row);
  const mail = composeMail({
    product: ctx.config.appName,
    schoolName,
    schoolId: row.school_id,
    to,
    subject: `${title} ${number} from ${catalog.seller.name}`,
    greeting: 'Hello,',
    lines: [
      row.kind === 'credit_note'
        ? `Attached is credit note ${number}, which cancels an earlier invoice of ${schoolName}'s ${ctx.config.appName} subscription.`
        : `Attached is invoice ${number} for ${schoolName}'s ${ctx.config.appName} subscription (${row.plan_name}).`,
      ...notes,
      ...(row.po_number ? [`Purchase order: ${row.po_number}`] : []),
      ...(row.kind === 'invoice' && !row.paid_at
        ? [`Please pay by ${row.due_at.toISOString().slice(0, 10)} by bank transfer, quoting ${number}.`]
        : []),
    ],
    action: { label: 'Open billing', url: `${ctx.config.appUrl}/billing` },
  });
  await enqueueMail(trx, {
    ...mail,
    attachments: [
      {
        filename: fileName,
        contentType: 'application/pdf',
        content: bytes.toString('base64'),
        encoding: 'base64',
      },
    ],
  });
}

type Issue = {
  schoolId: number;
  poNumber: string | null;
  paid: { at: Date; method: 'transfer' | 'card' } | null;
  stripeSessionId: string | null;
  planId?: string;
};

/**
 * Issues an invoice for the school's plan, the next year of cover, in `trx` (the caller's transaction,
 * with the school's billing row locked): the number, the row and the mail commit together or not at all.
 */
export async function issueInvoice(ctx: BillingContext, trx: Db, issue: Issue): Promise<repo.InvoiceRow> {
  const catalog = catalogOf(ctx.config);
  const billing = await repo.findBilling(trx, issue.schoolId, catalog.trialDays, true);
  const chosen = findPlan(catalog, issue.planId ?? billing.plan_id);
  if (!chosen) throw unprocessable('Choose a plan first.', { planId: ['Choose a plan first.'] });
  const outgrown = await outgrownIn(trx, catalog, issue.schoolId, chosen.id);
  let plan = chosen;
  const notes: string[] = [];
  if (outgrown && issue.paid) {
    // A card receipt states what was paid; the school is told which plan its next payment needs.
    notes.push(outgrownText(outgrown, () => 'Choose it on the billing page before your next payment.'));
  } else if (outgrown) {
    // An invoice to pay is for the plan the school's size calls for, never a smaller one; the school
    // moves to it with the invoice, and the mail says why.
    if (!outgrown.fits) {
      const text = outgrownText(outgrown);
      throw unprocessable(text, { planId: [text] });
    }
    plan = outgrown.fits;
    await repo.setPlan(trx, issue.schoolId, plan.id);
    notes.push(
      outgrownText(
        outgrown,
        (fits) => `This invoice is for ${fits.name}, and your school is on it from now on.`,
      ),
    );
  }
  const address = billing.address ?? billing.school_address;
  // An invoice to pay needs somewhere to go; a card payment's receipt makes do with what the school has.
  if (!issue.paid && (!address || !billing.finance_email)) {
    const missing: Record<string, string[]> = {};
    if (!address) missing.address = ['Add the billing address first.'];
    if (!billing.finance_email)
      missing.financeEmail = ['Add the finance contact first: they receive the invoices.'];
    throw unprocessable('Complete the billing details first.', missing);
  }
  const now = new Date();
  const periodStart = nextPeriodStart(
    { paidUntil: billing.paid_until, trialEndsAt: billing.trial_ends_at },
    now,
  );
  const amounts = invoiceAmounts(plan.yearlyPriceMinor, catalog.taxRatePercent);
  const row = await repo.insertInvoice(trx, {
    schoolId: issue.schoolId,
    seller: catalog.seller.id,
    number: await repo.nextNumber(trx, catalog.seller.id),
    kind: 'invoice',
    creditsInvoiceId: null,
    dueAt: new Date(now.getTime() + catalog.paymentTermsDays * DAY_MS),
    planId: plan.id,
    planName: plan.name,
    periodStart,
    periodEnd: oneYearAfter(periodStart),
    poNumber: issue.poNumber,
    currency: catalog.currency,
    netMinor: amounts.netMinor,
    taxRatePercent: catalog.taxRatePercent,
    taxMinor: amounts.taxMinor,
    totalMinor: amounts.totalMinor,
    billTo: {
      name: billing.billing_name ?? billing.school_name,
      address: address ?? '',
      taxNumber: billing.tax_number,
      email: billing.finance_email,
    },
    sellerDetails: sellerParty(catalog),
    reason: null,
    stripeSessionId: issue.stripeSessionId,
    paid: issue.paid,
  });
  if (issue.paid) await repo.extendPaidUntil(trx, issue.schoolId, row.period_end);
  if (billing.finance_email)
    await mailDocument(ctx, trx, row, billing.finance_email, billing.school_name, notes);
  return row;
}

/** POST billing/request-invoice: one invoice waiting for payment at a time. */
export async function requestInvoice(
  ctx: BillingContext,
  schoolId: number,
  poNumber: string | null,
): Promise<InvoiceSummary> {
  const catalog = catalogOf(ctx.config);
  const row = await ctx.db.transaction().execute(async (trx) => {
    await repo.findBilling(trx, schoolId, catalog.trialDays, true);
    const open = await repo.openInvoice(trx, schoolId);
    if (open) {
      throw conflict(
        `Invoice ${documentNumber(catalog.seller.invoicePrefix, open.number)} is still waiting for payment.`,
      );
    }
    return issueInvoice(ctx, trx, { schoolId, poNumber, paid: null, stripeSessionId: null });
  });
  return summary(row, catalog.seller.invoicePrefix);
}

/** GET billing/invoice-pdf: the school's own document, rendered from its stored row. */
export async function invoicePdf(ctx: BillingContext, schoolId: number, invoiceId: number) {
  const row = await repo.findInvoice(ctx.db, schoolId, invoiceId);
  if (!row) throw notFound('No such invoice.');
  return pdfOf(ctx.db, catalogOf(ctx.config), row);
}

// ── the operator's commands (system scope: any school) ────────────────────────────────────────────────

export async function operatorSchools(ctx: BillingContext) {
  const catalog = catalogOf(ctx.config);
  const now = new Date();
  const rows = await repo.listSchoolsWithBilling(ctx.db);
  return rows.map((row) => {
    const trialEndsAt = row.trial_ends_at ?? new Date(row.created_at.getTime() + catalog.trialDays * DAY_MS);
    const { status, enforcement } = statusOf(
      { trial_ends_at: trialEndsAt, paid_until: row.paid_until },
      row.open_due_at ?? null,
      now,
    );
    return {
      id: row.id,
      name: row.name,
      plan: row.plan_id,
      state: status.state,
      until: status.until,
      days: status.days,
      canCreateEvents: enforcement.canCreateEvents,
    };
  });
}

export async function operatorInvoices(ctx: BillingContext, schoolId: number) {
  const catalog = catalogOf(ctx.config);
  return (await repo.listInvoices(ctx.db, schoolId)).map((row) => summary(row, catalog.seller.invoicePrefix));
}

export async function operatorSetPlan(ctx: BillingContext, schoolId: number, planId: string) {
  const catalog = catalogOf(ctx.config);
  const plan = findPlan(catalog, planId);
  if (!plan) throw new Error(`no plan "${planId}" (plans: ${catalog.plans.map((p) => p.id).join(', ')})`);
  if (!(await repo.schoolExists(ctx.db, schoolId))) throw new Error(`no school ${schoolId}`);
  await repo.findBilling(ctx.db, schoolId, catalog.trialDays);
  await repo.setPlan(ctx.db, schoolId, plan.id);
  // The operator may set any plan; an outgrown one is priced up at the next invoice, so say so now.
  return { plan, outgrown: await outgrownIn(ctx.db, catalog, schoolId, plan.id) };
}

/** The invoice an operator names: "PRL-000042" or 42. */
async function invoiceNamed(ctx: BillingContext, name: string) {
  const catalog = catalogOf(ctx.config);
  const match = name.trim().match(new RegExp(`^(?:${catalog.seller.invoicePrefix}-)?0*(\\d{1,9})$`, 'i'));
  const row = match?.[1]
    ? await repo.findInvoiceByNumber(ctx.db, catalog.seller.id, Number(match[1]))
    : undefined;
  if (!row) throw new Error(`no invoice ${name}`);
  return row;
}

/** Records a bank transfer: the invoice paid, the school active until the end of its period. */
export async function operatorMarkPaid(ctx: BillingContext, name: string, paidOn = new Date()) {
  const row = await invoiceNamed(ctx, name);
  if (row.kind !== 'invoice') throw new Error(`${name} is a credit note`);
  if (row.credited) throw new Error(`${name} was cancelled by a credit note`);
  return ctx.db.transaction().execute(async (trx) => {
    const marked = await repo.markInvoicePaid(trx, row.school_id, row.id, 'transfer', paidOn);
    if (!marked) throw new Error(`${name} is already paid`);
    await repo.extendPaidUntil(trx, row.school_id, row.period_end);
    return { schoolId: row.school_id, paidUntil: row.period_end };
  });
}

/** Cancels an unpaid invoice with a credit note (numbered in the same series), mailed like the invoice. */
export async function operatorCreditNote(ctx: BillingContext, name: string, reason: string) {
  const catalog = catalogOf(ctx.config);
  const original = await invoiceNamed(ctx, name);
  if (original.kind !== 'invoice') throw new Error(`${name} is a credit note`);
  if (original.credited) throw new Error(`${name} is already cancelled by a credit note`);
  if (original.paid_at) throw new Error(`${name} is paid: refunds are settled outside Parley`);
  if (!reason.trim()) throw new Error('a credit note needs a reason');
  return ctx.db.transaction().execute(async (trx) => {
    const billing = await repo.findBilling(trx, original.school_id, catalog.trialDays, true);
    const note = await repo.insertInvoice(trx, {
      schoolId: original.school_id,
      seller: original.seller,
      number: await repo.nextNumber(trx, original.seller),
      kind: 'credit_note',
      creditsInvoiceId: original.id,
      dueAt: new Date(),
      planId: original.plan_id,
      planName: original.plan_name,
      periodStart: original.period_start,
      periodEnd: original.period_end,
      poNumber: original.po_number,
      currency: original.currency,
      netMinor: -original.net_minor,
      taxRatePercent: Number(original.tax_rate_percent),
      taxMinor: -original.tax_minor,
      totalMinor: -original.total_minor,
      billTo: original.bill_to,
      sellerDetails: original.seller_details,
      reason: reason.trim(),
      stripeSessionId: null,
      paid: null,
    });
    const to = billing.finance_email ?? original.bill_to.email;
    if (to) await mailDocument(ctx, trx, note, to, billing.school_name);
    return summary(note, catalog.seller.invoicePrefix);
  });
}
