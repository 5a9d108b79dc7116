import type { BillingView, InvoiceSummary } from '@parley/domain/billing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asSystem } from '../../src/db/scope';
import catalog from '../../src/modules/billing/catalog.json' with { type: 'json' };
import { runOperator } from '../../src/operator/operator';
import { api, expectStatus, newSchool } from '../directory/directory-helpers';
import { lastMailTo } from '../mailbox';
import { createTestApp, type TestApp } from '../test-app';
import { pdfText } from './pdf-text';
import { type StripeStandIn, startStripeStandIn } from './stripe-stand-in';
import { cardEnv, checkoutEvent, deliver, signed } from './stripe-webhooks';

// Issue 35, finding 4: a school that outgrew its plan after choosing it (321 students bulk-added on Small,
// which is for up to 300) is not charged Small: card checkout is refused naming the plan that fits, an
// invoice (the next year's renewal) is for that plan and says why, and a card receipt for a payment begun
// before the school grew tells which plan the next payment needs.

const FINANCE = 'bursar@growing.example.org';
const OUTGROWN =
  'Your school has 321 students; Small school is for up to 300. Medium school (up to 1000 students) fits it.';
const HEADER =
  'Student first name,Student last name,Student email,Parent first name,Parent last name,Parent email';

const gross = (planId: string) => {
  const net = catalog.plans.find((plan) => plan.id === planId)?.yearlyPriceMinor ?? 0;
  return net + Math.round((net * catalog.taxRatePercent) / 100);
};

describe('a school that has outgrown its plan', () => {
  let t: TestApp;
  let standIn: StripeStandIn;
  let admin: string;
  let schoolId: number;
  let sessionId: string;

  beforeAll(async () => {
    standIn = await startStripeStandIn();
    t = await createTestApp({ env: cardEnv(standIn) });
    const school = await newSchool(t, 'Growing Academy');
    admin = school.admin.token;
    schoolId = school.schoolId;
    expectStatus(await api(t.app).post('billing/choose-plan', admin, { planId: 'small' }), 200);
    expectStatus(
      await api(t.app).post('billing/update-details', admin, {
        billingName: null,
        address: '3 Growth Road',
        taxNumber: null,
        financeEmail: FINANCE,
      }),
      200,
    );
    // A card payment begun while Small still fitted…
    const { url } = expectStatus<{ url: string }>(await api(t.app).post('billing/checkout', admin), 200);
    sessionId = url.split('/').pop() ?? '';
    // …then the school's students arrive.
    const rows = Array.from(
      { length: 321 },
      (_, i) => `Pupil,No${i},pupil${i}@growing.example.org,Carer,No${i},carer${i}@growing.example.org`,
    );
    const added = await api(t.app).post('users/bulk-add-students?confirm=true&send_invite=false', admin, {
      csv: [HEADER, ...rows].join('\n'),
    });
    expect(expectStatus<{ summary: { created: number } }>(added, 200).summary.created).toBeGreaterThan(0);
  });
  afterAll(async () => {
    await t?.close();
    await standIn?.close();
  });

  const view = async () => expectStatus<BillingView>(await api(t.app).get('billing/view', admin), 200);

  it('refuses card checkout on Small for 321 students (422 naming the plan that fits); Stripe hears nothing', async () => {
    const shown = await view();
    expect(shown.usage.students).toBe(321);
    expect(shown.planId).toBe('small');
    const sessionsBefore = standIn.requests.filter((r) => r.path === '/v1/checkout/sessions').length;
    const refused = await api(t.app).post('billing/checkout', admin);
    expect(expectStatus<{ message: string; errors: Record<string, string[]> }>(refused, 422)).toEqual({
      message: `${OUTGROWN} Choose Medium school before paying by card.`,
      errors: { planId: [`${OUTGROWN} Choose Medium school before paying by card.`] },
    });
    expect(standIn.requests.filter((r) => r.path === '/v1/checkout/sessions')).toHaveLength(sessionsBefore);
  });

  it('a card receipt for the payment begun on Small states what was paid and names the plan needed next', async () => {
    const payload = checkoutEvent('evt_paid_small', 'checkout.session.completed', {
      id: sessionId,
      customer: 'cus_standin_1',
      schoolId,
      planId: 'small',
      paymentStatus: 'paid',
    });
    const delivered = await deliver(t.app, payload, signed(payload));
    expectStatus(delivered, 200);
    const shown = await view();
    expect(shown.invoices[0]).toMatchObject({ planName: 'Small school', totalMinor: gross('small') });
    const mail = await lastMailTo(t.db, FINANCE);
    expect(mail?.text_body).toContain(`${OUTGROWN} Choose it on the billing page before your next payment.`);
  });

  let renewal: InvoiceSummary;

  it('invoices the next year at Medium, the smallest plan that fits, moves the school there and says why', async () => {
    const paidYear = (await view()).invoices[0];
    renewal = expectStatus<InvoiceSummary>(
      await api(t.app).post('billing/request-invoice', admin, { poNumber: 'PO-GROW-1' }),
      200,
    );
    expect(renewal).toMatchObject({ planName: 'Medium school', totalMinor: gross('medium'), paidAt: null });
    // A renewal: the year after the one paid by card.
    expect(renewal.periodStart).toBe(paidYear?.periodEnd);
    expect((await view()).planId).toBe('medium');
    const mail = await lastMailTo(t.db, FINANCE);
    expect(mail?.text_body).toContain(
      `${OUTGROWN} This invoice is for Medium school, and your school is on it from now on.`,
    );
    const text = await pdfText(Buffer.from(mail?.attachments[0]?.content ?? '', 'base64'));
    expect(text).toContain('Medium school');
  });

  it('lets the operator set a plan too small, and says the next invoice will be for the one that fits', async () => {
    const lines: string[] = [];
    const code = await asSystem(() =>
      runOperator({ db: t.db, config: t.config }, ['set-plan', String(schoolId), 'small'], (line) =>
        lines.push(line),
      ),
    );
    expect(code).toBe(0);
    expect(lines).toEqual([
      `School ${schoolId} is on Small school (small).`,
      'It has 321 students: its next invoice will be for Medium school (medium).',
    ]);
  });
});
