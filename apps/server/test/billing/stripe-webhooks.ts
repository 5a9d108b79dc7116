import type { FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import type { StripeStandIn } from './stripe-stand-in';

// Card payments in the server's tests: the configuration that points the Stripe library at the stand-in,
// and Checkout events signed as Stripe signs them.

const WEBHOOK_SECRET = 'whsec_parleytestsecret';
const signer = new Stripe('sk_test_signer');

/** The environment of a server that takes cards, through the stand-in. */
export const cardEnv = (standIn: StripeStandIn) => ({
  STRIPE_SECRET_KEY: 'sk_test_parley',
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  STRIPE_API_URL: standIn.url,
});

export function checkoutEvent(
  id: string,
  type: string,
  session: { id: string; customer: string; schoolId: number; planId: string; paymentStatus: string },
) {
  return JSON.stringify({
    id,
    object: 'event',
    type,
    api_version: '2026-10-28.endive',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: {
      object: {
        id: session.id,
        object: 'checkout.session',
        customer: session.customer,
        mode: 'payment',
        payment_status: session.paymentStatus,
        status: 'complete',
        metadata: { schoolId: String(session.schoolId), planId: session.planId },
      },
    },
  });
}

/** Stripe's signature header for a payload. */
export const signed = (payload: string) =>
  signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });

/** Posts a webhook, with a signature header when one is given. */
export const deliver = (app: FastifyInstance, payload: string, signature?: string) =>
  app.inject({
    method: 'POST',
    url: '/api/billing/stripe-webhook',
    headers: {
      'content-type': 'application/json',
      ...(signature !== undefined && { 'stripe-signature': signature }),
    },
    payload,
  });
