import type { BillingView, InvoiceSummary } from '@parley/domain/billing';
import { STORAGE_KEYS } from '@parley/domain/constants';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client';
import { reloadSession } from '../../lib/session';
import { renderAt } from '../../test-support/render-app';
import {
  adminUser,
  type Handler,
  json,
  type RecordedRequest,
  siteConfig,
  stubFetch,
} from '../../test-support/screen-fixtures';
import { enforcementText, statusHeadline } from './billing-text';

// The billing page (issue 15) through the real router and API client, with only fetch faked.

let routes: Record<string, Handler>;
let requests: RecordedRequest[];

const invoice: InvoiceSummary = {
  id: 4,
  kind: 'invoice',
  number: 'PRL-000004',
  issuedAt: '2026-11-25T10:00:00.000Z',
  dueAt: '2026-12-25T10:00:00.000Z',
  paidAt: null,
  credited: false,
  planName: 'Small school',
  periodStart: '2026-12-25T10:00:00.000Z',
  periodEnd: '2027-12-25T10:00:00.000Z',
  poNumber: 'PO-9',
  totalMinor: 58_800,
  currency: 'EUR',
  paymentMethod: null,
};

const baseView = (): BillingView => ({
  plans: [
    { id: 'small', name: 'Small school', maxStudents: 300, yearlyPriceMinor: 49_000 },
    { id: 'campus', name: 'Campus', maxStudents: null, yearlyPriceMinor: 299_000 },
  ],
  currency: 'EUR',
  taxRatePercent: 20,
  planId: null,
  suggestedPlanId: 'small',
  usage: { students: 120, eventsThisYear: 3 },
  status: { state: 'trial', until: '2026-12-25T10:00:00.000Z', days: 30 },
  enforcement: { banner: 'none', canCreateEvents: true, restrictsOn: null },
  details: { billingName: null, address: null, taxNumber: null, financeEmail: null },
  invoices: [],
  cardPayments: false,
  hasCardCustomer: false,
});

const bodyOf = (path: string) =>
  JSON.parse(String(requests.filter((request) => request.path === path).at(-1)?.init.body));

function type(label: string, value: string) {
  const input = screen.getByLabelText(label);
  fireEvent.input(input, { target: { value } });
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
  return input as HTMLInputElement;
}

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem(STORAGE_KEYS.accessToken, 'tok-admin');
  localStorage.setItem(STORAGE_KEYS.currentUser, JSON.stringify(adminUser));
  reloadSession();
  queryClient.clear();
  requests = [];
  let view = baseView();
  routes = {
    '/api/site/config': () => json(200, siteConfig),
    '/api/site/index': () => json(200, { subscriberName: 'Hill School', viewAsSelectorItems: [] }),
    '/api/billing/view': () => json(200, view),
    '/api/billing/choose-plan': (_url, init) => {
      view = { ...view, planId: JSON.parse(String(init.body)).planId };
      return json(200, view);
    },
  };
  stubFetch(
    (path) => routes[path],
    () => requests,
  );
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('the billing page', { timeout: 20_000 }, () => {
  it('shows the trial, the usage and the plans with their yearly prices, and saves a chosen plan', async () => {
    renderAt('/billing');
    expect(
      await screen.findByText('Free trial: 30 days left (until 25 Dec 2026)', {}, { timeout: 10_000 }),
    ).toBeTruthy();
    expect(screen.getByText('120 students · 3 events this year')).toBeTruthy();
    expect(screen.getByText(/up to 300 students · EUR 490\.00 a year \+ 20% tax = EUR 588\.00/)).toBeTruthy();
    expect(screen.getByText('Choose a plan first: then pay by invoice or card.')).toBeTruthy();
    // The plan that fits is picked already; choosing it saves it.
    expect((screen.getByRole('radio', { name: /Small school/ }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Choose plan' }));
    expect(await screen.findByText('Plan: Small school')).toBeTruthy();
    expect(bodyOf('/api/billing/choose-plan')).toEqual({ planId: 'small' });
    // Invoice-only: no card button.
    expect(await screen.findByRole('button', { name: 'Ask for an invoice' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Pay by card' })).toBeNull();
  });

  it('keeps the PO number and shows the server’s field error when the invoice is refused', async () => {
    routes['/api/billing/view'] = () => json(200, { ...baseView(), planId: 'small' });
    routes['/api/billing/request-invoice'] = () =>
      json(422, {
        message: 'Complete the billing details first.',
        errors: { financeEmail: ['Add the finance contact first: they receive the invoices.'] },
      });
    renderAt('/billing');
    await screen.findByRole('button', { name: 'Ask for an invoice' }, { timeout: 10_000 });
    const po = type('Purchase order number (optional)', 'PO-2026-7');
    fireEvent.click(screen.getByRole('button', { name: 'Ask for an invoice' }));
    await waitFor(() => expect(requests.map((r) => r.path)).toContain('/api/billing/request-invoice'));
    expect(
      await screen.findByText(/Add the finance contact first: they receive the invoices\./),
    ).toBeTruthy();
    expect(po.value).toBe('PO-2026-7');
    expect(bodyOf('/api/billing/request-invoice')).toEqual({ poNumber: 'PO-2026-7' });
  });

  it('saves billing details and names a bad field without losing the input', async () => {
    routes['/api/billing/update-details'] = () =>
      json(422, { message: 'Invalid input.', errors: { taxNumber: ['Max 40 characters'] } });
    renderAt('/billing');
    await screen.findByLabelText('Finance contact email', {}, { timeout: 10_000 });
    type('Billing address', '1 Hill Road');
    type('Finance contact email', 'bad');
    expect(await screen.findByText('Invalid email format')).toBeTruthy();
    type('Finance contact email', 'Bursar@Hill.test');
    type('VAT or tax number', 'GB1');
    fireEvent.click(screen.getByRole('button', { name: 'Save details' }));
    expect(await screen.findByText('Max 40 characters')).toBeTruthy();
    expect(bodyOf('/api/billing/update-details')).toEqual({
      billingName: null,
      address: '1 Hill Road',
      taxNumber: 'GB1',
      financeEmail: 'bursar@hill.test',
    });
    expect((screen.getByLabelText('Billing address') as HTMLInputElement).value).toBe('1 Hill Road');
  });

  it('tells an admin whose school outgrew its plan, and offers the plan that fits with one button', async () => {
    const outgrown: BillingView = {
      ...baseView(),
      plans: [
        { id: 'small', name: 'Small school', maxStudents: 300, yearlyPriceMinor: 49_000 },
        { id: 'medium', name: 'Medium school', maxStudents: 1000, yearlyPriceMinor: 99_000 },
        { id: 'campus', name: 'Campus', maxStudents: null, yearlyPriceMinor: 299_000 },
      ],
      planId: 'small',
      suggestedPlanId: 'medium',
      usage: { students: 321, eventsThisYear: 3 },
      cardPayments: true,
    };
    let shown = outgrown;
    routes['/api/billing/view'] = () => json(200, shown);
    routes['/api/billing/choose-plan'] = (_url, init) => {
      shown = { ...shown, planId: JSON.parse(String(init.body)).planId };
      return json(200, shown);
    };
    renderAt('/billing');
    const notice = await screen.findByTestId('plan-outgrown', {}, { timeout: 10_000 });
    expect(within(notice).getByText('Your school has outgrown its plan')).toBeTruthy();
    expect(notice.textContent).toContain(
      'Your school has 321 students; Small school is for up to 300. Medium school (up to 1000 students) fits it. Your next invoice will be for Medium school; choose it now to pay by card.',
    );
    fireEvent.click(within(notice).getByRole('button', { name: 'Choose Medium school' }));
    expect(await screen.findByText('Plan: Medium school')).toBeTruthy();
    expect(bodyOf('/api/billing/choose-plan')).toEqual({ planId: 'medium' });
    expect(screen.queryByTestId('plan-outgrown')).toBeNull();
    expect((screen.getByRole('radio', { name: /Medium school/ }) as HTMLInputElement).checked).toBe(true);
  });

  it('lists invoices with their state and PDF, and says an invoice is waiting instead of offering another', async () => {
    routes['/api/billing/view'] = () =>
      json(200, {
        ...baseView(),
        planId: 'small',
        cardPayments: true,
        invoices: [
          invoice,
          {
            ...invoice,
            id: 3,
            number: 'PRL-000003',
            paidAt: '2026-01-02T00:00:00.000Z',
            paymentMethod: 'card',
          },
        ],
      });
    renderAt('/billing');
    const list = await screen.findByRole('list', { name: 'Invoices' }, { timeout: 10_000 });
    const items = within(list).getAllByRole('listitem');
    expect(items[0]?.textContent).toContain('Invoice PRL-000004');
    expect(items[0]?.textContent).toContain('PO PO-9');
    expect(items[0]?.textContent).toContain('EUR 588.00');
    expect(items[0]?.textContent).toContain('Due 25 Dec 2026');
    expect(items[1]?.textContent).toContain('Paid by card 2 Jan 2026');
    expect(screen.getByRole('button', { name: 'PDF of PRL-000004' })).toBeTruthy();
    expect(screen.getByText(/Invoice PRL-000004 for EUR 588\.00 is waiting for payment/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Ask for an invoice' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Pay by card' })).toBeTruthy();
    await waitFor(() => expect(requests.some((request) => request.path === '/api/billing/view')).toBe(true));
  });
});

describe('status texts', () => {
  it('tells an overdue school when creating events pauses, and that families always book', () => {
    const view = {
      status: { state: 'overdue' as const, until: '2026-11-20T00:00:00.000Z', days: 5 },
      enforcement: {
        banner: 'warning' as const,
        canCreateEvents: true,
        restrictsOn: '2026-12-04T00:00:00.000Z',
      },
    };
    expect(statusHeadline(view)).toBe('Payment overdue by 5 days (was due 20 Nov 2026)');
    expect(enforcementText(view)).toBe(
      'If payment has not arrived by 4 Dec 2026, creating new events pauses. Families can always book events you already have.',
    );
    expect(
      enforcementText({
        ...view,
        enforcement: { banner: 'restricted', canCreateEvents: false, restrictsOn: null },
      }),
    ).toMatch(/^Creating new events is paused until payment arrives\./);
    expect(
      statusHeadline({ status: { state: 'active', until: '2027-12-25T10:00:00.000Z', days: 395 } }),
    ).toBe('Active until 25 Dec 2027');
  });
});
