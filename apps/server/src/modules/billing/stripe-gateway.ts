import Stripe from 'stripe';
import type { Config } from '../../config';

// The Stripe client of the configured keys (decision 021). STRIPE_API_URL points it elsewhere (a test's
// stand-in on 127.0.0.1): the library takes the base as host, port and protocol.
const clients = new Map<string, Stripe>();

export type StripeConfig = NonNullable<Config['stripe']>;

export function stripeClient(stripe: StripeConfig): Stripe {
  const key = `${stripe.secretKey}|${stripe.apiUrl ?? ''}`;
  let client = clients.get(key);
  if (!client) {
    const base = stripe.apiUrl ? new URL(stripe.apiUrl) : undefined;
    client = new Stripe(stripe.secretKey, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      telemetry: false,
      appInfo: { name: 'Parley' },
      ...(base && {
        host: base.hostname,
        port: base.port || (base.protocol === 'https:' ? 443 : 80),
        protocol: base.protocol === 'https:' ? 'https' : 'http',
      }),
    });
    clients.set(key, client);
  }
  return client;
}
