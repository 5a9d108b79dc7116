import type { BillingState } from './billing';

// What a school's subscription status is, and what follows from not paying (decision 021). Pure: the
// server computes it for the billing page and the event-creation check, the web app shows its banner.

const DAY_MS = 86_400_000;

export const BILLING_POLICY = {
  /** Days after the trial or the paid year ends in which payment is due before it is overdue. */
  paymentDueDays: 30,
  /** Days overdue before creating new events stops (existing events and their bookings go on). */
  graceDaysOverdue: 14,
  /** A reminder shows this many days before the trial ends. */
  trialReminderDays: 14,
  /** A renewal reminder shows this many days before the paid year ends. */
  renewalReminderDays: 30,
} as const;

export type Subscription = {
  trialEndsAt: Date;
  paidUntil: Date | null;
  /** Due date of the latest invoice still waiting for payment (not paid, not credited), if any. */
  openInvoiceDueAt: Date | null;
};

export type StatusResult = { state: BillingState; until: Date; days: number };

const daysBetween = (from: Date, to: Date) => Math.ceil((to.getTime() - from.getTime()) / DAY_MS);
const later = (a: Date, b: Date) => (a.getTime() >= b.getTime() ? a : b);

/**
 * trial (days left) → active (until) → payment due (by) → overdue (days since). Paying extends
 * `paidUntil`; an invoice with a later due date moves "due by" out, never in.
 */
export function subscriptionStatus(subscription: Subscription, now: Date): StatusResult {
  const { trialEndsAt, paidUntil, openInvoiceDueAt } = subscription;
  if (paidUntil && now < paidUntil)
    return { state: 'active', until: paidUntil, days: daysBetween(now, paidUntil) };
  if (now < trialEndsAt) return { state: 'trial', until: trialEndsAt, days: daysBetween(now, trialEndsAt) };
  const coveredUntil = paidUntil ? later(paidUntil, trialEndsAt) : trialEndsAt;
  const dueBy = later(
    new Date(coveredUntil.getTime() + BILLING_POLICY.paymentDueDays * DAY_MS),
    openInvoiceDueAt ?? coveredUntil,
  );
  if (now <= dueBy) return { state: 'payment_due', until: dueBy, days: daysBetween(now, dueBy) };
  return { state: 'overdue', until: dueBy, days: Math.floor((now.getTime() - dueBy.getTime()) / DAY_MS) };
}

export type Enforcement = {
  banner: 'none' | 'reminder' | 'warning' | 'restricted';
  /** An admin may create new events. Nothing here ever stops a family booking: see decision 021. */
  canCreateEvents: boolean;
  /** When creating new events will stop, while that is still ahead. */
  restrictsOn: Date | null;
};

/**
 * The consequence of a status. Overdue first warns, and only after the grace period stops the creation
 * of new events: every event already made, its booking window and every family's booking go on as
 * before, so a parent is never cut off in the middle of an open booking window.
 */
export function billingEnforcement(status: StatusResult): Enforcement {
  switch (status.state) {
    case 'trial':
      return {
        banner: status.days <= BILLING_POLICY.trialReminderDays ? 'reminder' : 'none',
        canCreateEvents: true,
        restrictsOn: null,
      };
    case 'active':
      return {
        banner: status.days <= BILLING_POLICY.renewalReminderDays ? 'reminder' : 'none',
        canCreateEvents: true,
        restrictsOn: null,
      };
    case 'payment_due':
      return {
        banner: 'warning',
        canCreateEvents: true,
        restrictsOn: new Date(status.until.getTime() + BILLING_POLICY.graceDaysOverdue * DAY_MS),
      };
    case 'overdue': {
      const restricted = status.days >= BILLING_POLICY.graceDaysOverdue;
      return {
        banner: restricted ? 'restricted' : 'warning',
        canCreateEvents: !restricted,
        restrictsOn: restricted
          ? null
          : new Date(status.until.getTime() + BILLING_POLICY.graceDaysOverdue * DAY_MS),
      };
    }
  }
}

/** Where the year an invoice pays for starts: when the current cover (trial or paid year) ends, or now. */
export function nextPeriodStart(
  subscription: Pick<Subscription, 'paidUntil' | 'trialEndsAt'>,
  now: Date,
): Date {
  const covered = subscription.paidUntil
    ? later(subscription.paidUntil, subscription.trialEndsAt)
    : subscription.trialEndsAt;
  return later(covered, now);
}

/** One year on, the same calendar day (29 Feb → 28 Feb). */
export function oneYearAfter(start: Date): Date {
  const end = new Date(start);
  end.setUTCFullYear(start.getUTCFullYear() + 1);
  if (end.getUTCDate() !== start.getUTCDate()) end.setUTCDate(0);
  return end;
}
