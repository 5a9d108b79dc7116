import {
  type BillingView,
  formatMoney,
  type InvoiceSummary,
  outgrownPlan,
  outgrownText,
} from '@parley/domain/billing';

// What the billing page says, from the view the server sends (pure, tested on its own).

/** "25 Nov 2027" */
export const dateLabel = (iso: string) =>
  new Date(iso).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });

const days = (n: number) => `${n} day${n === 1 ? '' : 's'}`;

export function statusHeadline(view: Pick<BillingView, 'status'>): string {
  const { state, until, days: n } = view.status;
  switch (state) {
    case 'trial':
      return `Free trial: ${days(n)} left (until ${dateLabel(until)})`;
    case 'active':
      return `Active until ${dateLabel(until)}`;
    case 'payment_due':
      return `Payment due by ${dateLabel(until)}`;
    case 'overdue':
      return `Payment overdue by ${days(n)} (was due ${dateLabel(until)})`;
  }
}

/** What follows from the status, in plain words (decision 021). */
export function enforcementText(view: Pick<BillingView, 'enforcement' | 'status'>): string | null {
  const { banner, restrictsOn } = view.enforcement;
  if (banner === 'restricted')
    return 'Creating new events is paused until payment arrives. Events you already have, and families’ bookings, carry on as normal.';
  if (banner === 'warning' && restrictsOn)
    return `If payment has not arrived by ${dateLabel(restrictsOn)}, creating new events pauses. Families can always book events you already have.`;
  if (banner === 'reminder' && view.status.state === 'trial')
    return 'Choose a plan and pay by invoice or card to keep going after the trial.';
  if (banner === 'reminder') return 'Your year ends soon: ask for next year’s invoice in time.';
  return null;
}

export const severityOf = (view: Pick<BillingView, 'enforcement'>) =>
  (({ none: 'success', reminder: 'info', warning: 'warning', restricted: 'error' }) as const)[
    view.enforcement.banner
  ];

export function invoiceState(invoice: InvoiceSummary): {
  label: string;
  color: 'success' | 'warning' | 'default';
} {
  if (invoice.kind === 'credit_note') return { label: 'Credit note', color: 'default' };
  if (invoice.credited) return { label: 'Cancelled', color: 'default' };
  if (invoice.paidAt)
    return {
      label: `Paid ${invoice.paymentMethod === 'card' ? 'by card ' : ''}${dateLabel(invoice.paidAt)}`,
      color: 'success',
    };
  return { label: `Due ${dateLabel(invoice.dueAt)}`, color: 'warning' };
}

export const money = (minor: number, currency: string) => formatMoney(minor, currency);

/**
 * The school has more students than its plan covers (decision 021): what the page says, and the plan to
 * offer. The server prices the next invoice at that plan and refuses card payment on the outgrown one.
 */
export function outgrownNotice(view: Pick<BillingView, 'plans' | 'planId' | 'usage'>) {
  const outgrown = outgrownPlan(view.plans, view.planId, view.usage.students);
  if (!outgrown) return null;
  return {
    text: outgrownText(
      outgrown,
      (fits) => `Your next invoice will be for ${fits.name}; choose it now to pay by card.`,
    ),
    fits: outgrown.fits ?? null,
  };
}

/** The invoice still waiting for payment, if any. */
export const openInvoice = (view: Pick<BillingView, 'invoices'>) =>
  view.invoices.find((invoice) => invoice.kind === 'invoice' && !invoice.paidAt && !invoice.credited);
