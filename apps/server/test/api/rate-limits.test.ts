import { SERVER_TEXT } from '@parley/domain/messages';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_BACKOFF, MAIL_BACKOFF, RATE_RULES } from '../../src/lib/rate-limiter';
import { invite, PASSWORD, registeredSchool, uniqueEmail, uniqueIp } from '../factories';
import { mailCount } from '../mailbox';
import { createTestApp, type TestApp } from '../test-app';

const limited = { message: 'Too many attempts. Please wait a moment and try again.' };

/** A 429 with the usual text and a Retry-After of whole seconds; answers the seconds. */
function expectLimited(response: LightMyRequestResponse): number {
  expect(response.statusCode).toBe(429);
  expect(response.json()).toEqual(limited);
  expect(response.json()).toEqual({ message: SERVER_TEXT.rateLimited });
  expect(response.headers['retry-after']).toMatch(/^[1-9]\d*$/);
  return Number(response.headers['retry-after']);
}

const MAIL_ENDPOINTS = [
  '/api/user/request-password-reset',
  '/api/user/resend-invitation',
  '/api/site/resend-school-verification',
];

// The login rules have their own file (login-throttling.test.ts), the mail-bombing ones too
// (mail-requests.test.ts); here: the numbers, and the per-address ceilings of the other endpoints.
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

  it('the limits are the ones of decision 010 (login, reset, resend) and 005 (signup, email search)', () => {
    const MINUTE = 60_000;
    const HOUR = 60 * MINUTE;
    expect(RATE_RULES).toMatchObject({
      loginPerIp: { max: 1000, windowMs: 15 * MINUTE },
      loginFailuresPerIp: { max: 200, windowMs: 15 * MINUTE },
      loginFailuresPerPair: { max: 5, windowMs: 15 * MINUTE },
      loginKnownAddress: { windowMs: 30 * 24 * HOUR },
      signupPerIp: { max: 10, windowMs: HOUR },
      mailPerIp: { max: 100, windowMs: HOUR },
      emailSearchPerIp: { max: 60, windowMs: MINUTE },
    });
    expect(LOGIN_BACKOFF).toMatchObject({
      free: 10,
      firstDelayMs: 1000,
      maxDelayMs: 5 * MINUTE,
      idleMs: 15 * MINUTE,
    });
    expect(MAIL_BACKOFF).toMatchObject({
      free: 3,
      firstDelayMs: MINUTE,
      maxDelayMs: HOUR,
      idleMs: 24 * HOUR,
    });
  });

  it('signup per IP: the 11th signup from one address in an hour is refused until the hour ends; another address is not', async () => {
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
    const retryAfter = expectLimited(await post('/api/site/signup', refused, ip));
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await t.db.selectFrom('users').where('email', '=', refused.email).select('id').execute()).toEqual(
      [],
    );
    expect((await post('/api/site/signup', body(), uniqueIp())).statusCode).toBe(200);
  });

  describe('mail-sending endpoints (reset, resend invitation, resend verification)', () => {
    it.each(MAIL_ENDPOINTS)(
      'per IP on %s: the 101st request from one address in an hour is refused; another address is not',
      async (url) => {
        const ip = uniqueIp();
        for (let i = 0; i < RATE_RULES.mailPerIp.max; i++) {
          expect((await post(url, { email: uniqueEmail('flood') }, ip)).statusCode).toBe(200);
        }
        const retryAfter = expectLimited(await post(url, { email: uniqueEmail('flood') }, ip));
        expect(retryAfter).toBeGreaterThan(3500);
        expect(retryAfter).toBeLessThanOrEqual(3600);
        // The ceiling is the address's, whichever endpoint.
        for (const other of MAIL_ENDPOINTS) expectLimited(await post(other, { email: uniqueEmail('f') }, ip));
        expect((await post(url, { email: uniqueEmail('flood') }, uniqueIp())).statusCode).toBe(200);
      },
    );

    it('per email: past 3 requests at once, whichever endpoint, the same 200 answer but no more mail', async () => {
      const invited = await invite(t, school.schoolId, { role: 'teacher' });
      const before = await mailCount(t.db, invited.email);
      const answers = new Set<string>();
      for (let i = 0; i < 12; i++) {
        const url = MAIL_ENDPOINTS[i % MAIL_ENDPOINTS.length] ?? '';
        const response = await post(url, { email: invited.email }, uniqueIp());
        expect(response.statusCode).toBe(200);
        answers.add(`${url} ${response.body}`);
      }
      expect(answers.size).toBe(MAIL_ENDPOINTS.length); // one answer per endpoint, limited or not
      // Of the 3 let through, the reset and the invitation resend mailed; the school one has nothing to send
      // to a teacher. (mail-requests.test.ts follows a flood over a day.)
      expect(await mailCount(t.db, invited.email)).toBe(before + 2);
      // Another email is not affected.
      const other = await registeredSchool(t.app, t.db);
      const otherBefore = await mailCount(t.db, other.email);
      expect((await post(MAIL_ENDPOINTS[0] ?? '', { email: other.email }, uniqueIp())).statusCode).toBe(200);
      expect(await mailCount(t.db, other.email)).toBe(otherBefore + 1);
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
    expect(expectLimited(await search(ip))).toBeLessThanOrEqual(60);
    expect((await search(uniqueIp())).statusCode).toBe(200);
  });
});
