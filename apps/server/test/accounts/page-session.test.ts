import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Evening, evening } from '../booking/booking-helpers';
import { bearer } from '../factories';
import { createTestApp, type TestApp } from '../test-app';

// The page cookie (lib/page-session.ts, decision 028): the web app hands its session to the browser's page
// requests, so a signed-in visitor's home arrives with its first answers (and rendered, where the build has
// a renderer). The API never reads it; only the page does, for its own visitor, and a logout ends it.

const FIRST_ANSWERS = /<script type="application\/json" id="parley-first-answers">(.*?)<\/script>/s;
const answersOf = (html: string) => {
  const block = FIRST_ANSWERS.exec(html)?.[1];
  return block === undefined ? undefined : (JSON.parse(block) as Record<string, unknown>);
};

let t: TestApp;
let a: Evening;
let b: Evening;
const dist = mkdtempSync(join(tmpdir(), 'parley-page-session-'));

beforeAll(async () => {
  writeFileSync(join(dist, 'index.html'), '<html><head></head><body><div id="root"></div></body></html>');
  t = await createTestApp({ env: { WEB_DIST: dist } });
  a = await evening(t, { schoolName: 'Page Cookie Academy' });
  b = await evening(t, { schoolName: 'Other Cookie School' });
});
afterAll(async () => {
  await t.close();
  rmSync(dist, { recursive: true, force: true });
});

const keep = (token: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/user/page-session', headers: { ...bearer(token), ...headers } });
const page = (url: string, token?: string) =>
  t.app.inject({ url, headers: token ? { cookie: `theme=dark; parley-page=${token}` } : {} });

describe('the page cookie', () => {
  it("is set from the caller's own session, HttpOnly and SameSite=Lax for as long as a session lives", async () => {
    const res = await keep(a.parent.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['set-cookie']).toBe(
      `parley-page=${a.parent.token}; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax`,
    );
    // Behind an HTTPS proxy, only ever sent over HTTPS.
    const secure = await keep(a.parent.token, { 'x-forwarded-proto': 'https' });
    expect(secure.headers['set-cookie']).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
    // Without a session there is nothing to keep.
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/user/page-session' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['set-cookie']).toBeUndefined();
  });

  it('is never a credential for the API: a request carrying only the cookie is a stranger', async () => {
    for (const url of ['/api/users/data', '/api/site/index']) {
      const res = await t.app.inject({ url, headers: { cookie: `parley-page=${a.parent.token}` } });
      expect(res.statusCode, url).toBe(401);
    }
    const write = await t.app.inject({
      method: 'POST',
      url: '/api/users/update',
      headers: { cookie: `parley-page=${a.parent.token}` },
      payload: { firstName: 'Mallory' },
    });
    expect(write.statusCode).toBe(401);
  });

  it("brings home its visitor's own first answers, never stored, with no token in the page", async () => {
    for (const [school, url] of [
      [a, '/home'],
      [b, '/home/'],
    ] as const) {
      const res = await page(url, school.parent.token);
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('private, no-store');
      const answers = answersOf(res.body);
      const api = (path: string) => t.app.inject({ url: path, headers: bearer(school.parent.token) });
      expect(answers).toMatchObject({
        visitor: school.parent.id,
        siteConfig: (await api('/api/site/config')).json(),
        home: (await api('/api/site/index')).json(),
      });
      expect(JSON.stringify(answers)).toContain(school === a ? 'Page Cookie Academy' : 'Other Cookie School');
      expect(JSON.stringify(answers)).not.toContain(
        school === a ? 'Other Cookie School' : 'Page Cookie Academy',
      );
      expect(res.body).not.toContain(school.parent.token);
    }
  });

  it('brings nothing to other pages, to a cookie that is not ours, or to an ended session, which it forgets', async () => {
    for (const url of ['/', '/auth/login', '/events', `/book/ptevent/NOSUCHCODE`]) {
      const res = await page(url, a.parent.token);
      expect(answersOf(res.body), url).toBeUndefined();
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
    for (const odd of ['', 'x', 'a%00b', '<script>', 'x'.repeat(100_000)]) {
      const res = await page('/home', odd);
      expect(res.statusCode, odd.slice(0, 20)).toBe(200);
      expect(answersOf(res.body)).toBeUndefined();
    }
    const logout = await t.app.inject({
      method: 'POST',
      url: '/api/user/logout',
      headers: bearer(a.otherParent.token),
    });
    expect(logout.statusCode).toBe(200);
    // A logout ends the cookie with the session...
    expect(logout.headers['set-cookie']).toBe('parley-page=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax');
    // ...and a browser that kept it anyway (the logout never arrived) gets the plain page and forgets it.
    const ended = await page('/home', a.otherParent.token);
    expect(answersOf(ended.body)).toBeUndefined();
    expect(ended.headers['cache-control']).toBe('no-cache');
    expect(ended.headers['set-cookie']).toBe('parley-page=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax');
  });
});
