import { SERVER_TEXT } from '@parley/domain/messages';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/lib/tokens';
import { bearer, invite, login, registeredSchool, signedUpSchool, uniqueIp } from '../factories';
import { tokenFromLastMail } from '../mailbox';
import { createTestApp, type TestApp } from '../test-app';

describe('sessions: bearer tokens, logout and revocation', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const data = (headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: '/api/users/data', headers });
  const logoutAnswer = { message: 'Please log in.', action: 'logout' };

  it('GET users/data answers the current user for a live token', async () => {
    const school = await registeredSchool(t.app, t.db, 'Session School');
    const response = await data(bearer(school.accessToken));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: school.userId,
      schoolId: school.schoolId,
      email: school.email,
      roles: ['admin'],
      subscriberName: 'Session School',
      loginCount: 1,
    });
  });

  it('answers 401 with action "logout" without a token, with a garbage token and with a malformed header', async () => {
    for (const headers of [
      {},
      bearer('not-a-real-token'),
      { authorization: 'Basic dXNlcjpwYXNz' },
      { authorization: 'Bearer' },
    ]) {
      const response = await data(headers);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(logoutAnswer);
    }
  });

  it('logout ends that token (401, action logout) and leaves the user’s other sessions alive', async () => {
    const school = await registeredSchool(t.app, t.db);
    const other = (await login(t.app, school.email)).json() as { accessToken: string };

    const response = await t.app.inject({
      method: 'POST',
      url: '/api/user/logout',
      headers: bearer(school.accessToken),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: SERVER_TEXT.loggedOut });

    const after = await data(bearer(school.accessToken));
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual(logoutAnswer);
    expect((await data(bearer(other.accessToken))).statusCode).toBe(200);
  });

  it('logout with a JSON content type and an empty body, or without any token, still answers 200', async () => {
    const school = await registeredSchool(t.app, t.db);
    const withHeader = await t.app.inject({
      method: 'POST',
      url: '/api/user/logout',
      headers: { ...bearer(school.accessToken), 'content-type': 'application/json' },
      body: '',
    });
    expect(withHeader.statusCode).toBe(200);
    expect((await data(bearer(school.accessToken))).statusCode).toBe(401);

    const anonymous = await t.app.inject({ method: 'POST', url: '/api/user/logout' });
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.json()).toEqual({ message: SERVER_TEXT.loggedOut });
  });

  it('a disabled user (status 0) gets 401 at once on every live token', async () => {
    const school = await registeredSchool(t.app, t.db);
    const second = (await login(t.app, school.email)).json() as { accessToken: string };
    expect((await data(bearer(school.accessToken))).statusCode).toBe(200);

    await t.db.updateTable('users').set({ status: 0 }).where('id', '=', school.userId).execute();
    for (const token of [school.accessToken, second.accessToken]) {
      const response = await data(bearer(token));
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(logoutAnswer);
    }
    const index = await t.app.inject({
      method: 'GET',
      url: '/api/site/index',
      headers: bearer(second.accessToken),
    });
    expect(index.statusCode).toBe(401);

    // Enabled again, the tokens that were not revoked work again (status is checked on every request).
    await t.db.updateTable('users').set({ status: 1 }).where('id', '=', school.userId).execute();
    expect((await data(bearer(second.accessToken))).statusCode).toBe(200);
  });

  it('a verify, reset or invitation token is not an access token', async () => {
    const { verifyToken } = await signedUpSchool(t.app, t.db, { verify: false });
    const school = await registeredSchool(t.app, t.db);
    const invited = await invite(t, school.schoolId, { role: 'teacher' });
    await t.app.inject({
      method: 'POST',
      url: '/api/user/request-password-reset',
      remoteAddress: uniqueIp(),
      payload: { email: school.email },
    });
    const { token: resetToken } = await tokenFromLastMail(t.db, school.email);
    for (const token of [verifyToken, invited.token, resetToken]) {
      const response = await data(bearer(token));
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(logoutAnswer);
    }
  });

  it('an expired access token is refused', async () => {
    const school = await registeredSchool(t.app, t.db);
    await t.db
      .updateTable('auth_tokens')
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where('token_hash', '=', hashToken(school.accessToken))
      .execute();
    const response = await data(bearer(school.accessToken));
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(logoutAnswer);
  });

  it('access tokens live 30 days and are stored only as their SHA-256', async () => {
    const school = await registeredSchool(t.app, t.db);
    const rows = await t.db
      .selectFrom('auth_tokens')
      .selectAll()
      .where('user_id', '=', school.userId)
      .where('kind', '=', 'access')
      .execute();
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row?.token_hash).toBe(hashToken(school.accessToken));
    expect(row?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    const all = await t.db.selectFrom('auth_tokens').select('token_hash').execute();
    expect(all.map((r) => r.token_hash)).not.toContain(school.accessToken);
    const lifetime = (row?.expires_at.getTime() ?? 0) - (row?.created_at.getTime() ?? 0);
    expect(Math.abs(lifetime - 30 * 24 * 3600_000)).toBeLessThan(5_000);
  });
});
