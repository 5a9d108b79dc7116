import type { BillingDetailsRequest, BillingView, InvoiceSummary } from '@parley/domain/billing';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { downloadFile } from '../../lib/download';

// The school's billing (issue 15): admins only; the server enforces it.

export const billingQuery = queryOptions({
  queryKey: ['billing'],
  queryFn: ({ signal }) => api.get<BillingView>('billing/view', { signal }),
});

export const choosePlan = (planId: string) => api.post<BillingView>('billing/choose-plan', { planId });
export const updateBillingDetails = (body: BillingDetailsRequest) =>
  api.post<BillingView>('billing/update-details', body);
export const requestInvoice = (poNumber: string | null) =>
  api.post<InvoiceSummary>('billing/request-invoice', { poNumber });
export const startCheckout = () => api.post<{ url: string }>('billing/checkout');
export const openPortal = () => api.post<{ url: string }>('billing/portal');
export const downloadInvoice = (invoice: Pick<InvoiceSummary, 'id' | 'number'>) =>
  downloadFile('billing/invoice-pdf', { id: invoice.id }, `${invoice.number}.pdf`);
