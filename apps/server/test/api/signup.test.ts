import { SERVER_TEXT, VALIDATION } from '@parley/domain/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login, PASSWORD, uniqueEmail, uniqueIp } from '../factories';
import { lastMailTo, mailCount, tokenFromLastMail } from '../mailbox';
import { createTestApp, TEST_APP_URL, type TestApp } from '../test-app';

const signupBody = (overrides: Record<string, unknown> = {}) => ({
  subscriberName: 'Riverside High',
  firstName: 'Mary',
  lastName: 'Somerville',
  email: uniqueEmail('signup'),
  password: PASSWORD,
  ...overrides,
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('POST /api/site/signup', () => {
  const signup = (payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/site/signup', remoteAddress: uniqueIp(), payload });

  it('creates a pending school with its admin and mails a verify-school link', async () => {
    const body = signupBody();
    const response = await signup(body);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: SERVER_TEXT.signupDone });

    const user = await t.db
      .selectFrom('users as u')
      .innerJoin('schools as s', 's.id', 'u.school_id')
      .select(['u.id', 'u.first_name', 'u.last_name', 's.name', 's.verified_at', 'u.email_verified_at'])
      .where('u.email', '=', body.email)
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({ first_name: 'Mary', last_name: 'Somerville', name: 'Riverside High' });
    expect(user.verified_at).toBeNull();
    expect(user.email_verified_at).toBeNull();
    const roles = await t.db.selectFrom('user_roles').selectAll().where('user_id', '=', user.id).execute();
    expect(roles).toHaveLength(1);
    expect(roles[0]).toMatchObject({ role: 'admin' });
    expect(roles[0]?.accepted_at).not.toBeNull();

    const mail = await lastMailTo(t.db, body.email);
    expect(mail?.subject).toBe('Confirm your Parley registration for Riverside High');
    expect(mail?.links).toHaveLength(1);
    expect(mail?.links[0]).toMatch(new RegExp(`^${TEST_APP_URL}/auth/verify-school\\?token=[\\w-]{43}$`));
    expect(mail?.text_body).toContain(mail?.links[0]);
  });

  it('stores the password as argon2id with m=19456, t=2, p=1, never the password itself', async () => {
    const body = signupBody();
    await signup(body);
    const row = await t.db
      .selectFrom('users')
      .select('password_hash')
      .where('email', '=', body.email)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/);
    expect(row.password_hash).not.toContain(PASSWORD);
  });

  it('accepts a 64-character password, and that password logs in', async () => {
    const password = `${'p'.repeat(32)}${'Q'.repeat(31)}!`;
    expect(password).toHaveLength(64);
    const body = signupBody({ password });
    expect((await signup(body)).statusCode).toBe(200);
    const { token } = await tokenFromLastMail(t.db, body.email);
    await t.app.inject({ method: 'GET', url: `/api/site/verify-school?token=${token}` });
    const response = await login(t.app, body.email, password);
    expect(response.statusCode).toBe(200);
    expect((await login(t.app, body.email, password.slice(0, 63))).statusCode).toBe(422);
  });

  it('stores the email in lower case and trims names', async () => {
    const email = uniqueEmail('MiXeD');
    const response = await signup(
      signupBody({ email: `  ${email.toUpperCase()} `, subscriberName: '  Oak Lane  ', firstName: ' Jo ' }),
    );
    expect(response.statusCode).toBe(200);
    const row = await t.db
      .selectFrom('users as u')
      .innerJoin('schools as s', 's.id', 'u.school_id')
      .select(['u.email', 'u.first_name', 's.name'])
      .where('u.email', '=', email.toLowerCase())
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ email: email.toLowerCase(), first_name: 'Jo', name: 'Oak Lane' });
  });

  it('refuses an email already in use with the spec text, in any letter case, and creates nothing', async () => {
    const first = signupBody();
    expect((await signup(first)).statusCode).toBe(200);
    const schoolsBefore = await t.db.selectFrom('schools').select('id').execute();

    for (const email of [first.email, first.email.toUpperCase()]) {
      const again = await signup(signupBody({ email, subscriberName: 'Copycat School' }));
      expect(again.statusCode).toBe(422);
      expect(again.json()).toEqual({
        message: 'Email already in use',
        errors: { email: ['Email already in use'] },
      });
    }
    expect(await t.db.selectFrom('schools').select('id').execute()).toHaveLength(schoolsBefore.length);
    expect(await mailCount(t.db, first.email)).toBe(1);
  });

  it('answers the spec §5 texts for short names, a short password and a bad email', async () => {
    const response = await signup({
      subscriberName: 'AB',
      firstName: 'J',
      lastName: 'K',
      email: 'not-an-email',
      password: 'short',
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      message: SERVER_TEXT.invalidInput,
      errors: {
        subscriberName: ['Min 3 characters'],
        firstName: ['Min 2 characters'],
        lastName: ['Min 2 characters'],
        email: ['Invalid email format'],
        password: ['Min 8 characters'],
      },
    });
  });

  it('answers "Required." for every missing field', async () => {
    const response = await signup({});
    expect(response.statusCode).toBe(422);
    const errors = (response.json() as { errors: Record<string, string[]> }).errors;
    for (const field of ['subscriberName', 'firstName', 'lastName', 'email', 'password']) {
      expect(errors[field]).toEqual(['Required.']);
    }
  });

  it.each([
    'plainaddress',
    'missing-at.example.org',
    'two@@example.org',
    'no-dot@example',
    'space in@example.org',
    '@example.org',
  ])('refuses %j as "Invalid email format"', async (email) => {
    const response = await signup(signupBody({ email }));
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ errors: { email: [VALIDATION.invalidEmail] } });
  });
});

describe('GET /api/users/search-email-for-signup', () => {
  let takenEmail: string;
  beforeAll(async () => {
    takenEmail = uniqueEmail('taken');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/site/signup',
      payload: signupBody({ email: takenEmail }),
    });
    expect(response.statusCode).toBe(200);
  });

  const search = (q: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/users/search-email-for-signup?q=${encodeURIComponent(q)}`,
      remoteAddress: uniqueIp(),
    });

  it('says exists true for a registered email, in any case and with spaces around it', async () => {
    for (const q of [takenEmail, takenEmail.toUpperCase(), ` ${takenEmail} `]) {
      const response = await search(q);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ exists: true });
    }
  });

  it('says exists false for an unknown email, a prefix of a known one and an empty query', async () => {
    for (const q of [uniqueEmail('free'), takenEmail.slice(0, 8), '']) {
      const response = await search(q);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ exists: false });
    }
    const bare = await t.app.inject({ method: 'GET', url: '/api/users/search-email-for-signup' });
    expect(bare.json()).toEqual({ exists: false });
  });

  it('treats LIKE wildcards literally', async () => {
    const response = await search('%');
    expect(response.json()).toEqual({ exists: false });
  });
});
