import { describe, expect, it } from 'vitest';
import {
  formatMoney,
  invoiceAmounts,
  outgrownPlan,
  outgrownText,
  planFits,
  planForStudents,
} from './billing';
import {
  BILLING_POLICY,
  billingEnforcement,
  nextPeriodStart,
  oneYearAfter,
  subscriptionStatus,
} from './billing-policy';

const day = 86_400_000;
const now = new Date('2026-11-25T12:00:00Z');
const at = (days: number) => new Date(now.getTime() + days * day);

describe('subscriptionStatus', () => {
  it('is a trial with the days left until the trial ends', () => {
    const status = subscriptionStatus({ trialEndsAt: at(30), paidUntil: null, openInvoiceDueAt: null }, now);
    expect(status).toEqual({ state: 'trial', until: at(30), days: 30 });
  });

  it('is active until the paid date, even during the trial', () => {
    const status = subscriptionStatus(
      { trialEndsAt: at(5), paidUntil: at(400), openInvoiceDueAt: null },
      now,
    );
    expect(status).toMatchObject({ state: 'active', until: at(400), days: 400 });
  });

  it('is payment due after the trial, for the payment period', () => {
    const status = subscriptionStatus({ trialEndsAt: at(-1), paidUntil: null, openInvoiceDueAt: null }, now);
    expect(status).toMatchObject({ state: 'payment_due', until: at(BILLING_POLICY.paymentDueDays - 1) });
  });

  it('is payment due until a later invoice due date, then overdue by whole days', () => {
    const sub = { trialEndsAt: at(-60), paidUntil: null, openInvoiceDueAt: at(3) };
    expect(subscriptionStatus(sub, now)).toMatchObject({ state: 'payment_due', until: at(3), days: 3 });
    expect(subscriptionStatus(sub, at(10))).toMatchObject({ state: 'overdue', until: at(3), days: 7 });
  });

  it('counts a lapsed paid year from its end, not from the old trial', () => {
    const sub = { trialEndsAt: at(-400), paidUntil: at(-40), openInvoiceDueAt: null };
    expect(subscriptionStatus(sub, now)).toMatchObject({ state: 'overdue', until: at(-10), days: 10 });
  });
});

describe('billingEnforcement', () => {
  it('reminds near the end of a trial, not before', () => {
    expect(billingEnforcement({ state: 'trial', until: at(30), days: 30 }).banner).toBe('none');
    expect(billingEnforcement({ state: 'trial', until: at(3), days: 3 }).banner).toBe('reminder');
  });

  it('warns while overdue within the grace period, and says when creating events stops', () => {
    const result = billingEnforcement({ state: 'overdue', until: at(-3), days: 3 });
    expect(result).toEqual({
      banner: 'warning',
      canCreateEvents: true,
      restrictsOn: at(BILLING_POLICY.graceDaysOverdue - 3),
    });
  });

  it('stops only the creation of new events after the grace period', () => {
    const result = billingEnforcement({
      state: 'overdue',
      until: at(-20),
      days: BILLING_POLICY.graceDaysOverdue,
    });
    expect(result).toEqual({ banner: 'restricted', canCreateEvents: false, restrictsOn: null });
    // The rule has no lever over families' bookings: only the creation of events.
    expect(Object.keys(result).sort()).toEqual(['banner', 'canCreateEvents', 'restrictsOn']);
  });

  it('lets an active or paying school create events', () => {
    expect(billingEnforcement({ state: 'active', until: at(200), days: 200 })).toMatchObject({
      banner: 'none',
      canCreateEvents: true,
    });
    expect(billingEnforcement({ state: 'payment_due', until: at(2), days: 2 }).canCreateEvents).toBe(true);
  });
});

describe('plans and money', () => {
  const plans = [
    { id: 'large', name: 'Large', maxStudents: null, yearlyPriceMinor: 300_000 },
    { id: 'small', name: 'Small', maxStudents: 300, yearlyPriceMinor: 50_000 },
    { id: 'medium', name: 'Medium', maxStudents: 1000, yearlyPriceMinor: 120_000 },
  ];
  it('suggests the smallest band that holds the students', () => {
    expect(planForStudents(plans, 0)?.id).toBe('small');
    expect(planForStudents(plans, 300)?.id).toBe('small');
    expect(planForStudents(plans, 301)?.id).toBe('medium');
    expect(planForStudents(plans, 50_000)?.id).toBe('large');
    expect(planFits(plans[1] as (typeof plans)[number], 301)).toBe(false);
  });

  it('finds a school that has outgrown its plan, and the smallest plan that holds it', () => {
    expect(outgrownPlan(plans, 'small', 300)).toBeUndefined();
    expect(outgrownPlan(plans, null, 5000)).toBeUndefined();
    const outgrown = outgrownPlan(plans, 'small', 321);
    expect(outgrown?.fits?.id).toBe('medium');
    expect(outgrown && outgrownText(outgrown)).toBe(
      'Your school has 321 students; Small is for up to 300. Medium (up to 1000 students) fits it.',
    );
    const bounded = plans.filter((plan) => plan.maxStudents !== null);
    const beyond = outgrownPlan(bounded, 'medium', 1001);
    expect(beyond?.fits).toBeUndefined();
    expect(beyond && outgrownText(beyond)).toBe(
      'Your school has 1001 students; Medium is for up to 1000. No plan covers that many students: contact us for a quote.',
    );
  });

  it('adds tax rounded to the cent and formats money', () => {
    expect(invoiceAmounts(99_900, 20)).toEqual({ netMinor: 99_900, taxMinor: 19_980, totalMinor: 119_880 });
    expect(invoiceAmounts(333, 7.5)).toEqual({ netMinor: 333, taxMinor: 25, totalMinor: 358 });
    expect(formatMoney(119_880, 'EUR')).toBe('EUR 1,198.80');
    expect(formatMoney(-5, 'GBP')).toBe('-GBP 0.05');
  });

  it('ends a year on the same calendar day', () => {
    expect(oneYearAfter(new Date('2026-03-01T00:00:00Z')).toISOString()).toBe('2027-03-01T00:00:00.000Z');
    expect(oneYearAfter(new Date('2028-02-29T00:00:00Z')).toISOString()).toBe('2029-02-28T00:00:00.000Z');
  });
});

describe('nextPeriodStart', () => {
  it('starts the paid year where the trial or the paid cover ends, never in the past', () => {
    expect(nextPeriodStart({ trialEndsAt: at(10), paidUntil: null }, now)).toEqual(at(10));
    expect(nextPeriodStart({ trialEndsAt: at(-100), paidUntil: at(50) }, now)).toEqual(at(50));
    expect(nextPeriodStart({ trialEndsAt: at(-100), paidUntil: at(-5) }, now)).toEqual(now);
  });
});
