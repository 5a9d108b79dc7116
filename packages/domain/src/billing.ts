import { EMAIL_PATTERN } from './fields';
import { VALIDATION } from './messages';
import { z } from './zod';

// Billing for schools (issue 15, decision 021): the wire contract of /api/billing/*, and the catalogue's
// shape. Plans and prices are configuration (the server's billing catalogue), never branches in code.

/** A plan of the catalogue: a yearly price for a school of up to `maxStudents` students. */
export const billingPlan = z.object({
  id: z.string().regex(/^[a-z0-9-]{1,40}$/),
  name: z.string().min(1).max(60),
  /** The band's upper bound; null: no limit. */
  maxStudents: z.number().int().positive().nullable(),
  /** Net yearly price in the currency's minor unit (cents). */
  yearlyPriceMinor: z.number().int().nonnegative(),
});
export type BillingPlan = z.infer<typeof billingPlan>;

/** Who issues the invoices: the installation's operator. Each seller numbers its invoices without gaps. */
export const billingSeller = z.object({
  id: z.string().regex(/^[A-Za-z0-9-]{1,20}$/),
  name: z.string().min(1),
  address: z.string().min(1),
  taxNumber: z.string().min(1),
  email: z.string().regex(EMAIL_PATTERN),
  /** Where a transfer goes, as printed on the invoice. */
  bankDetails: z.string().min(1),
  /** Printed before the number: PRL-000042. */
  invoicePrefix: z.string().regex(/^[A-Z0-9]{1,10}$/),
});
export type BillingSeller = z.infer<typeof billingSeller>;

export const billingCatalog = z.object({
  currency: z.string().regex(/^[A-Z]{3}$/),
  /** Tax added to the net price, in percent (0 where none is charged). */
  taxRatePercent: z.number().min(0).max(100),
  trialDays: z.number().int().positive(),
  /** Days an invoice gives for payment. */
  paymentTermsDays: z.number().int().positive(),
  seller: billingSeller,
  plans: z.array(billingPlan).min(1),
});
export type BillingCatalog = z.infer<typeof billingCatalog>;

/** The plan whose band holds this many students: the smallest that fits. */
export function planForStudents(plans: BillingPlan[], students: number): BillingPlan | undefined {
  return [...plans]
    .sort((a, b) => (a.maxStudents ?? Number.POSITIVE_INFINITY) - (b.maxStudents ?? Number.POSITIVE_INFINITY))
    .find((plan) => plan.maxStudents === null || plan.maxStudents >= students);
}

export const planFits = (plan: BillingPlan, students: number) =>
  plan.maxStudents === null || students <= plan.maxStudents;

/** A school with more students than its plan's band, and the smallest plan that holds them (if any does). */
export type OutgrownPlan = { plan: BillingPlan; students: number; fits: BillingPlan | undefined };

/**
 * Whether the school has outgrown its plan (decision 021): checked when it pays, is invoiced or renews, not
 * only when the plan is chosen, since students are added all year. Undefined while the plan fits.
 */
export function outgrownPlan(
  plans: BillingPlan[],
  planId: string | null,
  students: number,
): OutgrownPlan | undefined {
  const plan = plans.find((candidate) => candidate.id === planId);
  if (!plan || planFits(plan, students)) return undefined;
  return { plan, students, fits: planForStudents(plans, students) };
}

/** "up to 300 students" */
export const planBand = (plan: BillingPlan) =>
  plan.maxStudents === null ? 'any number of students' : `up to ${plan.maxStudents} students`;

/**
 * "Your school has 321 students; Small school is for up to 300. Medium school (up to 1000 students) fits
 * it.", then what to do about it (`next`) when a plan fits.
 */
export function outgrownText(
  { plan, students, fits }: OutgrownPlan,
  next?: (fits: BillingPlan) => string,
): string {
  const size = `Your school has ${students} students; ${plan.name} is for up to ${plan.maxStudents}.`;
  if (!fits) return `${size} No plan covers that many students: contact us for a quote.`;
  return `${size} ${fits.name} (${planBand(fits)}) fits it.${next ? ` ${next(fits)}` : ''}`;
}

/** Net, tax and total in minor units; tax rounded half up to the minor unit. */
export function invoiceAmounts(netMinor: number, taxRatePercent: number) {
  const taxMinor = Math.round((netMinor * taxRatePercent) / 100);
  return { netMinor, taxMinor, totalMinor: netMinor + taxMinor };
}

/** "EUR 1,188.00" */
export function formatMoney(minor: number, currency: string): string {
  const sign = minor < 0 ? '-' : '';
  const units = Math.abs(minor);
  const whole = Math.floor(units / 100).toLocaleString('en-GB');
  return `${sign}${currency} ${whole}.${String(units % 100).padStart(2, '0')}`;
}

/** PRL-000042 */
export const documentNumber = (prefix: string, number: number) =>
  `${prefix}-${String(number).padStart(6, '0')}`;

// ── the wire ─────────────────────────────────────────────────────────────────────────────────────────

export const BILLING_STATES = ['trial', 'active', 'payment_due', 'overdue'] as const;
export type BillingState = (typeof BILLING_STATES)[number];

export const billingStatus = z.object({
  state: z.enum(BILLING_STATES),
  /** Trial: its last instant; active: paid until; payment due / overdue: the date payment was due by. */
  until: z.string(),
  /** Whole days to `until` (trial, active, payment due) or since it (overdue). */
  days: z.number().int(),
});
export type BillingStatusView = z.infer<typeof billingStatus>;

export const billingEnforcementView = z.object({
  banner: z.enum(['none', 'reminder', 'warning', 'restricted']),
  canCreateEvents: z.boolean(),
  /** When creating new events stops (overdue past the grace period), if it is ahead. */
  restrictsOn: z.string().nullable(),
});

export const billingDetails = z.object({
  billingName: z.string().nullable(),
  address: z.string().nullable(),
  taxNumber: z.string().nullable(),
  financeEmail: z.string().nullable(),
});
export type BillingDetails = z.infer<typeof billingDetails>;

export const invoiceSummary = z.object({
  id: z.number(),
  kind: z.enum(['invoice', 'credit_note']),
  number: z.string(),
  issuedAt: z.string(),
  dueAt: z.string(),
  paidAt: z.string().nullable(),
  /** A credit note cancelled it. */
  credited: z.boolean(),
  planName: z.string(),
  periodStart: z.string(),
  periodEnd: z.string(),
  poNumber: z.string().nullable(),
  totalMinor: z.number().int(),
  currency: z.string(),
  paymentMethod: z.enum(['transfer', 'card']).nullable(),
});
export type InvoiceSummary = z.infer<typeof invoiceSummary>;

export const billingView = z.object({
  plans: z.array(billingPlan),
  currency: z.string(),
  taxRatePercent: z.number(),
  planId: z.string().nullable(),
  /** The plan the student count calls for (the smallest that fits). */
  suggestedPlanId: z.string().nullable(),
  usage: z.object({ students: z.number().int(), eventsThisYear: z.number().int() }),
  status: billingStatus,
  enforcement: billingEnforcementView,
  details: billingDetails,
  invoices: z.array(invoiceSummary),
  /** Card payment and the customer portal (Stripe keys configured); otherwise invoice only. */
  cardPayments: z.boolean(),
  /** The school has a card customer at Stripe (the portal has something to show). */
  hasCardCustomer: z.boolean(),
});
export type BillingView = z.infer<typeof billingView>;

const optionalText = (max: number) =>
  z
    .string({ error: VALIDATION.notText })
    .trim()
    .max(max, `Max ${max} characters`)
    .transform((value) => (value === '' ? null : value))
    .nullable();

export const choosePlanRequest = z.strictObject({
  planId: z.string({ error: VALIDATION.required }).min(1, VALIDATION.required).max(40),
});

export const billingDetailsRequest = z.strictObject({
  billingName: optionalText(120),
  address: optionalText(400),
  taxNumber: optionalText(40),
  financeEmail: z
    .string({ error: VALIDATION.notText })
    .trim()
    .max(254, VALIDATION.invalidEmail)
    .refine((value) => value === '' || EMAIL_PATTERN.test(value), VALIDATION.invalidEmail)
    .transform((value) => (value === '' ? null : value.toLowerCase()))
    .nullable(),
});
export type BillingDetailsRequest = z.infer<typeof billingDetailsRequest>;

/** A purchase-order number as schools write them: letters, digits and a few separators. */
export const requestInvoiceRequest = z.strictObject({
  poNumber: z
    .string({ error: VALIDATION.notText })
    .trim()
    .max(40, 'Max 40 characters')
    .regex(/^[A-Za-z0-9 ./#_-]*$/, 'Letters, digits, spaces and . / # _ - only')
    .transform((value) => (value === '' ? null : value))
    .nullable()
    .optional(),
});

export const invoicePdfQuery = z.object({
  id: z.coerce.number().int().positive().max(2_147_483_647, VALIDATION.idInvalid),
});

export const checkoutResponse = z.object({ url: z.string() });
