import { SERVER_TEXT, VALIDATION } from '@parley/domain/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, invite, login, registeredSchool, uniqueEmail, uniqueIp } from '../factories';
import { mailCount, tokenFromLastMail } from '../mailbox';
import { createTestApp, type TestApp } from '../test-app';

const NEW_PASSWORD = 'a brand new secret';

describe('password reset', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const requestReset = (email: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/user/request-password-reset',
      remoteAddress: uniqueIp(),
      payload: { email },
    });
  const reset = (token: string, payload: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: `/api/user/reset-password?token=${encodeURIComponent(token)}`,
      payload,
    });

  async function resetToken(email: string) {
    const response = await requestReset(email);
    expect(response.statusCode).toBe(200);
    const link = await tokenFromLastMail(t.db, email);
    expect(link.path).toBe('/auth/reset-password');
    return link.token;
  }

  it('mails a reset link; the new password logs in and the old one no longer does', async () => {
    const school = await registeredSchool(t.app, t.db);
    const response = await requestReset(school.email);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: SERVER_TEXT.resetRequested });
    const { token } = await tokenFromLastMail(t.db, school.email);

    const done = await reset(token, { password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ message: SERVER_TEXT.passwordReset });

    expect((await login(t.app, school.email, NEW_PASSWORD)).statusCode).toBe(200);
    const old = await login(t.app, school.email);
    expect(old.statusCode).toBe(422);
    expect(old.json()).toEqual({ message: SERVER_TEXT.invalidCredentials });
  });

  it('signs the user out everywhere: every access token of that user stops working', async () => {
    const school = await registeredSchool(t.app, t.db);
    const second = (await login(t.app, school.email)).json() as { accessToken: string };
    const bystander = await registeredSchool(t.app, t.db);

    const token = await resetToken(school.email);
    expect((await reset(token, { password: NEW_PASSWORD })).statusCode).toBe(200);

    for (const accessToken of [school.accessToken, second.accessToken]) {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/users/data',
        headers: bearer(accessToken),
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: SERVER_TEXT.unauthenticated, action: 'logout' });
    }
    const other = await t.app.inject({
      method: 'GET',
      url: '/api/users/data',
      headers: bearer(bystander.accessToken),
    });
    expect(other.statusCode).toBe(200);
  });

  it('a reset link works once', async () => {
    const school = await registeredSchool(t.app, t.db);
    const token = await resetToken(school.email);
    expect((await reset(token, { password: NEW_PASSWORD })).statusCode).toBe(200);
    const again = await reset(token, { password: 'yet another password' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({
      message: SERVER_TEXT.tokenInvalid,
      errors: { token: [SERVER_TEXT.tokenInvalid] },
    });
    expect((await login(t.app, school.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('a newer reset link leaves the earlier one working (requests cannot spoil it); using one ends them all', async () => {
    const school = await registeredSchool(t.app, t.db);
    const first = await resetToken(school.email);
    const second = await resetToken(school.email);
    const third = await resetToken(school.email);
    expect(new Set([first, second, third]).size).toBe(3);
    expect((await reset(first, { password: NEW_PASSWORD })).statusCode).toBe(200);
    for (const later of [second, third]) {
      const refused = await reset(later, { password: 'yet another password' });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ message: SERVER_TEXT.tokenInvalid });
    }
    expect((await login(t.app, school.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses a missing or unknown token and mismatched passwords, and changes nothing', async () => {
    const school = await registeredSchool(t.app, t.db);
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/user/reset-password',
      payload: { password: NEW_PASSWORD },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ message: SERVER_TEXT.tokenMissing });

    const unknown = await reset('A'.repeat(43), { password: NEW_PASSWORD });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ message: SERVER_TEXT.tokenInvalid });

    const token = await resetToken(school.email);
    const mismatch = await reset(token, { password: NEW_PASSWORD, confirmPassword: 'something else' });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json()).toEqual({
      message: SERVER_TEXT.invalidInput,
      errors: { confirmPassword: [VALIDATION.passwordsDiffer] },
    });
    const short = await reset(token, { password: 'short' });
    expect(short.statusCode).toBe(422);
    expect(short.json()).toMatchObject({ errors: { password: ['Min 8 characters'] } });
    // The refused attempts did not use the link up, and the old password still works until it is used.
    expect((await login(t.app, school.email)).statusCode).toBe(200);
    expect((await reset(token, { password: NEW_PASSWORD })).statusCode).toBe(200);
  });

  it('answers an unknown email exactly as a known one, and mails only the known one', async () => {
    const school = await registeredSchool(t.app, t.db);
    const stranger = uniqueEmail('stranger');
    const before = await mailCount(t.db, school.email); // the signup's verification mail
    const known = await requestReset(school.email);
    const unknown = await requestReset(stranger);
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);
    expect(await mailCount(t.db, school.email)).toBe(before + 1);
    expect(await mailCount(t.db, stranger)).toBe(0);
  });

  it('sends nothing to a disabled account, with the same answer', async () => {
    const school = await registeredSchool(t.app, t.db);
    await t.db.updateTable('users').set({ status: 0 }).where('id', '=', school.userId).execute();
    const before = await mailCount(t.db, school.email);
    const response = await requestReset(school.email);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: SERVER_TEXT.resetRequested });
    expect(await mailCount(t.db, school.email)).toBe(before);
  });

  it('a password set by a reset accepts the invitations waiting for that mailbox (issue 36)', async () => {
    const school = await registeredSchool(t.app, t.db);
    const invited = await invite(t, school.schoolId, { role: 'parent' });
    expect(await parentInvitation(school.accessToken, invited.email)).toBe('pending');
    const done = await reset(await resetToken(invited.email), { password: NEW_PASSWORD });
    expect(done.statusCode).toBe(200);
    expect(await parentInvitation(school.accessToken, invited.email)).toBe('accepted');
    expect((await login(t.app, invited.email, NEW_PASSWORD)).statusCode).toBe(200);
    // The invitation's link is done: opened again, it leads to the login.
    const opened = await t.app.inject({
      method: 'GET',
      url: `/api/users/accept-parent-invite?token=${encodeURIComponent(invited.token)}`,
    });
    expect(opened.json()).toMatchObject({ message: SERVER_TEXT.invitationUsed, needsPassword: false });
  });

  async function parentInvitation(adminToken: string, email: string) {
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/users/parents',
      headers: bearer(adminToken),
    });
    const items = (list.json() as { items: Array<{ email: string; invitation: string }> }).items;
    return items.find((item) => item.email === email)?.invitation;
  }
});
