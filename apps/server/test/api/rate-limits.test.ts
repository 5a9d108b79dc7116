import { SERVER_TEXT } from '@parley/domain/messages';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_RULES } from '../../src/lib/rate-limiter';
import { invite, PASSWORD, registeredSchool, uniqueEmail, uniqueIp } from '../factories';
import { createTestApp, type TestApp } from '../test-app';

const limited = { message: 'Too many attempts. Please wait a moment and try again.' };

function expectLimited(response: LightMyRequestResponse) {
  expect(response.statusCode).toBe(429);
  expect(response.json()).toEqual(limited);
  expect(response.json()).toEqual({ message: SERVER_TEXT.rateLimited });
}

describe('rate limits', () => {
  let t: TestApp;
  let school: Awaited<ReturnType<typeof registeredSchool>>;
  beforeAll(async () => {
    t = await createTestApp();
    school = await registeredSchool(t.app, t.db, 'Limits School');
  });
  afterAll(() => t.close());

  const post = (url: string, payload: Record<string, unknown>, remoteAddress: string) =>
    t.app.inject({ method: 'POST', url, payload, remoteAddress });
  const login = (email: string, remoteAddress: string, password = 'wrong password') =>
    post('/api/user/login', { email, password }, remoteAddress);

  it('the limits are the ones agreed in issue 2', () => {
    expect(RATE_RULES).toMatchObject({
      loginPerIp: { max: 30, windowMs: 15 * 60_000 },
      loginPerEmail: { max: 10, windowMs: 15 * 60_000 },
      signupPerIp: { max: 10, windowMs: 3600_000 },
      mailPerIp: { max: 20, windowMs: 3600_000 },
      mailPerEmail: { max: 5, windowMs: 3600_000 },
      emailSearchPerIp: { max: 60, windowMs: 60_000 },
    });
  });

  describe('login', () => {
    it('per email: the 11th attempt in the window is refused from any address, even with the right password', async () => {
      const { email } = await registeredSchool(t.app, t.db); // one successful login already counted
      for (let i = 0; i < RATE_RULES.loginPerEmail.max - 1; i++) {
        expect((await login(email, uniqueIp())).statusCode).toBe(422);
      }
      expectLimited(await login(email, uniqueIp(), PASSWORD));
      expectLimited(await login(email.toUpperCase(), uniqueIp(), PASSWORD));
      // Another account is not affected.
      expect((await login(school.email, uniqueIp(), PASSWORD)).statusCode).toBe(200);
    });

    it('per IP: the 31st attempt from one address is refused; another address is not blocked', async () => {
      const ip = uniqueIp();
      for (let i = 0; i < RATE_RULES.loginPerIp.max; i++) {
        expect((await login(uniqueEmail('spray'), ip)).statusCode).toBe(422);
      }
      expectLimited(await login(uniqueEmail('spray'), ip));
      expectLimited(await login(school.email, ip, PASSWORD));
      expect((await login(school.email, uniqueIp(), PASSWORD)).statusCode).toBe(200);
    });
  });

  it('signup per IP: the 11th signup from one address in an hour is refused; another address is not', async () => {
    const ip = uniqueIp();
    const body = () => ({
      subscriberName: 'Busy School',
      firstName: 'Ann',
      lastName: 'Bee',
      email: uniqueEmail('busy'),
      password: PASSWORD,
    });
    for (let i = 0; i < RATE_RULES.signupPerIp.max; i++) {
      expect((await post('/api/site/signup', body(), ip)).statusCode).toBe(200);
    }
    const refused = body();
    expectLimited(await post('/api/site/signup', refused, ip));
    expect(await t.db.selectFrom('users').where('email', '=', refused.email).select('id').execute()).toEqual(
      [],
    );
    expect((await post('/api/site/signup', body(), uniqueIp())).statusCode).toBe(200);
  });

  describe('mail-sending endpoints (reset, resend invitation, resend verification)', () => {
    it('per email: the 6th request for one address in an hour is refused, whichever endpoint', async () => {
      const invited = await invite(t, school.schoolId, { role: 'teacher' });
      const endpoints = [
        '/api/user/request-password-reset',
        '/api/user/resend-invitation',
        '/api/site/resend-school-verification',
      ];
      for (let i = 0; i < RATE_RULES.mailPerEmail.max; i++) {
        const url = endpoints[i % endpoints.length] ?? '';
        expect((await post(url, { email: invited.email }, uniqueIp())).statusCode).toBe(200);
      }
      for (const url of endpoints) expectLimited(await post(url, { email: invited.email }, uniqueIp()));
      expect((await post(endpoints[0] ?? '', { email: uniqueEmail('other') }, uniqueIp())).statusCode).toBe(
        200,
      );
    });

    it.each([
      '/api/user/request-password-reset',
      '/api/user/resend-invitation',
      '/api/site/resend-school-verification',
    ])('per IP on %s: the 21st request from one address is refused; another address is not', async (url) => {
      const ip = uniqueIp();
      for (let i = 0; i < RATE_RULES.mailPerIp.max; i++) {
        expect((await post(url, { email: uniqueEmail('flood') }, ip)).statusCode).toBe(200);
      }
      expectLimited(await post(url, { email: uniqueEmail('flood') }, ip));
      expect((await post(url, { email: uniqueEmail('flood') }, uniqueIp())).statusCode).toBe(200);
    });

    it('a limited reset request sends no mail', async () => {
      const { email } = await registeredSchool(t.app, t.db);
      for (let i = 0; i < RATE_RULES.mailPerEmail.max; i++) {
        await post('/api/user/request-password-reset', { email }, uniqueIp());
      }
      const before = await t.db
        .selectFrom('mail_outbox')
        .select('id')
        .where('to_address', '=', email)
        .execute();
      expectLimited(await post('/api/user/request-password-reset', { email }, uniqueIp()));
      const after = await t.db
        .selectFrom('mail_outbox')
        .select('id')
        .where('to_address', '=', email)
        .execute();
      expect(after).toHaveLength(before.length);
    });
  });

  describe('the client address behind X-Forwarded-For', () => {
    const search = (remoteAddress: string, forwardedFor?: string) =>
      t.app.inject({
        method: 'GET',
        url: '/api/users/search-email-for-signup?q=someone@example.org',
        remoteAddress,
        ...(forwardedFor && { headers: { 'x-forwarded-for': forwardedFor } }),
      });

    it('a directly connected client cannot dodge its per-IP limit with a made-up X-Forwarded-For', async () => {
      const client = '198.51.100.7';
      for (let i = 0; i < RATE_RULES.emailSearchPerIp.max; i++) {
        expect((await search(client, `203.0.113.${i}`)).statusCode).toBe(200);
      }
      expectLimited(await search(client, '203.0.113.250'));
      // The made-up address was never counted: it is not blocked.
      expect((await search('203.0.113.1')).statusCode).toBe(200);
    });

    it('behind a local reverse proxy each client is counted by the address the proxy saw', async () => {
      const proxy = '127.0.0.1';
      const clientA = '198.51.100.21';
      for (let i = 0; i < RATE_RULES.emailSearchPerIp.max; i++) {
        // Whatever client A puts in front, the proxy appends the address it really saw.
        expect((await search(proxy, `10.9.9.${i}, ${clientA}`)).statusCode).toBe(200);
      }
      expectLimited(await search(proxy, clientA));
      expect((await search(proxy, '198.51.100.22')).statusCode).toBe(200); // client B, same proxy
    });
  });

  it('email search for signup: the 61st search in a minute from one address is refused; another is not', async () => {
    const ip = uniqueIp();
    const search = (remoteAddress: string) =>
      t.app.inject({
        method: 'GET',
        url: '/api/users/search-email-for-signup?q=someone@example.org',
        remoteAddress,
      });
    for (let i = 0; i < RATE_RULES.emailSearchPerIp.max; i++) expect((await search(ip)).statusCode).toBe(200);
    expectLimited(await search(ip));
    expect((await search(uniqueIp())).statusCode).toBe(200);
  });
});
