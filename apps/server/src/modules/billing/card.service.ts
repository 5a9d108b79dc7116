import { invoiceAmounts, outgrownText } from '@parley/domain/billing';
import type Stripe from 'stripe';
import { badRequest, conflict, notFound, unprocessable } from '../../lib/http-error';
import * as repo from './billing.repository';
import { type BillingContext, issueInvoice, outgrownIn } from './billing.service';
import { catalogOf, findPlan } from './catalog';
import { type StripeConfig, stripeClient } from './stripe-gateway';

// Card payments through Stripe (decision 021): Checkout for the yearly plan, the customer portal for the
// stored card, and the webhook that records a payment. Without keys Parley is invoice-only and these
// calls say so.

const CARD_OFF = 'Card payments are not set up on this Parley installation: ask for an invoice instead.';

function configured(ctx: BillingContext): StripeConfig {
  if (!ctx.config.stripe) throw conflict(CARD_OFF);
  return ctx.config.stripe;
}

/** The school's customer at Stripe, made on first use and kept. */
async function customerOf(ctx: BillingContext, stripe: Stripe, schoolId: number): Promise<string> {
  const catalog = catalogOf(ctx.config);
  const billing = await repo.findBilling(ctx.db, schoolId, catalog.trialDays);
  if (billing.stripe_customer_id) return billing.stripe_customer_id;
  const customer = await stripe.customers.create(
    {
      name: billing.billing_name ?? billing.school_name,
      ...(billing.finance_email && { email: billing.finance_email }),
      metadata: { schoolId: String(schoolId) },
    },
    // Two clicks make one customer.
    { idempotencyKey: `parley-customer-${schoolId}` },
  );
  await repo.setStripeCustomer(ctx.db, schoolId, customer.id);
  return customer.id;
}

/** POST billing/checkout: a Checkout session for a year of the school's plan; the browser goes to its URL. */
export async function startCheckout(ctx: BillingContext, schoolId: number): Promise<{ url: string }> {
  const keys = configured(ctx);
  const catalog = catalogOf(ctx.config);
  // The plan and the school's size from one snapshot: a school that outgrew its plan is not charged for it.
  const plan = await ctx.db.transaction().execute(async (trx) => {
    const billing = await repo.findBilling(trx, schoolId, catalog.trialDays);
    const chosen = findPlan(catalog, billing.plan_id);
    if (!chosen) throw unprocessable('Choose a plan first.', { planId: ['Choose a plan first.'] });
    const outgrown = await outgrownIn(trx, catalog, schoolId, chosen.id);
    if (outgrown) {
      const text = outgrownText(outgrown, (fits) => `Choose ${fits.name} before paying by card.`);
      throw unprocessable(text, { planId: [text] });
    }
    return chosen;
  });
  const stripe = stripeClient(keys);
  const customer = await customerOf(ctx, stripe, schoolId);
  const { totalMinor } = invoiceAmounts(plan.yearlyPriceMinor, catalog.taxRatePercent);
  const session = await stripe.checkout.sessions.create({
    mode: 'payment',
    customer,
    client_reference_id: String(schoolId),
    line_items: [
      {
        quantity: 1,
        price_data: {
          currency: catalog.currency.toLowerCase(),
          unit_amount: totalMinor,
          product_data: { name: `${ctx.config.appName} ${plan.name}, one year` },
        },
      },
    ],
    // Keeps the card for next year's renewal, shown and changed in the customer portal.
    payment_intent_data: { setup_future_usage: 'off_session' },
    metadata: { schoolId: String(schoolId), planId: plan.id },
    success_url: `${ctx.config.appUrl}/billing?card=paid`,
    cancel_url: `${ctx.config.appUrl}/billing`,
  });
  if (!session.url) throw new Error('Stripe gave no Checkout URL');
  return { url: session.url };
}

/** POST billing/portal: Stripe's customer portal for the school's stored card and receipts. */
export async function openPortal(ctx: BillingContext, schoolId: number): Promise<{ url: string }> {
  const keys = configured(ctx);
  const billing = await repo.findBilling(ctx.db, schoolId, catalogOf(ctx.config).trialDays);
  if (!billing.stripe_customer_id) throw conflict('Pay by card once first: then the portal keeps your card.');
  const session = await stripeClient(keys).billingPortal.sessions.create({
    customer: billing.stripe_customer_id,
    return_url: `${ctx.config.appUrl}/billing`,
  });
  return { url: session.url };
}

/**
 * POST billing/stripe-webhook: verified by its signature over the raw body, handled once per event id
 * (recorded in the same transaction as what it changes, so a failure leaves it for Stripe's retry). A
 * payment issues a paid invoice keyed by its Checkout session: a replay, the twin event of an
 * asynchronous payment or events out of order issue nothing twice, and cover only ever grows.
 */
export async function receiveWebhook(
  ctx: BillingContext,
  rawBody: string,
  signature: string | undefined,
): Promise<{ received: true; duplicate: boolean }> {
  if (!ctx.config.stripe) throw notFound(CARD_OFF);
  const stripe = stripeClient(ctx.config.stripe);
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(rawBody, signature ?? '', ctx.config.stripe.webhookSecret);
  } catch {
    throw badRequest('Invalid Stripe signature.');
  }
  const duplicate = await ctx.db.transaction().execute(async (trx) => {
    if (!(await repo.recordStripeEvent(trx, event.id, event.type))) return true;
    const paid =
      (event.type === 'checkout.session.completed' && event.data.object.payment_status === 'paid') ||
      event.type === 'checkout.session.async_payment_succeeded';
    if (paid) await recordCardPayment({ ...ctx, db: trx }, event.data.object as Stripe.Checkout.Session);
    return false;
  });
  return { received: true, duplicate };
}

async function recordCardPayment(ctx: BillingContext, session: Stripe.Checkout.Session): Promise<void> {
  const schoolId = Number(session.metadata?.schoolId);
  const planId = session.metadata?.planId;
  if (!Number.isInteger(schoolId) || schoolId <= 0 || !planId) return;
  const customer = typeof session.customer === 'string' ? session.customer : session.customer?.id;
  const billing = await repo.findBilling(ctx.db, schoolId, catalogOf(ctx.config).trialDays, true);
  // Only the school's own customer pays for it (metadata is ours, but the customer ties it to Stripe's record).
  if (!customer || billing.stripe_customer_id !== customer) return;
  if (await repo.invoiceBySession(ctx.db, session.id)) return;
  await issueInvoice(ctx, ctx.db, {
    schoolId,
    planId,
    poNumber: null,
    paid: { at: new Date(), method: 'card' },
    stripeSessionId: session.id,
  });
}
