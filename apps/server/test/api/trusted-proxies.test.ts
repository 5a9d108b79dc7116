import { SERVER_TEXT } from '@parley/domain/messages';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_RULES } from '../../src/lib/rate-limiter';
import { PASSWORD, registeredSchool } from '../factories';
import { createTestApp, type TestApp } from '../test-app';

// Issue 35, finding 2: X-Forwarded-For is believed from the proxies TRUST_PROXY names and nobody else,
// and the gates that guard the machine itself (metrics, dev mailbox) read the socket, never the header.

const FORGED = { 'x-forwarded-for': '127.0.0.1' };
const MACHINE_GATES = ['/api/metrics', '/api/dev/mailbox'];

const expectLimited = (response: LightMyRequestResponse) => {
  expect(response.statusCode).toBe(429);
  expect(response.json()).toEqual({ message: SERVER_TEXT.rateLimited });
};

describe('believing no proxy (the default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('a client on the private network with a forged X-Forwarded-For: 127.0.0.1 is not this machine', async () => {
    for (const remoteAddress of ['10.1.2.3', '172.16.0.9', '192.168.1.20', 'fd00::7', '169.254.0.3'])
      for (const url of MACHINE_GATES) {
        const response = await t.app.inject({ url, remoteAddress, headers: FORGED });
        expect([403, 404], `${remoteAddress} ${url}`).toContain(response.statusCode);
        expect(response.body).not.toContain('parley_');
        expect(response.body).not.toContain('items');
      }
  });

  it('a request a proxy on this machine relayed is not this machine either (its peer is loopback)', async () => {
    for (const headers of [
      { 'x-forwarded-for': '203.0.113.9' },
      { forwarded: 'for=203.0.113.9' },
      { 'x-real-ip': '203.0.113.9' },
    ])
      for (const url of MACHINE_GATES) {
        const response = await t.app.inject({ url, remoteAddress: '127.0.0.1', headers });
        expect([403, 404], `${JSON.stringify(headers)} ${url}`).toContain(response.statusCode);
      }
    // A scraper beside the server, asking directly, is.
    for (const url of MACHINE_GATES)
      expect((await t.app.inject({ url, remoteAddress: '127.0.0.1' })).statusCode, url).toBe(200);
  });

  it('counts each client by its own address whatever it writes in X-Forwarded-For', async () => {
    const client = '10.20.30.40';
    const search = (forwardedFor: string) =>
      t.app.inject({
        url: '/api/users/search-email-for-signup?q=someone@example.org',
        remoteAddress: client,
        headers: { 'x-forwarded-for': forwardedFor },
      });
    for (let i = 0; i < RATE_RULES.emailSearchPerIp.max; i++)
      expect((await search(`203.0.113.${i}`)).statusCode).toBe(200);
    expectLimited(await search('198.51.100.1'));
  });
});

describe('believing the proxies TRUST_PROXY names', () => {
  let t: TestApp;
  const proxy = '10.0.0.5';
  beforeAll(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: `${proxy},127.0.0.1` } });
  });
  afterAll(() => t.close());

  const search = (remoteAddress: string, forwardedFor?: string) =>
    t.app.inject({
      url: '/api/users/search-email-for-signup?q=someone@example.org',
      remoteAddress,
      ...(forwardedFor && { headers: { 'x-forwarded-for': forwardedFor } }),
    });

  it('counts each client by the address the proxy saw, not what the client put in front', async () => {
    const clientA = '198.51.100.21';
    for (let i = 0; i < RATE_RULES.emailSearchPerIp.max; i++)
      expect((await search(proxy, `10.9.9.${i}, ${clientA}`)).statusCode).toBe(200);
    expectLimited(await search(proxy, clientA));
    expect((await search(proxy, '198.51.100.22')).statusCode).toBe(200); // client B, same proxy
  });

  it('another machine on the same network is not a proxy: its header is ignored', async () => {
    const neighbour = '10.0.0.6';
    for (let i = 0; i < RATE_RULES.emailSearchPerIp.max; i++)
      expect((await search(neighbour, `203.0.113.${i}`)).statusCode).toBe(200);
    expectLimited(await search(neighbour, '203.0.113.200'));
    for (const url of MACHINE_GATES) {
      const response = await t.app.inject({ url, remoteAddress: neighbour, headers: FORGED });
      expect([403, 404], url).toContain(response.statusCode);
    }
  });

  it('the machine gates still refuse what the trusted proxy relays, even "from" 127.0.0.1', async () => {
    for (const url of MACHINE_GATES) {
      const response = await t.app.inject({ url, remoteAddress: proxy, headers: FORGED });
      expect([403, 404], url).toContain(response.statusCode);
      const local = await t.app.inject({ url, remoteAddress: '127.0.0.1', headers: FORGED });
      expect([403, 404], url).toContain(local.statusCode);
    }
  });

  it('a forwarded value that is no address is not stored: the session shows the proxy', async () => {
    const school = await registeredSchool(t.app, t.db);
    const signedIn = await t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      remoteAddress: proxy,
      headers: { 'x-forwarded-for': '=1+2' },
      payload: { email: school.email, password: PASSWORD },
    });
    expect(signedIn.statusCode).toBe(200);
    const sessions = await t.app.inject({
      url: '/api/user/sessions',
      headers: { authorization: `Bearer ${signedIn.json().accessToken}` },
    });
    const current = (sessions.json() as { items: Array<{ ip: string; current: boolean }> }).items.find(
      (item) => item.current,
    );
    expect(current?.ip).toBe(proxy);
  });
});

describe('the API docs', () => {
  it('are not served when API_DOCS=false (production’s default), and the API still is', async () => {
    const t = await createTestApp({ env: { API_DOCS: 'false' } });
    try {
      for (const url of ['/api/docs', '/api/docs/json', '/api/docs/static/index.html'])
        expect((await t.app.inject({ url })).statusCode, url).toBe(404);
      expect((await t.app.inject({ url: '/api/site/config' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
