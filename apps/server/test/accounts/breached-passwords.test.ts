import { VALIDATION } from '@parley/domain/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, invite, login, PASSWORD, registeredSchool, uniqueEmail, uniqueIp } from '../factories';
import { tokenFromLastMail } from '../mailbox';
import { createTestApp, type TestApp } from '../test-app';

// Every place a password is chosen refuses the commonest leaked ones (decision 015), naming the field.
const BREACHED = ['Password123', 'iloveyou', 'qwertyuiop', 'Football1'];
const refusal = { errors: { password: [VALIDATION.passwordBreached] } };

describe('breached passwords are refused wherever a password is chosen', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('signup: 422 on the password field, and no school is made', async () => {
    for (const password of BREACHED) {
      const email = uniqueEmail('breach');
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/site/signup',
        remoteAddress: uniqueIp(),
        payload: { subscriberName: 'Leaky School', firstName: 'Ada', lastName: 'Lovelace', email, password },
      });
      expect(response.statusCode, password).toBe(422);
      expect(response.json()).toMatchObject(refusal);
      const users = await t.db.selectFrom('users').select('id').where('email', '=', email).execute();
      expect(users).toHaveLength(0);
    }
  });

  it.each([
    ['admin', 'set-admin-password'],
    ['teacher', 'set-teacher-password'],
    ['parent', 'set-new-password'],
  ] as const)(
    '%s invitation (%s): 422, and the link still works for a better password',
    async (role, path) => {
      const admin = await registeredSchool(t.app, t.db);
      const invited = await invite(t, admin.schoolId, { role });
      const set = (password: string) =>
        t.app.inject({
          method: 'POST',
          url: `/api/users/${path}`,
          payload: { token: invited.token, password },
        });
      const refused = await set('Password123');
      expect(refused.statusCode).toBe(422);
      expect(refused.json()).toMatchObject(refusal);
      expect((await set(PASSWORD)).statusCode).toBe(200);
    },
  );

  it('reset: 422, and the reset link still works for a better password', async () => {
    const admin = await registeredSchool(t.app, t.db);
    await t.app.inject({
      method: 'POST',
      url: '/api/user/request-password-reset',
      remoteAddress: uniqueIp(),
      payload: { email: admin.email },
    });
    const { token } = await tokenFromLastMail(t.db, admin.email);
    const reset = (password: string) =>
      t.app.inject({ method: 'POST', url: `/api/user/reset-password?token=${token}`, payload: { password } });
    const refused = await reset('iloveyou');
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject(refusal);
    expect((await login(t.app, admin.email)).statusCode).toBe(200); // unchanged
    expect((await reset('a much better passphrase')).statusCode).toBe(200);
  });

  it('change password on the profile: 422, and the password stays', async () => {
    const admin = await registeredSchool(t.app, t.db);
    const change = (password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/users/change-password',
        headers: bearer(admin.accessToken),
        payload: { currentPassword: PASSWORD, password, confirmPassword: password },
      });
    const refused = await change('QWERTYUIOP');
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject(refusal);
    expect((await login(t.app, admin.email)).statusCode).toBe(200);
    expect((await change('a much better passphrase')).statusCode).toBe(200);
  });

  it('login is not refused for an old common password (only choosing one is)', async () => {
    const admin = await registeredSchool(t.app, t.db);
    const { hashPassword } = await import('../../src/lib/passwords');
    await t.db
      .updateTable('users')
      .set({ password_hash: await hashPassword('password1') })
      .where('id', '=', admin.userId)
      .execute();
    expect((await login(t.app, admin.email, 'password1')).statusCode).toBe(200);
  });
});
