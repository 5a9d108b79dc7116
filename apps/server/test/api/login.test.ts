import { SERVER_TEXT } from '@parley/domain/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BotCheck } from '../../src/lib/bot-check';
import {
  bearer,
  invite,
  login,
  PASSWORD,
  registeredSchool,
  signedUpSchool,
  uniqueEmail,
  uniqueIp,
} from '../factories';
import { tokenFromLastMail } from '../mailbox';
import { createTestApp, type TestApp } from '../test-app';

/** Spec §3 "Current user". */
const CURRENT_USER_FIELDS = [
  'id',
  'status',
  'accessToken',
  'deviceToken',
  'title',
  'firstName',
  'lastName',
  'fullName',
  'email',
  'userTypeId',
  'userTypeName',
  'userTypes',
  'videoConferenceUrl',
  'role',
  'roles',
  'subjectsLabels',
  'clickRole',
  'iAmAdmin',
  'isAdmin',
  'isTeacher',
  'isParent',
  'isStudent',
  'loginCount',
  'groupedSettings',
];

describe('POST /api/user/login', () => {
  let t: TestApp;
  let school: Awaited<ReturnType<typeof registeredSchool>>;
  beforeAll(async () => {
    t = await createTestApp();
    school = await registeredSchool(t.app, t.db, 'Login School');
  });
  afterAll(() => t.close());

  it('answers an access token and the spec §3 current user; the token works', async () => {
    const response = await login(t.app, school.email);
    expect(response.statusCode).toBe(200);
    const body = response.json() as { accessToken: string; message: string; user: Record<string, unknown> };
    expect(body.accessToken).toMatch(/^[\w-]{43}$/);
    expect(Object.keys(body.user)).toEqual(expect.arrayContaining(CURRENT_USER_FIELDS));
    expect(body.user).toMatchObject({
      id: school.userId,
      status: 1,
      accessToken: body.accessToken,
      firstName: 'Ada',
      lastName: 'Lovelace',
      fullName: 'Ada Lovelace',
      email: school.email,
      userTypeId: 2,
      userTypeName: 'Admin',
      userTypes: [{ id: 2, name: 'Admin' }],
      role: 'admin',
      roles: ['admin'],
      clickRole: 'admin',
      iAmAdmin: true,
      isAdmin: true,
      isTeacher: false,
      isParent: false,
      isStudent: false,
      groupedSettings: {},
      subscriberName: 'Login School',
    });
    const data = await t.app.inject({
      method: 'GET',
      url: '/api/users/data',
      headers: bearer(body.accessToken),
    });
    expect(data.statusCode).toBe(200);
    expect(data.json()).toMatchObject({ id: school.userId, email: school.email });
  });

  it('counts every login in loginCount', async () => {
    const { email } = await registeredSchool(t.app, t.db, 'Counting School'); // login 1
    const second = await login(t.app, email);
    expect(second.json()).toMatchObject({ user: { loginCount: 2 } });
    const third = await login(t.app, email);
    const { accessToken } = third.json() as { accessToken: string };
    expect(third.json()).toMatchObject({ user: { loginCount: 3 } });
    const data = await t.app.inject({ method: 'GET', url: '/api/users/data', headers: bearer(accessToken) });
    expect(data.json()).toMatchObject({ loginCount: 3 });
  });

  it('accepts the email in any letter case and with spaces around it', async () => {
    const response = await login(t.app, `  ${school.email.toUpperCase()}  `);
    expect(response.statusCode).toBe(200);
  });

  it('answers a wrong password and an unknown email with the same status and message', async () => {
    const wrong = await login(t.app, school.email, 'not the password');
    const unknown = await login(t.app, uniqueEmail('ghost'), PASSWORD);
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toEqual({ message: SERVER_TEXT.invalidCredentials });
    expect(unknown.statusCode).toBe(wrong.statusCode);
    expect(unknown.body).toBe(wrong.body);
  });

  it('refuses the admin of a school that is not verified yet', async () => {
    const email = uniqueEmail('unverified');
    await t.app.inject({
      method: 'POST',
      url: '/api/site/signup',
      remoteAddress: uniqueIp(),
      payload: { subscriberName: 'Slow School', firstName: 'Al', lastName: 'Bo', email, password: PASSWORD },
    });
    const response = await login(t.app, email);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      message: 'Please verify your school account first. Check your email for the verification link.',
    });
    // A wrong password there still says only "incorrect": nothing about the school is given away.
    expect((await login(t.app, email, 'wrong password')).json()).toEqual({
      message: SERVER_TEXT.invalidCredentials,
    });
    // After the link is opened the same login works.
    const { token } = await tokenFromLastMail(t.db, email);
    await t.app.inject({ method: 'GET', url: `/api/site/verify-school?token=${token}` });
    expect((await login(t.app, email)).statusCode).toBe(200);
  });

  it('refuses an invited user who has not set a password, with the wrong-password answer', async () => {
    const invited = await invite(t, school.schoolId, { role: 'teacher' });
    for (const password of [PASSWORD, 'xxxxxxxx', 'anything-at-all']) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/user/login',
        remoteAddress: uniqueIp(),
        payload: { email: invited.email, password },
      });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({ message: SERVER_TEXT.invalidCredentials });
    }
  });

  it('refuses a disabled account with the inactive message', async () => {
    const other = await registeredSchool(t.app, t.db, 'Disabled School');
    await t.db.updateTable('users').set({ status: 0 }).where('id', '=', other.userId).execute();
    const response = await login(t.app, other.email);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: SERVER_TEXT.accountInactive });
  });
});

describe('bot check on login', () => {
  // One app whose check can be told to fail, recording what it was given.
  const calls: Array<{ token: string | undefined; ip: string }> = [];
  let passes = true;
  const recording: BotCheck = async (token, ip) => {
    calls.push({ token, ip });
    return passes;
  };
  let t: TestApp;
  let email: string;
  beforeAll(async () => {
    t = await createTestApp({ botCheck: recording });
    ({ email } = await signedUpSchool(t.app, t.db));
  });
  afterAll(() => t.close());

  it('hands the botCheckToken and the client address to the check', async () => {
    calls.length = 0;
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      remoteAddress: '203.0.113.9',
      payload: { email, password: PASSWORD, botCheckToken: 'turnstile-token-123' },
    });
    expect(response.statusCode).toBe(200);
    expect(calls).toEqual([{ token: 'turnstile-token-123', ip: '203.0.113.9' }]);

    await login(t.app, email);
    expect(calls).toHaveLength(2);
    expect(calls[1]?.token).toBeUndefined();
  });

  it('refuses the login with 403 and the bot-check text when the check fails, even with the right password', async () => {
    const sessions = () => t.db.selectFrom('auth_tokens').select('id').where('kind', '=', 'access').execute();
    const before = (await sessions()).length;
    passes = false;
    try {
      const response = await login(t.app, email);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ message: SERVER_TEXT.botCheckFailed });
      expect(response.json()).toEqual({ message: 'The bot check failed. Please try again.' });
      expect(await sessions()).toHaveLength(before); // no session was started
    } finally {
      passes = true;
    }
  });
});
