import type { BillingView } from '@parley/domain/billing';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import catalog from '../../src/modules/billing/catalog.json' with { type: 'json' };
import { addMember, api, expectStatus, newSchool } from '../directory/directory-helpers';
import { lastMailTo } from '../mailbox';
import { createTestApp, type TestApp } from '../test-app';
import { pdfText } from './pdf-text';
import { type StripeStandIn, startStripeStandIn } from './stripe-stand-in';
import { cardEnv, checkoutEvent, deliver as post, signed } from './stripe-webhooks';

// Card payments (issue 15): the real Stripe library against a stand-in of Stripe's API on 127.0.0.1, and
// webhooks signed as Stripe signs them. A forged or replayed webhook changes nothing.

describe('card payments through Stripe', () => {
  let t: TestApp;
  let standIn: StripeStandIn;
  let admin: string;
  let schoolId: number;

  beforeAll(async () => {
    standIn = await startStripeStandIn();
    t = await createTestApp({ env: cardEnv(standIn) });
    const school = await newSchool(t, 'Card Academy');
    admin = school.admin.token;
    schoolId = school.schoolId;
  });
  afterAll(async () => {
    await t?.close();
    await standIn?.close();
  });

  const view = async () => expectStatus<BillingView>(await api(t.app).get('billing/view', admin), 200);
  const deliver = (payload: string, signature?: string) => post(t.app, payload, signature);

  let sessionId: string;
  let customerId: string;

  it('offers card payment and opens a Checkout session for a year of the plan', async () => {
    expect((await view()).cardPayments).toBe(true);
    const noPlan = await api(t.app).post('billing/checkout', admin);
    expect(expectStatus<{ errors: Record<string, string[]> }>(noPlan, 422).errors).toHaveProperty('planId');
    expectStatus(await api(t.app).post('billing/choose-plan', admin, { planId: 'small' }), 200);
    expectStatus(
      await api(t.app).post('billing/update-details', admin, {
        billingName: null,
        address: '5 Card Street',
        taxNumber: null,
        financeEmail: 'accounts@card.example.org',
      }),
      200,
    );
    const { url } = expectStatus<{ url: string }>(await api(t.app).post('billing/checkout', admin), 200);
    expect(url).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_standin_\d+$/);
    sessionId = url.split('/').pop() ?? '';

    const [customer, session] = standIn.requests;
    expect(customer?.path).toBe('/v1/customers');
    expect(customer?.headers.authorization).toBe('Bearer sk_test_parley');
    expect(customer?.form.get('email')).toBe('accounts@card.example.org');
    expect(customer?.form.get('metadata[schoolId]')).toBe(String(schoolId));
    customerId = `cus_standin_1`;
    const small = catalog.plans.find((plan) => plan.id === 'small');
    const total = (small?.yearlyPriceMinor ?? 0) * (1 + catalog.taxRatePercent / 100);
    expect(session?.path).toBe('/v1/checkout/sessions');
    expect(Object.fromEntries(session?.form ?? [])).toMatchObject({
      mode: 'payment',
      customer: customerId,
      'line_items[0][price_data][currency]': 'eur',
      'line_items[0][price_data][unit_amount]': String(total),
      'line_items[0][quantity]': '1',
      'metadata[schoolId]': String(schoolId),
      'metadata[planId]': 'small',
      success_url: 'http://parley.test/billing?card=paid',
    });

    // A second session reuses the school's customer.
    expectStatus(await api(t.app).post('billing/checkout', admin), 200);
    expect(standIn.requests.filter((request) => request.path === '/v1/customers')).toHaveLength(1);
    expect((await view()).hasCardCustomer).toBe(true);
  });

  it('opens the customer portal for the stored card', async () => {
    const { url } = expectStatus<{ url: string }>(await api(t.app).post('billing/portal', admin), 200);
    expect(url).toMatch(/^https:\/\/billing\.stripe\.test\/p\/session\/\d+$/);
    const portal = standIn.requests.at(-1);
    expect(portal?.path).toBe('/v1/billing_portal/sessions');
    expect(portal?.form.get('customer')).toBe(customerId);
    expect(portal?.form.get('return_url')).toBe('http://parley.test/billing');
  });

  it('refuses a forged or unsigned webhook (400) and changes nothing', async () => {
    const payload = checkoutEvent('evt_forged', 'checkout.session.completed', {
      id: sessionId,
      customer: customerId,
      schoolId,
      planId: 'small',
      paymentStatus: 'paid',
    });
    const forged = new Stripe('sk_test_other').webhooks.generateTestHeaderString({
      payload,
      secret: 'whsec_wrong',
    });
    expect((await deliver(payload, forged)).statusCode).toBe(400);
    expect((await deliver(payload)).statusCode).toBe(400);
    // Signed, then altered in transit.
    expect((await deliver(payload.replace('"small"', '"campus"'), signed(payload))).statusCode).toBe(400);
    const shown = await view();
    expect(shown.status.state).toBe('trial');
    expect(shown.invoices).toEqual([]);
    const seen = await t.db.selectFrom('stripe_events').select('id').execute();
    expect(seen).toEqual([]);
  });

  it('activates the plan from the signed webhook, with a paid invoice mailed to the finance contact', async () => {
    // Paid later (a bank debit): the completed session is not paid yet and changes nothing.
    const pending = checkoutEvent('evt_completed', 'checkout.session.completed', {
      id: sessionId,
      customer: customerId,
      schoolId,
      planId: 'small',
      paymentStatus: 'unpaid',
    });
    expect(expectStatus(await deliver(pending, signed(pending)), 200)).toEqual({
      received: true,
      duplicate: false,
    });
    expect((await view()).status.state).toBe('trial');

    const succeeded = checkoutEvent('evt_succeeded', 'checkout.session.async_payment_succeeded', {
      id: sessionId,
      customer: customerId,
      schoolId,
      planId: 'small',
      paymentStatus: 'paid',
    });
    expectStatus(await deliver(succeeded, signed(succeeded)), 200);
    const shown = await view();
    expect(shown.status.state).toBe('active');
    expect(shown.invoices).toHaveLength(1);
    expect(shown.invoices[0]).toMatchObject({
      paymentMethod: 'card',
      paidAt: expect.any(String),
      planName: 'Small school',
    });
    expect(shown.status.until).toBe(shown.invoices[0]?.periodEnd);
    const mail = await lastMailTo(t.db, 'accounts@card.example.org');
    const text = await pdfText(Buffer.from(mail?.attachments[0]?.content ?? '', 'base64'));
    expect(text).toContain('Paid by card on');
  });

  it('changes nothing on a replay, nor on a second event for the same payment arriving late', async () => {
    const before = await view();
    const succeeded = checkoutEvent('evt_succeeded', 'checkout.session.async_payment_succeeded', {
      id: sessionId,
      customer: customerId,
      schoolId,
      planId: 'small',
      paymentStatus: 'paid',
    });
    expect(expectStatus(await deliver(succeeded, signed(succeeded)), 200)).toEqual({
      received: true,
      duplicate: true,
    });
    // Another event id for the same session (Stripe's completed event, now paid, out of order).
    const late = checkoutEvent('evt_completed_late', 'checkout.session.completed', {
      id: sessionId,
      customer: customerId,
      schoolId,
      planId: 'small',
      paymentStatus: 'paid',
    });
    expect(expectStatus(await deliver(late, signed(late)), 200)).toEqual({
      received: true,
      duplicate: false,
    });
    const after = await view();
    expect(after.invoices).toEqual(before.invoices);
    expect(after.status).toEqual(before.status);
  });

  it('ignores a payment whose customer is not the school’s', async () => {
    const other = await newSchool(t, 'Other Card School');
    const payload = checkoutEvent('evt_foreign', 'checkout.session.completed', {
      id: 'cs_test_foreign',
      customer: customerId,
      schoolId: other.schoolId,
      planId: 'small',
      paymentStatus: 'paid',
    });
    expectStatus(await deliver(payload, signed(payload)), 200);
    const shown = expectStatus<BillingView>(await api(t.app).get('billing/view', other.admin.token), 200);
    expect(shown.invoices).toEqual([]);
    expect(shown.status.state).toBe('trial');
  });

  it('answers a teacher 403 from the card calls', async () => {
    const teacher = await addMember(t, admin, 'teacher');
    expect((await api(t.app).post('billing/checkout', teacher.token)).statusCode).toBe(403);
    expect((await api(t.app).post('billing/portal', teacher.token)).statusCode).toBe(403);
  });
});

describe('invoice-only mode (no Stripe keys)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('hides card payment and answers the card calls with a clear 409', async () => {
    const school = await newSchool(t, 'Invoice Only School');
    const shown = expectStatus<BillingView>(await api(t.app).get('billing/view', school.admin.token), 200);
    expect(shown.cardPayments).toBe(false);
    const checkout = await api(t.app).post('billing/checkout', school.admin.token);
    expect(expectStatus<{ message: string }>(checkout, 409).message).toMatch(/ask for an invoice/);
    expect((await api(t.app).post('billing/portal', school.admin.token)).statusCode).toBe(409);
    const hook = await t.app.inject({
      method: 'POST',
      url: '/api/billing/stripe-webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      payload: '{"id":"evt_1"}',
    });
    expect(hook.statusCode).toBe(404);
  });
});
