import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './config';

/** parseConfig's error for env, which must be a ConfigError. */
function failure(env: Record<string, string | undefined>): ConfigError {
  try {
    parseConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`expected parseConfig(${JSON.stringify(env)}) to throw`);
}

describe('parseConfig', () => {
  it('has working defaults: port 3000, local app URL, embedded database, dev mailbox on', () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      env: 'development',
      port: 3000,
      host: '0.0.0.0',
      appUrl: 'http://localhost:3000',
      appName: 'Parley',
      databaseUrl: undefined,
      dataDir: './data',
      databasePoolSize: 5,
      smtpUrl: undefined,
      mailFrom: 'Parley <no-reply@localhost>',
      redisUrl: undefined,
      turnstileSecret: undefined,
      logLevel: 'info',
      devMailbox: true,
      devMailboxOpen: false,
      trustProxy: false,
      apiDocs: true,
    });
  });

  it('believes no proxy unless TRUST_PROXY names them: addresses, CIDRs and named ranges, no hop count', () => {
    expect(failure({ TRUST_PROXY: '1' }).message).toContain('TRUST_PROXY takes no hop count');
    expect(parseConfig({ TRUST_PROXY: '10.0.0.5, 172.18.0.0/16,::1,fd00::/8' }).trustProxy).toEqual([
      '10.0.0.5',
      '172.18.0.0/16',
      '::1',
      'fd00::/8',
    ]);
    expect(parseConfig({ TRUST_PROXY: 'loopback' }).trustProxy).toEqual(['loopback']);
  });

  it('serves the API docs outside production, and in production only when API_DOCS=true', () => {
    const key = Buffer.alloc(32, 7).toString('base64');
    const production = { NODE_ENV: 'production', SMTP_URL: 'smtp://mail:25', DATA_ENCRYPTION_KEY: key };
    expect(parseConfig(production).apiDocs).toBe(false);
    expect(parseConfig({ ...production, API_DOCS: 'true' }).apiDocs).toBe(true);
    expect(parseConfig({ API_DOCS: 'false' }).apiDocs).toBe(false);
  });

  it('reads every variable', () => {
    const config = parseConfig({
      NODE_ENV: 'production',
      PORT: '8080',
      HOST: '127.0.0.1',
      APP_URL: 'https://parley.example.org///',
      APP_NAME: 'Evenings',
      DATABASE_URL: 'postgresql://u:p@db:5432/parley',
      DATA_DIR: '/var/lib/parley',
      DATABASE_POOL_SIZE: '6',
      SMTP_URL: 'smtps://u:p@mail.example.org:465',
      MAIL_FROM: 'School <school@example.org>',
      REDIS_URL: 'redis://cache:6379',
      TURNSTILE_SECRET: 'secret',
      TURNSTILE_SITE_KEY: 'site-key',
      LOG_LEVEL: 'warn',
      WEB_DIST: '/srv/web',
      PAGE_RENDER_WAIT_MS: '250',
      DEV_MAILBOX_OPEN: 'true',
      TRUST_PROXY: '10.0.0.5',
      API_DOCS: 'true',
      DATA_ENCRYPTION_KEY: 'ab'.repeat(32),
      NATIVE_APP_ORIGINS: 'capacitor://localhost, https://app.example.org',
      ERROR_REPORT_DSN: 'https://public-key@errors.example.org/7',
      METRICS_TOKEN: 'a-long-enough-metrics-token',
      STRIPE_SECRET_KEY: 'sk_test_abc123',
      STRIPE_WEBHOOK_SECRET: 'whsec_abc123',
      STRIPE_API_URL: 'http://127.0.0.1:12111',
      BILLING_CATALOG_FILE: '/etc/parley/catalog.json',
      PUSH_SERVICE_HOSTS: 'push.example.org, *.Push.Example.NET',
      STUN_URLS: 'stun:stun.example.org:3478',
      TURN_URLS: 'turns:turn.example.org:5349',
      TURN_SECRET: 'a-long-shared-turn-secret',
    });
    expect(config).toEqual({
      env: 'production',
      port: 8080,
      host: '127.0.0.1',
      appUrl: 'https://parley.example.org',
      appName: 'Evenings',
      databaseUrl: 'postgresql://u:p@db:5432/parley',
      dataDir: '/var/lib/parley',
      databasePoolSize: 6,
      smtpUrl: 'smtps://u:p@mail.example.org:465',
      mailFrom: 'School <school@example.org>',
      redisUrl: 'redis://cache:6379',
      turnstileSecret: 'secret',
      turnstileSiteKey: 'site-key',
      logLevel: 'warn',
      webDist: '/srv/web',
      pageRenderWaitMs: 250,
      devMailbox: false,
      devMailboxOpen: true,
      trustProxy: ['10.0.0.5'],
      apiDocs: true,
      dataEncryptionKey: Buffer.alloc(32, 0xab),
      vapidKeys: undefined,
      vapidSubject: 'mailto:school@example.org',
      pushServiceHosts: [
        { suffix: false, host: 'push.example.org' },
        { suffix: true, host: 'push.example.net' },
      ],
      nativeAppOrigins: ['capacitor://localhost', 'https://app.example.org'],
      errorReports: {
        dsn: 'https://public-key@errors.example.org/7',
        publicKey: 'public-key',
        envelopeUrl: 'https://errors.example.org/api/7/envelope/',
      },
      metricsToken: 'a-long-enough-metrics-token',
      stripe: {
        secretKey: 'sk_test_abc123',
        webhookSecret: 'whsec_abc123',
        apiUrl: 'http://127.0.0.1:12111',
      },
      billingCatalogFile: '/etc/parley/catalog.json',
      stunUrls: ['stun:stun.example.org:3478'],
      turn: { urls: ['turns:turn.example.org:5349'], secret: 'a-long-shared-turn-secret' },
    });
  });

  it('takes VAPID keys in pairs and names a bad one', () => {
    const publicKey = `B${'a'.repeat(86)}`;
    const privateKey = 'k'.repeat(43);
    expect(
      parseConfig({
        VAPID_PUBLIC_KEY: publicKey,
        VAPID_PRIVATE_KEY: privateKey,
        VAPID_SUBJECT: 'https://x.org',
      }),
    ).toMatchObject({ vapidKeys: { publicKey, privateKey }, vapidSubject: 'https://x.org' });
    expect(() => parseConfig({ VAPID_PUBLIC_KEY: publicKey })).toThrow(
      /VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY/,
    );
    expect(() => parseConfig({ VAPID_PUBLIC_KEY: 'short', VAPID_PRIVATE_KEY: privateKey })).toThrow(
      /^Invalid configuration: VAPID_PUBLIC_KEY must be/,
    );
    expect(() => parseConfig({ VAPID_SUBJECT: 'http://x.org' })).toThrow(/VAPID_SUBJECT must be/);
  });

  it('takes STUN, and TURN with its secret, for video calls; names a bad one', () => {
    expect(parseConfig({})).toMatchObject({ stunUrls: [], turn: undefined });
    expect(
      parseConfig({
        STUN_URLS: 'stun:a.example:3478,stun:b.example',
        TURN_URLS: 'turn:t.example:3478?transport=udp,turns:t.example:5349',
        TURN_SECRET: 'a-shared-secret-of-some-length',
      }),
    ).toMatchObject({
      stunUrls: ['stun:a.example:3478', 'stun:b.example'],
      turn: {
        urls: ['turn:t.example:3478?transport=udp', 'turns:t.example:5349'],
        secret: 'a-shared-secret-of-some-length',
      },
    });
    expect(() => parseConfig({ TURN_URLS: 'turn:t.example' })).toThrow(
      /TURN_URLS and TURN_SECRET go together/,
    );
    expect(() => parseConfig({ TURN_URLS: 'http://t.example', TURN_SECRET: 'x'.repeat(20) })).toThrow(
      /TURN_URLS must be/,
    );
    expect(() => parseConfig({ STUN_URLS: 'turn:t.example' })).toThrow(/STUN_URLS must be/);
    expect(() => parseConfig({ TURN_URLS: 'turn:t.example', TURN_SECRET: 'short' })).toThrow(/TURN_SECRET/);
  });

  it('allows the browsers’ push services by default, and names a bad PUSH_SERVICE_HOSTS', () => {
    expect(parseConfig({}).pushServiceHosts).toEqual([
      { suffix: false, host: 'fcm.googleapis.com' },
      { suffix: true, host: 'push.services.mozilla.com' },
      { suffix: true, host: 'notify.windows.com' },
      { suffix: false, host: 'web.push.apple.com' },
      { suffix: true, host: 'push.apple.com' },
    ]);
    expect(parseConfig({ PUSH_SERVICE_HOSTS: '' }).pushServiceHosts).toHaveLength(5);
    for (const bad of [
      '127.0.0.1',
      'localhost',
      '*.com',
      'https://fcm.googleapis.com',
      'a b.org',
      '*',
      ' , ',
    ]) {
      expect(failure({ PUSH_SERVICE_HOSTS: bad }).message, bad).toMatch(
        /^Invalid configuration: PUSH_SERVICE_HOSTS must be host names or \*\.domain/,
      );
    }
  });

  it('treats an empty variable as not set', () => {
    const config = parseConfig({ PORT: '', DATABASE_URL: '', SMTP_URL: '', APP_NAME: '' });
    expect(config).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
      smtpUrl: undefined,
      appName: 'Parley',
    });
  });

  it('the app URL follows PORT when APP_URL is not set', () => {
    expect(parseConfig({ PORT: '4100' }).appUrl).toBe('http://localhost:4100');
  });

  it('turns the dev mailbox off with SMTP_URL, and never has it in production', () => {
    expect(parseConfig({ SMTP_URL: 'smtp://localhost:1025' }).devMailbox).toBe(false);
    expect(parseConfig({ NODE_ENV: 'test' }).devMailbox).toBe(true);
    const key = Buffer.alloc(32, 7).toString('base64');
    const production = { NODE_ENV: 'production', SMTP_URL: 'smtp://mail:25', DATA_ENCRYPTION_KEY: key };
    expect(parseConfig(production).devMailbox).toBe(false);
  });

  it.each<[string, Record<string, string>]>([
    ['PORT', { PORT: 'eighty' }],
    ['PORT', { PORT: '70000' }],
    ['PORT', { PORT: '0' }],
    ['PORT', { PORT: '80.5' }],
    ['NODE_ENV', { NODE_ENV: 'staging' }],
    ['APP_URL', { APP_URL: 'parley.example.org' }],
    ['APP_URL', { APP_URL: 'ftp://parley.example.org' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://db/parley' }],
    ['DATABASE_URL', { DATABASE_URL: 'not a url' }],
    ['DATABASE_POOL_SIZE', { DATABASE_POOL_SIZE: '1' }],
    ['DATABASE_POOL_SIZE', { DATABASE_POOL_SIZE: 'ten' }],
    ['SMTP_URL', { SMTP_URL: 'http://mail.example.org' }],
    ['REDIS_URL', { REDIS_URL: 'cache:6379' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'verbose' }],
    ['APP_NAME', { APP_NAME: 'x'.repeat(41) }],
    ['MAIL_FROM', { MAIL_FROM: 'ab' }],
    ['DATA_ENCRYPTION_KEY', { DATA_ENCRYPTION_KEY: 'too short' }],
    ['DATA_ENCRYPTION_KEY', { DATA_ENCRYPTION_KEY: Buffer.alloc(16).toString('base64') }],
    ['ERROR_REPORT_DSN', { ERROR_REPORT_DSN: 'https://errors.example.org/7' }],
    ['ERROR_REPORT_DSN', { ERROR_REPORT_DSN: 'https://key@errors.example.org/' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'true' }],
    ['TRUST_PROXY', { TRUST_PROXY: '2' }],
    ['TRUST_PROXY', { TRUST_PROXY: '10.0.0.0/33' }],
    ['TRUST_PROXY', { TRUST_PROXY: '10.0.0.0/8/8' }],
    ['TRUST_PROXY', { TRUST_PROXY: '10.0.0.5,' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'proxy.internal' }],
    ['API_DOCS', { API_DOCS: 'yes' }],
  ])('a bad %s throws a ConfigError with one line naming it', (variable, env) => {
    const error = failure(env);
    expect(error.message).toMatch(new RegExp(`^Invalid configuration: ${variable} \\S`));
    expect(error.message).not.toContain('\n');
    expect(error.message.length).toBeLessThan(200);
  });

  it('refuses production without SMTP_URL, naming SMTP_URL', () => {
    const error = failure({ NODE_ENV: 'production' });
    expect(error.message).toBe('Invalid configuration: SMTP_URL is required when NODE_ENV=production');
  });

  it('refuses production without DATA_ENCRYPTION_KEY, and reads hex, base64 and base64url keys', () => {
    const error = failure({ NODE_ENV: 'production', SMTP_URL: 'smtp://mail:25' });
    expect(error.message).toBe(
      'Invalid configuration: DATA_ENCRYPTION_KEY is required when NODE_ENV=production',
    );
    const bytes = Buffer.from(Array.from({ length: 32 }, (_, i) => 250 - i));
    for (const text of [bytes.toString('hex'), bytes.toString('base64'), bytes.toString('base64url')])
      expect(parseConfig({ DATA_ENCRYPTION_KEY: text }).dataEncryptionKey).toEqual(bytes);
    // Without one, outside production: a fixed development key, not a random one (restarts keep working).
    expect(parseConfig({}).dataEncryptionKey).toEqual(parseConfig({}).dataEncryptionKey);
    expect(parseConfig({}).dataEncryptionKey).toHaveLength(32);
  });

  it('does not echo a secret from a bad URL back into the message', () => {
    const error = failure({ DATABASE_URL: 'mysql://admin:hunter2@db/parley' });
    expect(error.message).not.toContain('hunter2');
  });
});
