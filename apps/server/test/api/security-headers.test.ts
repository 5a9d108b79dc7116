import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSP_NONCE_PLACEHOLDER, PERMISSIONS_POLICY } from '../../src/plugins/security-headers';
import { bearer, registeredSchool } from '../factories';
import { createTestApp, type TestApp } from '../test-app';

// A stand-in for the built app: what Vite writes with html.cspNonce (a placeholder on its tags and a meta).
const INDEX = `<!doctype html><html><head>
<meta property="csp-nonce" nonce="${CSP_NONCE_PLACEHOLDER}">
<script type="module" crossorigin src="/assets/index-abc.js" nonce="${CSP_NONCE_PLACEHOLDER}"></script>
<link rel="stylesheet" crossorigin href="/assets/index-abc.css" nonce="${CSP_NONCE_PLACEHOLDER}">
</head><body><div id="root"></div></body></html>`;

function fakeDist(): string {
  const dist = mkdtempSync(join(tmpdir(), 'parley-dist-'));
  writeFileSync(join(dist, 'index.html'), INDEX);
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'assets', 'index-abc.js'), 'export {}');
  return dist;
}

/** The policy as directive → sources. */
function csp(response: LightMyRequestResponse): Map<string, string[]> {
  const header = String(response.headers['content-security-policy'] ?? '');
  return new Map(
    header
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name = '', ...sources]) => [name, sources]),
  );
}

const nonceOf = (response: LightMyRequestResponse) =>
  /'nonce-([^']+)'/.exec(csp(response).get('script-src')?.join(' ') ?? '')?.[1];

function expectCommonHeaders(response: LightMyRequestResponse) {
  expect(response.headers['x-frame-options']).toBe('DENY');
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['permissions-policy']).toBe(PERMISSIONS_POLICY);
  expect(response.headers['permissions-policy']).toContain('camera=(self)');
  expect(response.headers['permissions-policy']).toContain('microphone=(self)');
  expect(csp(response).get('frame-ancestors')).toEqual(["'none'"]);
}

describe('security headers (plain HTTP, no bot check)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { WEB_DIST: fakeDist() } });
  });
  afterAll(() => t.close());

  it('the app page: a strict CSP with a fresh nonce that the served HTML carries, no HSTS', async () => {
    const first = await t.app.inject({ url: '/' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toMatch(/^text\/html/);
    expectCommonHeaders(first);
    expect(first.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(first.headers['strict-transport-security']).toBeUndefined();

    const policy = csp(first);
    const nonce = nonceOf(first);
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/); // 128 bits
    expect(policy.get('default-src')).toEqual(["'self'"]);
    expect(policy.get('script-src')).toEqual(["'self'", `'nonce-${nonce}'`]);
    expect(policy.get('style-src')).toEqual(["'self'", `'nonce-${nonce}'`]);
    expect(policy.get('img-src')).toEqual(["'self'", 'data:']);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'none'"]);
    expect(policy.get('frame-src')).toEqual(["'none'"]);
    expect(policy.has('upgrade-insecure-requests')).toBe(false);
    expect(String(first.headers['content-security-policy'])).not.toContain('unsafe-inline');
    expect(String(first.headers['content-security-policy'])).not.toContain('challenges.cloudflare.com');

    // The nonce of the header is the one on every tag of the page, and the placeholder is gone.
    expect(first.body).not.toContain(CSP_NONCE_PLACEHOLDER);
    expect(first.body.match(/nonce="([^"]+)"/g)).toEqual(Array(3).fill(`nonce="${nonce}"`));

    // Another answer, another nonce.
    const second = await t.app.inject({ url: '/home' });
    const again = nonceOf(second);
    expect(again).toBeTruthy();
    expect(again).not.toBe(nonce);
    expect(second.body).toContain(`nonce="${again}"`);
    expect(second.body).not.toContain(`nonce="${nonce}"`);
    expect((await t.app.inject({ url: '/index.html' })).body).not.toContain(CSP_NONCE_PLACEHOLDER);
  });

  it('a page whose address holds a token (booking link, mailed token) sends no Referer', async () => {
    for (const url of [
      '/book/ptevent/ABC123?link=x.y',
      '/auth/reset-password?token=abc',
      '/accept-teacher-invite?token=abc',
      '/auth/verify-school?utm=1&token=abc',
    ]) {
      const response = await t.app.inject({ url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expectCommonHeaders(response);
      expect(nonceOf(response)).toBeTruthy();
    }
    const plain = await t.app.inject({ url: '/book/ptevent/ABC123?linked=1' });
    expect(plain.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  it('HEAD (curl -I) on an app page answers as GET does, headers and all, without a body', async () => {
    for (const url of ['/', '/book/ptevent/ABC123?link=x.y', '/login']) {
      const head = await t.app.inject({ method: 'HEAD', url });
      expect(head.statusCode, url).toBe(200);
      expect(head.body).toBe('');
      expect(head.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
      expectCommonHeaders(head);
    }
    expect((await t.app.inject({ method: 'HEAD', url: '/api/users/data' })).statusCode).toBe(401);
  });

  it('API answers: nothing may load or frame, on success and on errors', async () => {
    const school = await registeredSchool(t.app, t.db, 'Headers School');
    const ok = await t.app.inject({ url: '/api/users/data', headers: bearer(school.accessToken) });
    const unauthorized = await t.app.inject({ url: '/api/users/data' });
    const missing = await t.app.inject({ url: '/api/no-such-thing' });
    const badJson = await t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      headers: { 'content-type': 'application/json' },
      payload: '{oops',
    });
    expect([ok, unauthorized, missing, badJson].map((r) => r.statusCode)).toEqual([200, 401, 404, 400]);
    for (const response of [ok, unauthorized, missing, badJson]) {
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expectCommonHeaders(response);
    }
  });

  it('files and missing files outside the API get the headers too', async () => {
    const asset = await t.app.inject({ url: '/assets/index-abc.js' });
    expect(asset.statusCode).toBe(200);
    expectCommonHeaders(asset);
    expect(nonceOf(asset)).toBeUndefined(); // a nonce belongs to a page only
    expect(csp(asset).get('script-src')).toEqual(["'self'"]);

    const gone = await t.app.inject({ url: '/assets/gone.js' });
    expect(gone.statusCode).toBe(404);
    expectCommonHeaders(gone);
    expect(gone.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
  });

  it('Swagger UI keeps its own policy for its page, but is never framed', async () => {
    const docs = await t.app.inject({ url: '/api/docs' });
    expect(docs.statusCode).toBe(200);
    expectCommonHeaders(docs);
    const policy = csp(docs);
    expect(policy.get('script-src')).toContain("'self'");
    expect(policy.get('default-src')).toEqual(["'self'"]);
    expect(policy.has('upgrade-insecure-requests')).toBe(false); // plain HTTP here
  });
});

describe('security headers over HTTPS with the bot check', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        WEB_DIST: fakeDist(),
        APP_URL: 'https://parley.example',
        TURNSTILE_SITE_KEY: '1x00000000000000000000AA',
      },
    });
  });
  afterAll(() => t.close());

  it('adds HSTS, upgrades requests and allows the Turnstile script and frame', async () => {
    const page = await t.app.inject({ url: '/auth/login' });
    expect(page.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    const policy = csp(page);
    const nonce = nonceOf(page);
    expect(policy.get('script-src')).toEqual([
      "'self'",
      `'nonce-${nonce}'`,
      'https://challenges.cloudflare.com',
    ]);
    expect(policy.get('frame-src')).toEqual(['https://challenges.cloudflare.com']);
    expect(policy.has('upgrade-insecure-requests')).toBe(true);

    const api = await t.app.inject({ url: '/api/site/config' });
    expect(api.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(api.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
  });
});
