import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { DEFAULT_APP_NAME } from '@parley/domain/constants';
import { z } from 'zod';
import { DEFAULT_POOL_SIZE } from './db/database';
import { parseSentryDsn, type SentryTarget } from './lib/sentry-dsn';
import { DEFAULT_PUSH_SERVICE_HOSTS, type HostPattern, parseHostPatterns } from './push/push-guard';

// The only reader of process.env. A bad value stops the start with one line naming the variable.
const urlOf = (protocols: string[]) =>
  z
    .string()
    .url()
    .refine((value) => protocols.some((protocol) => value.startsWith(`${protocol}:`)), {
      message: `must start with ${protocols.map((p) => `${p}://`).join(' or ')}`,
    });

/** iOS serves the bundled app from capacitor://localhost, Android (Capacitor 7) from https://localhost. */
export const DEFAULT_NATIVE_APP_ORIGINS = 'capacitor://localhost,https://localhost';
const ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/[a-z0-9.-]+(:\d{1,5})?$/;

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  APP_URL: urlOf(['http', 'https']).optional(),
  APP_NAME: z.string().min(1).max(40).default(DEFAULT_APP_NAME),
  DATABASE_URL: urlOf(['postgres', 'postgresql']).optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(200).default(DEFAULT_POOL_SIZE),
  SMTP_URL: urlOf(['smtp', 'smtps']).optional(),
  MAIL_FROM: z.string().min(3).optional(),
  REDIS_URL: urlOf(['redis', 'rediss']).optional(),
  TURNSTILE_SECRET: z.string().min(1).optional(),
  TURNSTILE_SITE_KEY: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().min(1).optional(),
  // How long a booking link's page waits for the server to render it (decision 019); 0 renders none.
  PAGE_RENDER_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(1_000),
  DEV_MAILBOX_OPEN: z.enum(['true', 'false']).default('false'),
  // The reverse proxies whose X-Forwarded-For is believed (decision 032): none unless named.
  TRUST_PROXY: z
    .string()
    .refine((value) => !/^\d+$/.test(value), {
      message: 'takes no hop count (a client that skips the proxy could claim any address): name the proxies',
    })
    .refine((value) => parseTrustProxy(value) !== undefined, {
      message: 'must be proxy addresses or CIDRs separated by commas, like 10.0.0.5,172.18.0.0/16',
    })
    .optional(),
  // OpenAPI and Swagger UI at /api/docs: on outside production unless turned off, off in production unless on.
  API_DOCS: z.enum(['true', 'false']).optional(),
  DATA_ENCRYPTION_KEY: z
    .string()
    .refine((value) => keyBytes(value) !== undefined, {
      message: 'must be 32 bytes as 64 hex characters or base64 (openssl rand -base64 32)',
    })
    .optional(),
  // Operations: unhandled errors sent to this Sentry-compatible DSN; /api/metrics open to this bearer token
  // (else loopback only).
  ERROR_REPORT_DSN: z
    .string()
    .refine((value) => parseSentryDsn(value) !== undefined, {
      message: 'must be a Sentry DSN, like https://<public key>@sentry.example.org/<project id>',
    })
    .optional(),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  // Origins of the Capacitor app's WebView (decision 017), allowed to call the API across origins.
  NATIVE_APP_ORIGINS: z
    .string()
    .default(DEFAULT_NATIVE_APP_ORIGINS)
    .refine((value) => value.split(',').every((origin) => ORIGIN.test(origin.trim())), {
      message: 'must be origins separated by commas, like capacitor://localhost,https://localhost',
    }),
  // Web Push (VAPID): both keys or neither (then a pair is made on first start and kept in the database).
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(
      /^[A-Za-z0-9_-]{87}$/,
      'must be the 65-byte P-256 public key, base64url (npx web-push generate-vapid-keys)',
    )
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(
      /^[A-Za-z0-9_-]{43}$/,
      'must be the 32-byte P-256 private key, base64url (npx web-push generate-vapid-keys)',
    )
    .optional(),
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:\S+@\S+|https:\/\/\S+)$/, 'must be a mailto: address or an https:// URL')
    .optional(),
  // The push services a subscription's endpoint may name (issue 35): hosts, or `*.` and a domain for its
  // subdomains; the server sends pushes to nothing else.
  PUSH_SERVICE_HOSTS: z
    .string()
    .default(DEFAULT_PUSH_SERVICE_HOSTS)
    .refine((value) => parseHostPatterns(value) !== undefined, {
      message:
        'must be host names or *.domain, separated by commas, like fcm.googleapis.com,*.push.apple.com',
    }),
  // Native push (issue 40, decision 038). Android: Firebase Cloud Messaging, with the service account's JSON
  // key file (Firebase console → Project settings → Service accounts → Generate new private key).
  FCM_SERVICE_ACCOUNT_FILE: z.string().min(1).optional(),
  FCM_API_URL: z.string().url().default('https://fcm.googleapis.com'),
  // iOS: the Apple Push Notification service, with a token-based .p8 key (Apple Developer → Keys), its key
  // id, the team id and the app's bundle id; all four or none.
  APNS_KEY_FILE: z.string().min(1).optional(),
  // Video appointments (issue 41, decision 040): the STUN and TURN servers the browsers use to reach each
  // other (comma-separated stun:, turn: or turns: URLs), and the TURN server's shared secret (coturn's
  // static-auth-secret), from which each call gets short-lived credentials.
  STUN_URLS: z
    .string()
    .regex(/^stuns?:[^\s,]+(,stuns?:[^\s,]+)*$/, 'must be stun: URLs, comma-separated')
    .optional(),
  TURN_URLS: z
    .string()
    .regex(/^turns?:[^\s,]+(,turns?:[^\s,]+)*$/, 'must be turn: or turns: URLs, comma-separated')
    .optional(),
  TURN_SECRET: z.string().min(16).optional(),
  APNS_KEY_ID: z
    .string()
    .regex(/^[A-Z0-9]{10}$/, 'must be the 10-character key id Apple shows beside the key')
    .optional(),
  APNS_TEAM_ID: z
    .string()
    .regex(/^[A-Z0-9]{10}$/, 'must be the 10-character team id of the Apple Developer account')
    .optional(),
  APNS_TOPIC: z
    .string()
    .regex(/^[\w.-]+$/, "must be the app's bundle id, like app.parley.mobile")
    .optional(),
  // The sandbox (https://api.sandbox.push.apple.com) for a development build of the app.
  APNS_HOST: z.string().url().default('https://api.push.apple.com'),
  // Billing (decision 021): card payments through Stripe when both keys are set, else invoice only.
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_\w+$/, 'must be a Stripe secret key (sk_…)')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\w+$/, 'must be a webhook signing secret (whsec_…)')
    .optional(),
  /** Another Stripe API base (a test's stand-in on 127.0.0.1); Stripe's own by default. */
  STRIPE_API_URL: urlOf(['http', 'https']).optional(),
  /** A JSON file with the plans, prices and seller (apps/server/src/modules/billing/catalog.json's shape). */
  BILLING_CATALOG_FILE: z.string().min(1).optional(),
});

/** A prefix length that fits the address's family, or no prefix. */
const cidr = (entry: string) => {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
};

/**
 * TRUST_PROXY as Fastify's trustProxy takes it: addresses, CIDRs and proxy-addr's names (loopback,
 * linklocal, uniquelocal); undefined when an entry is none of these.
 */
export function parseTrustProxy(value: string): string[] | undefined {
  const entries = value.split(',').map((entry) => entry.trim());
  const named = ['loopback', 'linklocal', 'uniquelocal'];
  return entries.every((entry) => named.includes(entry) || cidr(entry)) ? entries : undefined;
}

/** 32 bytes from 64 hex characters or base64 (standard or URL-safe), else undefined. */
function keyBytes(value: string): Buffer | undefined {
  const bytes = /^[0-9a-f]{64}$/i.test(value)
    ? Buffer.from(value, 'hex')
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(value)
      ? Buffer.from(value, 'base64')
      : undefined;
  return bytes?.length === 32 ? bytes : undefined;
}

/**
 * Outside production, secrets at rest are sealed under a key everybody can read in this file: fine for a
 * laptop or CI, never for real data (production requires DATA_ENCRYPTION_KEY).
 */
const DEVELOPMENT_KEY = createHash('sha256').update('parley development data key').digest();

export type Config = {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  appUrl: string;
  appName: string;
  databaseUrl: string | undefined;
  dataDir: string;
  /** PostgreSQL connections per process (decision 027). */
  databasePoolSize: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  redisUrl: string | undefined;
  /** STUN servers for video calls (STUN_URLS), and TURN with its shared secret (decision 040). */
  stunUrls: string[];
  turn: { urls: string[]; secret: string } | undefined;
  turnstileSecret: string | undefined;
  turnstileSiteKey: string | undefined;
  logLevel: string;
  webDist: string | undefined;
  /** How long a booking link's page waits for its render before it goes without (0: never rendered). */
  pageRenderWaitMs: number;
  /** The dev mailbox keeps mail in the database and shows it at /dev/mailbox (never in production). */
  devMailbox: boolean;
  /** The dev mailbox answers clients beyond this machine too (a shared demo server). */
  devMailboxOpen: boolean;
  /** Whose X-Forwarded-For to believe: nobody's (false) or these proxies'. */
  trustProxy: false | string[];
  /** OpenAPI and Swagger UI are served at /api/docs. */
  apiDocs: boolean;
  /** AES-256 key for secrets kept in the database (two-factor secrets; lib/secret-box.ts, decision 015). */
  dataEncryptionKey: Buffer;
  /** The Sentry-compatible tracker unhandled errors go to (lib/error-report.ts); undefined: the log only. */
  errorReports: SentryTarget | undefined;
  /** Bearer token for GET /api/metrics; undefined: only clients on this machine may read it. */
  metricsToken: string | undefined;
  /** Origins whose pages may call the API from another origin: the native app's WebView (no cookies). */
  nativeAppOrigins: string[];
  /** VAPID keys from the environment; undefined: generated once and kept in app_settings (push/vapid.ts). */
  vapidKeys: { publicKey: string; privateKey: string } | undefined;
  /** Who the push services may contact about this sender (VAPID `sub`). */
  vapidSubject: string;
  /** The hosts push endpoints may name (push/push-guard.ts); pushes go nowhere else. */
  pushServiceHosts: HostPattern[];
  /** Firebase Cloud Messaging (the Android app); undefined: no pushes to Android phones. */
  fcm: { serviceAccountFile: string; apiUrl: string } | undefined;
  /** The Apple Push Notification service (the iOS app); undefined: no pushes to iPhones. */
  apns: { keyFile: string; keyId: string; teamId: string; topic: string; origin: string } | undefined;
  /** Stripe (card payments and the customer portal); undefined: invoice-only mode. */
  stripe: { secretKey: string; webhookSecret: string; apiUrl: string | undefined } | undefined;
  /** The billing catalogue's file; undefined: the catalogue shipped with Parley. */
  billingCatalogFile: string | undefined;
};

export class ConfigError extends Error {}

export function parseConfig(env: Record<string, string | undefined>): Config {
  // An empty variable means "not set", as in most twelve-factor tools.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new ConfigError(`Invalid configuration: ${issue?.path.join('.')} ${issue?.message ?? ''}`.trim());
  }
  const c = result.data;
  if (c.NODE_ENV === 'production' && !c.SMTP_URL) {
    throw new ConfigError('Invalid configuration: SMTP_URL is required when NODE_ENV=production');
  }
  if (c.NODE_ENV === 'production' && !c.DATA_ENCRYPTION_KEY) {
    throw new ConfigError('Invalid configuration: DATA_ENCRYPTION_KEY is required when NODE_ENV=production');
  }
  if (Boolean(c.VAPID_PUBLIC_KEY) !== Boolean(c.VAPID_PRIVATE_KEY)) {
    throw new ConfigError(
      'Invalid configuration: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together (set both or neither)',
    );
  }
  const apnsSet = [c.APNS_KEY_FILE, c.APNS_KEY_ID, c.APNS_TEAM_ID, c.APNS_TOPIC].filter(Boolean).length;
  if (apnsSet !== 0 && apnsSet !== 4) {
    throw new ConfigError(
      'Invalid configuration: APNS_KEY_FILE, APNS_KEY_ID, APNS_TEAM_ID and APNS_TOPIC go together (set all four or none)',
    );
  }
  if (Boolean(c.TURN_URLS) !== Boolean(c.TURN_SECRET)) {
    throw new ConfigError(
      'Invalid configuration: TURN_URLS and TURN_SECRET go together (set both or neither)',
    );
  }
  if (Boolean(c.STRIPE_SECRET_KEY) !== Boolean(c.STRIPE_WEBHOOK_SECRET)) {
    throw new ConfigError(
      'Invalid configuration: STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET go together (set both or neither)',
    );
  }
  const appName = c.APP_NAME;
  return {
    env: c.NODE_ENV,
    port: c.PORT,
    host: c.HOST,
    appUrl: (c.APP_URL ?? `http://localhost:${c.PORT}`).replace(/\/+$/, ''),
    appName,
    databaseUrl: c.DATABASE_URL,
    dataDir: c.DATA_DIR,
    databasePoolSize: c.DATABASE_POOL_SIZE,
    smtpUrl: c.SMTP_URL,
    mailFrom: c.MAIL_FROM ?? `${appName} <no-reply@localhost>`,
    redisUrl: c.REDIS_URL,
    turnstileSecret: c.TURNSTILE_SECRET,
    turnstileSiteKey: c.TURNSTILE_SITE_KEY,
    logLevel: c.LOG_LEVEL,
    webDist: c.WEB_DIST,
    pageRenderWaitMs: c.PAGE_RENDER_WAIT_MS,
    devMailbox: !c.SMTP_URL && c.NODE_ENV !== 'production',
    devMailboxOpen: c.DEV_MAILBOX_OPEN === 'true',
    trustProxy: (c.TRUST_PROXY && parseTrustProxy(c.TRUST_PROXY)) || false,
    apiDocs: c.API_DOCS ? c.API_DOCS === 'true' : c.NODE_ENV !== 'production',
    dataEncryptionKey: (c.DATA_ENCRYPTION_KEY && keyBytes(c.DATA_ENCRYPTION_KEY)) || DEVELOPMENT_KEY,
    errorReports: c.ERROR_REPORT_DSN ? parseSentryDsn(c.ERROR_REPORT_DSN) : undefined,
    metricsToken: c.METRICS_TOKEN,
    nativeAppOrigins: c.NATIVE_APP_ORIGINS.split(',').map((origin) => origin.trim()),
    vapidKeys:
      c.VAPID_PUBLIC_KEY && c.VAPID_PRIVATE_KEY
        ? { publicKey: c.VAPID_PUBLIC_KEY, privateKey: c.VAPID_PRIVATE_KEY }
        : undefined,
    vapidSubject:
      c.VAPID_SUBJECT ?? `mailto:${c.MAIL_FROM?.match(/[^<\s]+@[^>\s]+/)?.[0] ?? 'push@parley.invalid'}`,
    pushServiceHosts: parseHostPatterns(c.PUSH_SERVICE_HOSTS) ?? [],
    fcm: c.FCM_SERVICE_ACCOUNT_FILE
      ? { serviceAccountFile: c.FCM_SERVICE_ACCOUNT_FILE, apiUrl: c.FCM_API_URL }
      : undefined,
    apns:
      c.APNS_KEY_FILE && c.APNS_KEY_ID && c.APNS_TEAM_ID && c.APNS_TOPIC
        ? {
            keyFile: c.APNS_KEY_FILE,
            keyId: c.APNS_KEY_ID,
            teamId: c.APNS_TEAM_ID,
            topic: c.APNS_TOPIC,
            origin: c.APNS_HOST,
          }
        : undefined,
    stripe:
      c.STRIPE_SECRET_KEY && c.STRIPE_WEBHOOK_SECRET
        ? { secretKey: c.STRIPE_SECRET_KEY, webhookSecret: c.STRIPE_WEBHOOK_SECRET, apiUrl: c.STRIPE_API_URL }
        : undefined,
    billingCatalogFile: c.BILLING_CATALOG_FILE,
    stunUrls: c.STUN_URLS?.split(',') ?? [],
    turn: c.TURN_URLS && c.TURN_SECRET ? { urls: c.TURN_URLS.split(','), secret: c.TURN_SECRET } : undefined,
  };
}
