import { SERVER_TEXT } from '@parley/domain/messages';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BotCheck } from '../../src/lib/bot-check';
import { RATE_RULES } from '../../src/lib/rate-limiter';
import { enableTwoFactor } from '../accounts/two-factor-helpers';
import { clockPerTest } from '../clock-per-test';
import { bearer, PASSWORD, registeredSchool, signedUpSchool, uniqueEmail, uniqueIp } from '../factories';
import { createTestApp, type TestApp } from '../test-app';

// Decision 032: OWASP's device cookie. A browser that has signed in to a login is not locked out by others'
// failures at its address; only its own failures count, and only for that login.

const WRONG = 'not the password';
const HUMAN = 'solved-by-a-human';

function expectLimited(response: LightMyRequestResponse): void {
  expect(response.statusCode).toBe(429);
  expect(response.json()).toEqual({ message: SERVER_TEXT.rateLimited });
}

/** Runs the tasks `width` at a time (2 cores: argon2 in parallel, not 200 at once). */
async function inBatches<T>(tasks: Array<() => Promise<T>>, width = 10): Promise<T[]> {
  const results: T[] = [];
  for (let i = 0; i < tasks.length; i += width) {
    results.push(...(await Promise.all(tasks.slice(i, i + width).map((task) => task()))));
  }
  return results;
}

/** The `name=value` of the device cookie a response set, for the next request's Cookie header. */
function deviceCookieOf(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name.startsWith('parley-device-'));
  if (!cookie) throw new Error(`no device cookie in ${JSON.stringify(response.headers['set-cookie'])}`);
  return `${cookie.name}=${cookie.value}`;
}

/**
 * An app whose rate limits run on each test's own clock (clockPerTest), which the test moves, and whose
 * store the test can fill.
 */
async function clockedApp(clock: ReturnType<typeof clockPerTest>, options: { botCheck?: BotCheck } = {}) {
  const store = clock.store;
  const t = await createTestApp({ rateLimitStore: store, ...options });
  const login = (
    email: string,
    password: string,
    remoteAddress: string,
    extra: { cookie?: string; botCheckToken?: string } = {},
  ) =>
    t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      remoteAddress,
      headers: extra.cookie ? { cookie: extra.cookie } : {},
      payload: { email, password, ...(extra.botCheckToken && { botCheckToken: extra.botCheckToken }) },
    });
  /** An address's wrong passwords, counted straight into the store (the real ones are tested once). */
  const failFrom = async (ip: string, times: number) => {
    const rule = RATE_RULES.loginFailuresPerIp;
    for (let i = 0; i < times; i++) await store.hit(`${rule.name}:${ip}`, rule.windowMs);
  };
  return { t, login, failFrom };
}

describe('device cookies at a shared address', () => {
  const clock = clockPerTest();
  let app: Awaited<ReturnType<typeof clockedApp>>;
  let t: TestApp;
  let login: (typeof app)['login'];
  beforeAll(async () => {
    app = await clockedApp(clock);
    ({ t, login } = app);
  });
  afterAll(() => t.close());

  const person = async () => (await registeredSchool(t.app, t.db, 'Shared Address School')).email;
  /** A person who has signed in on this browser before (from home), and the cookie it was given. */
  const personWithDevice = async () => {
    const email = await person();
    const first = await login(email, PASSWORD, uniqueIp());
    expect(first.statusCode).toBe(200);
    return { email, cookie: deviceCookieOf(first) };
  };

  it('a sign-in gives a long-lived HttpOnly, SameSite=Strict cookie sent to the sign-in route alone', async () => {
    const email = await person();
    const response = await login(email, PASSWORD, uniqueIp());
    const cookie = response.cookies.find((c) => c.name.startsWith('parley-device-'));
    expect(cookie).toMatchObject({ path: '/api/user/login', maxAge: 365 * 24 * 3600, httpOnly: true });
    expect(cookie?.sameSite).toBe('Strict');
    expect(cookie?.value).not.toContain(email);
    // No session credential: a signed-in route does not know the cookie.
    const asCookie = await t.app.inject({
      method: 'GET',
      url: '/api/users/data',
      headers: { cookie: deviceCookieOf(response) },
    });
    expect(asCookie.statusCode).toBe(401);
    // A failed sign-in gives none.
    expect((await login(email, WRONG, uniqueIp())).cookies).toEqual([]);
  });

  it('200 wrong passwords from one address: the person with a device cookie signs in from it at once; others wait', async () => {
    const { email, cookie } = await personWithDevice();
    const other = await person();
    const school = uniqueIp();
    const answers = await inBatches(
      Array.from(
        { length: RATE_RULES.loginFailuresPerIp.max },
        () => () => login(uniqueEmail('x'), WRONG, school),
      ),
    );
    expect(answers.every((r) => r.statusCode === 422)).toBe(true);
    expectLimited(await login(other, PASSWORD, school)); // without a cookie the address is still limited
    expectLimited(await login(email, PASSWORD, school));
    const signedIn = await login(email, PASSWORD, school, { cookie });
    expect(signedIn.statusCode).toBe(200);
    // Its own mistakes do not count against the address either, nor are held by it.
    expect((await login(email, WRONG, school, { cookie })).statusCode).toBe(422);
    expect((await login(email, PASSWORD, school, { cookie })).statusCode).toBe(200);
  }, 60_000);

  it("a device cookie for one login does not help another's sign-in", async () => {
    const a = await personWithDevice();
    const b = await person();
    const school = uniqueIp();
    await app.failFrom(school, RATE_RULES.loginFailuresPerIp.max);
    expectLimited(await login(b, PASSWORD, school, { cookie: a.cookie }));
    // Nor can it be pointed at another login by renaming it: the signature binds the email.
    const [, value] = a.cookie.split('=');
    const b2 = await personWithDevice();
    const renamed = `${b2.cookie.split('=')[0]}=${value}`;
    expectLimited(await login(b2.email, PASSWORD, school, { cookie: renamed }));
    expect((await login(b2.email, PASSWORD, school, { cookie: b2.cookie })).statusCode).toBe(200);
  });

  it('a forged or altered device cookie is ignored', async () => {
    const { email, cookie } = await personWithDevice();
    const school = uniqueIp();
    await app.failFrom(school, RATE_RULES.loginFailuresPerIp.max);
    const [name, value = ''] = cookie.split('=');
    const [issued = '', nonce = '', signature = ''] = value.split('.');
    const flip = (s: string) => (s.startsWith('A') ? `B${s.slice(1)}` : `A${s.slice(1)}`);
    for (const forged of [
      `${name}=${issued}.${flip(nonce)}.${signature}`,
      `${name}=${issued}.${nonce}.${flip(signature)}`,
      `${name}=${(Number.parseInt(issued, 36) + 1).toString(36)}.${nonce}.${signature}`,
      `${name}=${issued}.${nonce}`,
      `${name}=${value}.x`,
      `${name}=`,
    ]) {
      expectLimited(await login(email, PASSWORD, school, { cookie: forged }));
    }
    expect((await login(email, PASSWORD, school, { cookie })).statusCode).toBe(200);
  });

  it('a device cookie that fails too often is locked out: it stops being trusted until its window ends', async () => {
    const { email, cookie } = await personWithDevice();
    const school = uniqueIp();
    await app.failFrom(school, RATE_RULES.loginFailuresPerIp.max);
    const rule = RATE_RULES.loginFailuresPerDevice;
    for (let i = 0; i < rule.max; i++)
      expect((await login(email, WRONG, school, { cookie })).statusCode).toBe(422);
    expectLimited(await login(email, PASSWORD, school, { cookie }));
    // Elsewhere it meets the ordinary limits: the account's wait (its failures counted there too) and a
    // fresh pair, so after that second the owner gets in.
    expectLimited(await login(email, PASSWORD, uniqueIp(), { cookie }));
    clock.advance(1000);
    expect((await login(email, PASSWORD, uniqueIp(), { cookie })).statusCode).toBe(200);
  });

  it("the per-account limits still hold for an attempt without the login's own cookie", async () => {
    const { email } = await personWithDevice();
    const attacker = uniqueIp();
    const stolen = (await personWithDevice()).cookie; // a cookie of another login, from one of the attacker's
    const codes: number[] = [];
    for (let i = 0; i < 7; i++)
      codes.push((await login(email, WRONG, attacker, { cookie: stolen })).statusCode);
    expect(codes).toEqual([422, 422, 422, 422, 422, 429, 429]);
  });

  it('two-factor sign-in: the second step of a trusted device is not held by the address, and gives the cookie', async () => {
    const registered = await registeredSchool(t.app, t.db, 'Two Factor School');
    const { recoveryCodes } = await enableTwoFactor(
      t.app,
      registered.accessToken,
      Math.floor(Date.now() / 1000),
    );
    const secondStep = (challenge: string, code: string, remoteAddress: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/user/login-second-factor',
        remoteAddress,
        payload: { challenge, code },
      });
    const home = uniqueIp();
    const first = await login(registered.email, PASSWORD, home);
    const done = await secondStep(first.json().challenge, recoveryCodes[0] ?? '', home);
    expect(done.statusCode).toBe(200);
    const cookie = deviceCookieOf(done);

    const school = uniqueIp();
    await app.failFrom(school, RATE_RULES.loginFailuresPerIp.max);
    const again = await login(registered.email, PASSWORD, school, { cookie });
    expect(again.statusCode).toBe(200);
    const signedIn = await secondStep(again.json().challenge, recoveryCodes[1] ?? '', school);
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().accessToken).toEqual(expect.any(String));
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/users/data',
          headers: bearer(signedIn.json().accessToken),
        })
      ).statusCode,
    ).toBe(200);
  });
});

describe('device cookies and the bot check at a shared address', () => {
  const clock = clockPerTest();
  let app: Awaited<ReturnType<typeof clockedApp>>;
  let t: TestApp;
  let login: (typeof app)['login'];
  beforeAll(async () => {
    app = await clockedApp(clock, { botCheck: async (token) => token === HUMAN });
    ({ t, login } = app);
  });
  afterAll(() => t.close());

  it("past the address's failure threshold the bot check is demanded before any lockout", async () => {
    const { email } = await signedUpSchool(t.app, t.db);
    const school = uniqueIp();
    await app.failFrom(school, RATE_RULES.loginFailuresPerIp.max);
    const unchecked = await login(email, PASSWORD, school);
    expect(unchecked.statusCode).toBe(403);
    expect(unchecked.json()).toEqual({
      message: SERVER_TEXT.botCheckRequired,
      errors: { botCheckToken: [SERVER_TEXT.botCheckRequired] },
    });
    expect((await login(email, PASSWORD, school, { botCheckToken: HUMAN })).statusCode).toBe(200);
    expect((await login(uniqueEmail('x'), WRONG, school, { botCheckToken: HUMAN })).statusCode).toBe(422);
    // The wall comes only later.
    const ceiling = RATE_RULES.loginFailuresPerIpBotChecked.max;
    await app.failFrom(school, ceiling - RATE_RULES.loginFailuresPerIp.max - 1);
    expectLimited(await login(email, PASSWORD, school, { botCheckToken: HUMAN }));
  });

  it('below the threshold a failed check answers as before', async () => {
    const { email } = await signedUpSchool(t.app, t.db);
    const response = await login(email, PASSWORD, uniqueIp());
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: SERVER_TEXT.botCheckFailed });
  });
});
