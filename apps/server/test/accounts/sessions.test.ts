import { SERVER_TEXT } from '@parley/domain/messages';
import type { SessionItem } from '@parley/domain/sessions';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionTouchesOf } from '../../src/modules/tokens/tokens.repository';
import { bearer, invite, PASSWORD, registeredSchool, uniqueIp } from '../factories';
import { waitFor } from '../faults/fault-support';
import { createTestApp, type TestApp } from '../test-app';
import { post } from './two-factor-helpers';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

describe('signed-in sessions: list, end one, end the others', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** Logs in from an address with a browser; answers the token. */
  async function signIn(email: string, userAgent: string, ip = uniqueIp()): Promise<string> {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      remoteAddress: ip,
      headers: { 'user-agent': userAgent },
      payload: { email, password: PASSWORD },
    });
    expect(response.statusCode).toBe(200);
    return (response.json() as { accessToken: string }).accessToken;
  }

  const list = async (token: string) => {
    const response = await t.app.inject({ method: 'GET', url: '/api/user/sessions', headers: bearer(token) });
    expect(response.statusCode).toBe(200);
    return (response.json() as { items: SessionItem[] }).items;
  };
  const data = (token: string) =>
    t.app.inject({ method: 'GET', url: '/api/users/data', headers: bearer(token) });

  it('lists only one’s own live sessions, with device, address, times and which one is this device', async () => {
    const admin = await registeredSchool(t.app, t.db, 'Sessions School');
    const firefox = await signIn(admin.email, FIREFOX, '10.200.0.7');
    const phone = await signIn(admin.email, IPHONE, '10.200.0.8');
    // Other people's sessions, in this school and another, are not listed.
    const invited = await invite(t, admin.schoolId, { role: 'teacher' });
    await t.app.inject({
      method: 'POST',
      url: '/api/users/set-teacher-password',
      payload: { token: invited.token, password: PASSWORD },
    });
    const otherSchool = await registeredSchool(t.app, t.db, 'Other School');
    // A logged-out session is gone from the list.
    const gone = await signIn(admin.email, FIREFOX);
    await t.app.inject({ method: 'POST', url: '/api/user/logout', headers: bearer(gone) });

    const items = await list(firefox);
    expect(items).toHaveLength(3); // registeredSchool's login, Firefox and the phone
    const ids = await t.db
      .selectFrom('auth_tokens')
      .select('id')
      .where('user_id', '=', admin.userId)
      .where('kind', '=', 'access')
      .where('used_at', 'is', null)
      .execute();
    expect(items.map((item) => item.id).sort()).toEqual(ids.map((row) => row.id).sort());
    const mine = items.find((item) => item.current);
    expect(mine).toMatchObject({ device: 'Firefox on Linux', ip: '10.200.0.7', userAgent: FIREFOX });
    expect(items.filter((item) => item.current)).toHaveLength(1);
    expect(items.find((item) => item.ip === '10.200.0.8')).toMatchObject({
      device: 'Safari on iPhone',
      current: false,
    });
    for (const item of items) {
      expect(Date.parse(item.signedInAt)).toBeGreaterThan(Date.now() - 60_000);
      expect(Date.parse(item.lastActiveAt)).toBeGreaterThanOrEqual(Date.parse(item.signedInAt));
    }
    // The phone sees the same sessions, itself marked.
    expect((await list(phone)).find((item) => item.current)?.ip).toBe('10.200.0.8');
    // The other school's admin sees only theirs.
    const theirs = await list(otherSchool.accessToken);
    expect(theirs).toHaveLength(1);
    expect(theirs.map((item) => item.id)).not.toContain(mine?.id);
  });

  it('records activity at most once a minute, after the answer, and shows it as last active', async () => {
    const admin = await registeredSchool(t.app, t.db);
    const token = await signIn(admin.email, FIREFOX);
    const lastUsed = () =>
      t.db
        .selectFrom('auth_tokens')
        .select('last_used_at')
        .where('user_id', '=', admin.userId)
        .where('user_agent', '=', FIREFOX)
        .executeTakeFirstOrThrow();
    expect((await lastUsed()).last_used_at).toBeNull();
    await data(token);
    // Written a second after the answer, with the other sessions used meanwhile (one statement).
    await waitFor(
      'the session marked active',
      async () => (await lastUsed()).last_used_at !== null,
      5_000,
      100,
    );
    const first = (await lastUsed()).last_used_at;
    expect(first).toBeInstanceOf(Date);
    // An hour-old mark (as if the session had been idle): the next request in this process within the
    // minute writes nothing; the list shows the stored time.
    await t.db
      .updateTable('auth_tokens')
      .set({ last_used_at: sql`now() - interval '1 hour'` })
      .where('user_id', '=', admin.userId)
      .where('user_agent', '=', FIREFOX)
      .execute();
    await data(token);
    await sessionTouchesOf(t.db).flush();
    const stale = (await lastUsed()).last_used_at as Date;
    expect(Date.now() - stale.getTime()).toBeGreaterThan(50 * 60_000);
    const item = (await list(token)).find((session) => session.current);
    expect(Date.parse(item?.lastActiveAt ?? '')).toBe(stale.getTime());
  });

  it('ends another session: its token answers 401 { action: "logout" } at once; this one stays', async () => {
    const admin = await registeredSchool(t.app, t.db);
    const laptop = await signIn(admin.email, FIREFOX);
    const phone = await signIn(admin.email, IPHONE);
    expect((await data(phone)).statusCode).toBe(200);
    const phoneId = (await list(phone)).find((item) => item.current)?.id ?? 0;

    const ended = await post(t.app, '/api/user/end-session', laptop, { id: phoneId });
    expect(ended.statusCode).toBe(200);
    expect(ended.json()).toEqual({ message: SERVER_TEXT.sessionEnded, ended: 1 });

    const after = await data(phone);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ message: SERVER_TEXT.unauthenticated, action: 'logout' });
    expect((await data(laptop)).statusCode).toBe(200);
    expect((await list(laptop)).map((item) => item.id)).not.toContain(phoneId);
    // Ended already: 404, like any id that is not a live session of yours.
    expect((await post(t.app, '/api/user/end-session', laptop, { id: phoneId })).statusCode).toBe(404);
  });

  it('another person’s session id, in this school or another, answers 404 and ends nothing', async () => {
    const admin = await registeredSchool(t.app, t.db);
    const other = await registeredSchool(t.app, t.db);
    const invited = await invite(t, admin.schoolId, { role: 'teacher' });
    const teacher = (
      await t.app.inject({
        method: 'POST',
        url: '/api/users/set-teacher-password',
        payload: { token: invited.token, password: PASSWORD },
      })
    ).json() as { accessToken: string };

    for (const victim of [other.accessToken, teacher.accessToken]) {
      const id = (await list(victim)).find((item) => item.current)?.id ?? 0;
      const response = await post(t.app, '/api/user/end-session', admin.accessToken, { id });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: SERVER_TEXT.notFound });
      expect((await data(victim)).statusCode).toBe(200);
    }
    expect(
      (await post(t.app, '/api/user/end-session', admin.accessToken, { id: 2_147_483_647 })).statusCode,
    ).toBe(404);
    const bad = await post(t.app, '/api/user/end-session', admin.accessToken, { id: 'seven' });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(['id']);
    const missing = await post(t.app, '/api/user/end-session', admin.accessToken, {});
    expect(missing.statusCode).toBe(422);
    expect(Object.keys(missing.json().errors)).toEqual(['id']);
  });

  it('ends every other session at once, and only the caller’s', async () => {
    const admin = await registeredSchool(t.app, t.db);
    const others = [await signIn(admin.email, FIREFOX), await signIn(admin.email, IPHONE)];
    const here = await signIn(admin.email, FIREFOX);
    const bystander = await registeredSchool(t.app, t.db);

    const ended = await post(t.app, '/api/user/end-other-sessions', here);
    expect(ended.statusCode).toBe(200);
    expect(ended.json()).toEqual({ message: SERVER_TEXT.otherSessionsEnded(3), ended: 3 });
    for (const token of [...others, admin.accessToken]) {
      const response = await data(token);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ action: 'logout' });
    }
    expect((await data(here)).statusCode).toBe(200);
    expect((await data(bystander.accessToken)).statusCode).toBe(200);
    expect((await list(here)).map((item) => item.current)).toEqual([true]);
    // Nothing left to end.
    expect((await post(t.app, '/api/user/end-other-sessions', here)).json()).toMatchObject({ ended: 0 });
  });

  it('a stranger gets 401 on each sessions route', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/user/sessions' })).statusCode).toBe(401);
    for (const url of ['/api/user/end-session', '/api/user/end-other-sessions'])
      expect((await post(t.app, url, null, { id: 1 })).statusCode, url).toBe(401);
  });
});
