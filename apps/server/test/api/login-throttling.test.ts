import { SERVER_TEXT } from '@parley/domain/messages';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BotCheck } from '../../src/lib/bot-check';
import { hashPassword } from '../../src/lib/passwords';
import { LOGIN_BACKOFF, RATE_RULES } from '../../src/lib/rate-limiter';
import { clockPerTest } from '../clock-per-test';
import { PASSWORD, registeredSchool, signedUpSchool, uniqueEmail, uniqueIp } from '../factories';
import { tokenFromLastMail } from '../mailbox';
import { createTestApp, type TestApp } from '../test-app';

// Decision 010: failures are counted, never successes; per (address, account) a limit, per account a
// growing wait (never a wall), per address ceilings high enough for a whole school.

/** A 429 with the usual text and a Retry-After of whole seconds; answers the seconds. */
function expectLimited(response: LightMyRequestResponse): number {
  expect(response.statusCode).toBe(429);
  expect(response.json()).toEqual({ message: SERVER_TEXT.rateLimited });
  expect(response.headers['retry-after']).toMatch(/^[1-9]\d*$/);
  return Number(response.headers['retry-after']);
}

const WRONG = 'not the password';
const HUMAN = 'solved-by-a-human';

/** Runs the tasks `width` at a time (2 cores: argon2 in parallel, not 300 at once). */
async function inBatches<T>(tasks: Array<() => Promise<T>>, width = 10): Promise<T[]> {
  const results: T[] = [];
  for (let i = 0; i < tasks.length; i += width) {
    results.push(...(await Promise.all(tasks.slice(i, i + width).map((task) => task()))));
  }
  return results;
}

/**
 * An app whose rate limits run on each test's own clock (clockPerTest), which the test moves; `botCheck`
 * passes only the HUMAN token when given.
 */
async function clockedApp(clock: ReturnType<typeof clockPerTest>, options: { botCheck?: BotCheck } = {}) {
  const t = await createTestApp({ rateLimitStore: clock.store, ...options });
  const login = (email: string, password: string, remoteAddress: string, botCheckToken?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      remoteAddress,
      payload: { email, password, ...(botCheckToken && { botCheckToken }) },
    });
  return { t, login };
}

describe('login throttling', () => {
  const clock = clockPerTest();
  let app: Awaited<ReturnType<typeof clockedApp>>;
  let t: TestApp;
  let login: (typeof app)['login'];
  const wait = (seconds: number) => {
    clock.advance(seconds * 1000);
  };
  beforeAll(async () => {
    app = await clockedApp(clock);
    ({ t, login } = app);
  });
  afterAll(() => t.close());

  const account = async () => (await registeredSchool(t.app, t.db, 'Throttle School')).email;

  it('successes do not count: one person logging in 60 times from one address is never refused', async () => {
    const email = await account();
    const ip = uniqueIp();
    for (let i = 0; i < 60; i++) expect((await login(email, PASSWORD, ip)).statusCode).toBe(200);
  });

  it('a success clears the failures: 4 wrong then right, over and over, is never refused', async () => {
    const email = await account();
    const ip = uniqueIp();
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 4; i++) expect((await login(email, WRONG, ip)).statusCode).toBe(422);
      expect((await login(email, PASSWORD, ip)).statusCode).toBe(200);
    }
  });

  it('a whole school behind one address: 300 people log in within a minute, typos and all, and all get 200', async () => {
    const school = await registeredSchool(t.app, t.db, 'Parents Evening School');
    // 300 real accounts of that school, with one argon2 hash made once.
    const passwordHash = await hashPassword(PASSWORD);
    const emails = Array.from({ length: 300 }, () => uniqueEmail('parent'));
    const users = await t.db
      .insertInto('users')
      .values(
        emails.map((email, i) => ({
          school_id: school.schoolId,
          email,
          first_name: 'Parent',
          last_name: `No. ${i}`,
          password_hash: passwordHash,
          email_verified_at: new Date(),
        })),
      )
      .returning('id')
      .execute();
    await t.db
      .insertInto('user_roles')
      .values(
        users.map(({ id }) => ({
          user_id: id,
          school_id: school.schoolId,
          role: 'parent' as const,
          accepted_at: new Date(),
        })),
      )
      .execute();

    // Within a minute as the limits count it: this test's clock stands still the whole time (clockPerTest).
    const schoolWifi = uniqueIp();
    // Every tenth parent mistypes first, some twice.
    const typos = await inBatches(
      emails
        .filter((_, i) => i % 10 === 0)
        .flatMap((email, i) => (i % 3 === 0 ? [email, email] : [email]))
        .map((email) => () => login(email, WRONG, schoolWifi)),
    );
    expect(typos.map((r) => r.statusCode)).toEqual(typos.map(() => 422));
    const answers = await inBatches(emails.map((email) => () => login(email, PASSWORD, schoolWifi)));
    expect(answers.map((r) => r.statusCode)).toEqual(emails.map(() => 200));
  }, 120_000);

  it.each([
    ['an account', true],
    ['an email with no account (the same answers: nothing to learn)', false],
  ])(
    '40 wrong passwords for %s from one address: 5 are checked, the rest get 429 until the window ends',
    async (_, exists) => {
      const email = exists ? await account() : uniqueEmail('ghost');
      const ip = uniqueIp();
      const answers: LightMyRequestResponse[] = [];
      for (let i = 0; i < 40; i++) answers.push(await login(email, WRONG, ip));
      const checked = answers.filter((r) => r.statusCode === 422);
      expect(checked).toHaveLength(RATE_RULES.loginFailuresPerPair.max);
      expect(checked.every((r) => r.json().message === SERVER_TEXT.invalidCredentials)).toBe(true);
      const refused = answers.slice(5).map(expectLimited);
      expect(refused).toHaveLength(35);
      expect(Math.max(...refused)).toBeLessThanOrEqual(15 * 60);
      // From that address even the right password waits; once the window has ended, the address may try again.
      expectLimited(await login(email, exists ? PASSWORD : WRONG, ip));
      wait(Math.max(...refused));
      expect((await login(email, exists ? PASSWORD : WRONG, ip)).statusCode).toBe(exists ? 200 : 422);
    },
  );

  it('attempts sent all at once cannot slip through together: 5 checked from one address, 10 from many', async () => {
    const email = await account();
    const fromOne = uniqueIp();
    const burst = await Promise.all(Array.from({ length: 40 }, () => login(email, WRONG, fromOne)));
    expect(burst.filter((r) => r.statusCode === 422)).toHaveLength(RATE_RULES.loginFailuresPerPair.max);
    burst.filter((r) => r.statusCode !== 422).forEach(expectLimited);

    const other = await account();
    const spread = await Promise.all(Array.from({ length: 60 }, () => login(other, WRONG, uniqueIp())));
    expect(spread.filter((r) => r.statusCode === 422)).toHaveLength(LOGIN_BACKOFF.free);
    spread.filter((r) => r.statusCode !== 422).forEach(expectLimited);
  });

  it('after 10 wrong passwords from one address, the owner on another address logs in at once', async () => {
    const email = await account();
    const attacker = uniqueIp();
    const codes: number[] = [];
    for (let i = 0; i < 10; i++) codes.push((await login(email, WRONG, attacker)).statusCode);
    expect(codes).toEqual([422, 422, 422, 422, 422, 429, 429, 429, 429, 429]);
    expect((await login(email, PASSWORD, uniqueIp())).statusCode).toBe(200);
  });

  it('a distributed attack meets a growing wait, with Retry-After, capped at 5 minutes', async () => {
    const email = await account();
    for (let i = 0; i < LOGIN_BACKOFF.free; i++)
      expect((await login(email, WRONG, uniqueIp())).statusCode).toBe(422);
    const waits: number[] = [];
    for (let i = 0; i < 11; i++) {
      const seconds = expectLimited(await login(email, WRONG, uniqueIp()));
      expectLimited(await login(email, WRONG, uniqueIp())); // refused attempts change nothing
      waits.push(seconds);
      wait(seconds);
      expect((await login(email, WRONG, uniqueIp())).statusCode).toBe(422);
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300]);
    // The owner on a new address waits the same — at most 5 minutes — and is then let in.
    const owner = uniqueIp();
    const held = expectLimited(await login(email, PASSWORD, owner));
    expect(held).toBe(300);
    wait(held);
    expect((await login(email, PASSWORD, owner)).statusCode).toBe(200);
    // That success cleared the account's count.
    expect((await login(email, WRONG, uniqueIp())).statusCode).toBe(422);
  });

  it('during an attack the owner is let in at once from an address they have logged in from before', async () => {
    const email = await account();
    const home = uniqueIp();
    expect((await login(email, PASSWORD, home)).statusCode).toBe(200);
    for (let i = 0; i < 16; i++) {
      const response = await login(email, WRONG, uniqueIp());
      if (response.statusCode === 429) wait(Number(response.headers['retry-after']));
    }
    expectLimited(await login(email, PASSWORD, uniqueIp())); // a new address waits
    expect((await login(email, PASSWORD, home)).statusCode).toBe(200);
    // Home is still limited per pair: 5 wrong passwords from there and it waits too.
    for (let i = 0; i < 5; i++) expect((await login(email, WRONG, home)).statusCode).toBe(422);
    expectLimited(await login(email, PASSWORD, home));
  });

  it('a password reset ends the wait: the owner logs in with the new password at once', async () => {
    const email = await account();
    for (let i = 0; i < 14; i++) {
      const response = await login(email, WRONG, uniqueIp());
      if (response.statusCode === 429) wait(Number(response.headers['retry-after']));
    }
    expectLimited(await login(email, PASSWORD, uniqueIp()));
    await t.app.inject({
      method: 'POST',
      url: '/api/user/request-password-reset',
      remoteAddress: uniqueIp(),
      payload: { email },
    });
    const { token } = await tokenFromLastMail(t.db, email);
    const reset = await t.app.inject({
      method: 'POST',
      url: `/api/user/reset-password?token=${token}`,
      payload: { password: 'the new password' },
    });
    expect(reset.statusCode).toBe(200);
    expect((await login(email, 'the new password', uniqueIp())).statusCode).toBe(200);
  });

  it('per address: past 200 wrong passwords in 15 minutes, whichever accounts, the address waits; others do not', async () => {
    const email = await account();
    const sprayer = uniqueIp();
    const answers = await inBatches(
      Array.from(
        { length: RATE_RULES.loginFailuresPerIp.max },
        () => () => login(uniqueEmail('spray'), WRONG, sprayer),
      ),
    );
    expect(answers.every((r) => r.statusCode === 422)).toBe(true);
    const seconds = expectLimited(await login(uniqueEmail('spray'), WRONG, sprayer));
    expect(seconds).toBeLessThanOrEqual(15 * 60);
    expectLimited(await login(email, PASSWORD, sprayer));
    expect((await login(email, PASSWORD, uniqueIp())).statusCode).toBe(200);
    wait(seconds);
    expect((await login(email, PASSWORD, sprayer)).statusCode).toBe(200);
  }, 60_000);
});

describe('login throttling with a bot check configured', () => {
  const clock = clockPerTest();
  let app: Awaited<ReturnType<typeof clockedApp>>;
  let t: TestApp;
  let login: (typeof app)['login'];
  const checks: Array<string | undefined> = [];
  beforeAll(async () => {
    app = await clockedApp(clock, {
      botCheck: async (token) => {
        checks.push(token);
        return token === HUMAN;
      },
    });
    ({ t, login } = app);
  });
  afterAll(() => t.close());

  it('after 10 wrong passwords from one address, the owner passing the bot check logs in from another', async () => {
    const { email } = await signedUpSchool(t.app, t.db);
    const attacker = uniqueIp();
    const codes: number[] = [];
    for (let i = 0; i < 10; i++) codes.push((await login(email, WRONG, attacker, HUMAN)).statusCode);
    expect(codes).toEqual([422, 422, 422, 422, 422, 429, 429, 429, 429, 429]);
    const owner = uniqueIp();
    const noCheck = await login(email, PASSWORD, owner);
    expect(noCheck.statusCode).toBe(403);
    expect(noCheck.json()).toEqual({ message: SERVER_TEXT.botCheckFailed });
    expect((await login(email, PASSWORD, owner, HUMAN)).statusCode).toBe(200);
  });

  it('a distributed attack meets the bot check on every attempt, then the growing wait', async () => {
    const { email } = await signedUpSchool(t.app, t.db);
    // A script without a solved check gets nowhere, and its attempts count for nothing.
    for (let i = 0; i < 30; i++) {
      const response = await login(email, WRONG, uniqueIp(), i % 2 ? 'forged' : undefined);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ message: SERVER_TEXT.botCheckFailed });
    }
    // Solving it each time, the 11th failure must wait, and the wait grows.
    for (let i = 0; i < 10; i++) expect((await login(email, WRONG, uniqueIp(), HUMAN)).statusCode).toBe(422);
    checks.length = 0;
    expect(expectLimited(await login(email, WRONG, uniqueIp(), HUMAN))).toBe(1);
    expect(checks).toEqual([]); // a held attempt does not even reach the check
    clock.advance(1000);
    expect((await login(email, WRONG, uniqueIp(), HUMAN)).statusCode).toBe(422);
    expect(expectLimited(await login(email, WRONG, uniqueIp(), HUMAN))).toBe(2);
  });

  it('per address: at most 1000 attempts in 15 minutes reach the bot check and the password hash', async () => {
    const bot = uniqueIp();
    checks.length = 0;
    for (let i = 0; i < RATE_RULES.loginPerIp.max; i++) {
      expect((await login(uniqueEmail('cpu'), WRONG, bot, 'forged')).statusCode).toBe(403);
    }
    expect(checks).toHaveLength(RATE_RULES.loginPerIp.max);
    expect(expectLimited(await login(uniqueEmail('cpu'), WRONG, bot, HUMAN))).toBeLessThanOrEqual(15 * 60);
    expect(checks).toHaveLength(RATE_RULES.loginPerIp.max);
  }, 60_000);
});
