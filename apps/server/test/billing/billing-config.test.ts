import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config';

// Billing's configuration (decision 021): Stripe's keys go together, and a bad value names its variable.

describe('billing configuration', () => {
  it('is invoice-only without Stripe keys', () => {
    expect(parseConfig({}).stripe).toBeUndefined();
  });

  it('takes both Stripe keys and an API base for a stand-in', () => {
    expect(
      parseConfig({
        STRIPE_SECRET_KEY: 'sk_test_abc123',
        STRIPE_WEBHOOK_SECRET: 'whsec_abc123',
        STRIPE_API_URL: 'http://127.0.0.1:12111',
      }).stripe,
    ).toEqual({
      secretKey: 'sk_test_abc123',
      webhookSecret: 'whsec_abc123',
      apiUrl: 'http://127.0.0.1:12111',
    });
  });

  it('refuses one key without the other, and a key of the wrong kind, naming the variable', () => {
    expect(() => parseConfig({ STRIPE_SECRET_KEY: 'sk_test_abc123' })).toThrow(
      new ConfigError(
        'Invalid configuration: STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET go together (set both or neither)',
      ),
    );
    expect(() =>
      parseConfig({ STRIPE_SECRET_KEY: 'pk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc' }),
    ).toThrow(/STRIPE_SECRET_KEY must be a Stripe secret key/);
    expect(() => parseConfig({ STRIPE_API_URL: 'ftp://example.org' })).toThrow(/STRIPE_API_URL/);
  });
});
