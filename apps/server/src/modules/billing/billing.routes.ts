import {
  billingDetailsRequest,
  billingView,
  checkoutResponse,
  choosePlanRequest,
  invoicePdfQuery,
  invoiceSummary,
  requestInvoiceRequest,
} from '@parley/domain/billing';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { type Api, errorResponses } from '../../lib/api';
import { requireSession, sessionOf } from '../../plugins/auth';
import * as billing from './billing.service';
import * as card from './card.service';

// A school's billing (issue 15, decision 021): its admins only, enforced here; everyone else gets 403.
export function billingRoutes(api: Api, ctx: AppContext): void {
  const tags = ['billing'];
  const security = [{ bearer: [] }];
  const admin = { onRequest: requireSession(ctx.db, ['admin']) };
  const ok = <T>(schema: T) => ({ 200: schema, ...errorResponses });

  api.get('/billing/view', { ...admin, schema: { tags, security, response: ok(billingView) } }, (request) =>
    billing.billingView(ctx, sessionOf(request).schoolId),
  );

  api.post(
    '/billing/choose-plan',
    { ...admin, schema: { tags, security, body: choosePlanRequest, response: ok(billingView) } },
    (request) => billing.choosePlan(ctx, sessionOf(request).schoolId, request.body.planId),
  );

  api.post(
    '/billing/update-details',
    { ...admin, schema: { tags, security, body: billingDetailsRequest, response: ok(billingView) } },
    (request) => billing.updateBillingDetails(ctx, sessionOf(request).schoolId, request.body),
  );

  api.post(
    '/billing/request-invoice',
    { ...admin, schema: { tags, security, body: requestInvoiceRequest, response: ok(invoiceSummary) } },
    (request) => billing.requestInvoice(ctx, sessionOf(request).schoolId, request.body.poNumber ?? null),
  );

  // A file, not JSON: the invoice's PDF, rendered from its stored row.
  api.get(
    '/billing/invoice-pdf',
    {
      ...admin,
      schema: {
        tags,
        security,
        querystring: invoicePdfQuery,
        produces: ['application/pdf'],
        response: ok(z.string().describe('application/pdf, as a download')),
      },
    },
    async (request, reply) => {
      const file = await billing.invoicePdf(ctx, sessionOf(request).schoolId, request.query.id);
      return (
        reply
          .header('content-type', 'application/pdf')
          .header('content-disposition', `attachment; filename="${file.fileName}"`)
          .header('cache-control', 'no-store')
          // Fastify sends a Buffer as is (the schema documents a file).
          .send(file.bytes as unknown as string)
      );
    },
  );

  // Card payment (Stripe): 409 in invoice-only mode (no keys).
  api.post(
    '/billing/checkout',
    { ...admin, schema: { tags, security, response: ok(checkoutResponse) } },
    (request) => card.startCheckout(ctx, sessionOf(request).schoolId),
  );
  api.post(
    '/billing/portal',
    { ...admin, schema: { tags, security, response: ok(checkoutResponse) } },
    (request) => card.openPortal(ctx, sessionOf(request).schoolId),
  );

  // Stripe's webhook signs the exact bytes it sent: in its own scope, the JSON body stays raw text.
  api.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
      done(null, body),
    );
    scope.post(
      '/billing/stripe-webhook',
      {
        schema: {
          tags,
          headers: z.object({ 'stripe-signature': z.string().max(2000).optional() }),
          response: ok(z.object({ received: z.literal(true), duplicate: z.boolean() })),
        },
      },
      (request) => {
        const signature = request.headers['stripe-signature'];
        const body = typeof request.body === 'string' ? request.body : '';
        return card.receiveWebhook(ctx, body, typeof signature === 'string' ? signature : undefined);
      },
    );
  });
}
