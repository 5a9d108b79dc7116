import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BookingPage } from '@parley/domain/booking';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from '../directory/directory-helpers';
import { lastMailTo } from '../mailbox';
import { createTestApp, type TestApp } from '../test-app';
import { type Evening, evening } from './booking-helpers';

// A booking link's page arrives with the answers its first render needs (plugins/web-app.ts, decision 019):
// the site's settings and the booking page for its code and personal link, exactly as the API gives them
// to the link's holder, in a JSON block no text of theirs can close.

const FIRST_ANSWERS = /<script type="application\/json" id="parley-first-answers">(.*?)<\/script>/s;
const HOSTILE = 'Evening </script><script>alert(1)</script> <!-- & "quotes"';

let t: TestApp;
let e: Evening;
let link: string;
const dist = mkdtempSync(join(tmpdir(), 'parley-first-answers-'));

beforeAll(async () => {
  const document = '<html><head></head><body><div id="root"></div></body></html>';
  writeFileSync(join(dist, 'index.html'), document);
  mkdirSync(join(dist, '.prerendered'));
  writeFileSync(join(dist, '.prerendered', 'book-ptevent.html'), document);
  t = await createTestApp({ env: { WEB_DIST: dist } });
  e = await evening(t);
  const { token } = e.admin;
  expectStatus(await e.http.post(`events/update?id=${e.eventId}`, token, { name: HOSTILE }), 200);
  expectStatus(
    await e.http.post(`events/add-recipients?eventId=${e.eventId}&saveme=1`, token, {
      userIds: [e.parent.id],
    }),
    200,
  );
  expectStatus(
    await e.http.post(`message-types/send?eventId=${e.eventId}`, token, { messageTypeName: 'inviteToBook' }),
    200,
  );
  const mailed = new URL((await lastMailTo(t.db, e.parent.email))?.links[0] ?? '');
  link = mailed.searchParams.get('link') ?? '';
  expect(link).not.toBe('');
});
afterAll(async () => {
  await t.close();
  rmSync(dist, { recursive: true, force: true });
});

const answersOf = (html: string) => {
  const block = FIRST_ANSWERS.exec(html)?.[1];
  return block === undefined ? undefined : (JSON.parse(block) as Record<string, unknown>);
};

describe('a booking link arrives with its first answers', () => {
  it('carries the page the link opens and the site settings, as the API answers them, never stored', async () => {
    const res = await t.app.inject({ url: `/book/ptevent/${e.code}?link=${link}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const answers = answersOf(res.body);
    const api = await t.app.inject({
      url: `/api/events/book-event?code=${e.code}`,
      headers: { 'x-booking-link': link },
    });
    const page = expectStatus<BookingPage>(api, 200);
    expect(page.viewer).toMatchObject({ userId: e.parent.id, viaLink: true });
    expect(answers).toMatchObject({
      siteConfig: (await t.app.inject({ url: '/api/site/config' })).json(),
      bookingPage: { code: e.code, link, answer: page },
    });
    expect(Math.abs(Date.now() - Number(answers?.at))).toBeLessThan(60_000);
  });

  it('keeps what the family typed into an event name as text: nothing in it closes the block', async () => {
    const res = await t.app.inject({ url: `/book/ptevent/${e.code}?link=${link}` });
    expect(res.body).not.toContain('</script><script>');
    expect(res.body).not.toContain('<!--');
    expect(res.body.match(/<\/script>/g)).toHaveLength(1);
    const answers = answersOf(res.body) as { bookingPage: { answer: BookingPage } };
    expect(answers.bookingPage.answer.event.name).toBe(HOSTILE);
  });

  it('carries nothing when the page would not load, and nothing on other pages', async () => {
    for (const url of ['/book/ptevent/NOSUCHCODE?link=x', '/book/event/NOSUCHCODE', '/home', '/auth/login']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode).toBe(200);
      expect(answersOf(res.body), url).toBeUndefined();
      expect(res.headers['cache-control']).toBe('no-cache');
    }
    // A link that is no link (a line break, a lone surrogate, 100 KB) is not sent on: the page as a
    // stranger sees it. (A NUL is refused with the address, as everywhere: 422.)
    expect((await t.app.inject({ url: `/book/ptevent/${e.code}?link=a%00b` })).statusCode).toBe(422);
    for (const odd of ['a%0D%0AX-Evil:%201', 'a%ED%A0%80b', 'x'.repeat(100_000)]) {
      const res = await t.app.inject({ url: `/book/ptevent/${e.code}?link=${odd}` });
      expect(res.statusCode, odd.slice(0, 20)).toBe(200);
      const answers = answersOf(res.body) as { bookingPage: { link: string | null; answer: BookingPage } };
      expect(answers.bookingPage.link).toBeNull();
      expect(answers.bookingPage.answer.viewer).toBeNull();
    }
    // An address no browser could have made is refused before it is read (400, never a 500).
    expect((await t.app.inject({ url: '/book/ptevent/%E0%A4%A' })).statusCode).toBe(400);
    // HEAD answers as GET would, without asking anything.
    const head = await t.app.inject({ method: 'HEAD', url: `/book/ptevent/${e.code}?link=${link}` });
    expect(head.statusCode).toBe(200);
  });
});
