import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Browser, DESKTOP, openBrowser, PHONE, screenshot } from './browser';
import { linkFromMailboxApi, schoolThroughApi, uniqueEmail } from './journeys';

const baseUrl = inject('baseUrl');

// Issue 9: the app under its security headers, in Chromium. Every journey already fails on a CSP
// violation (e2e/browser.ts); these check what the headers are for.

/** Another site (another origin: localhost, not 127.0.0.1, and its own port), recording what it is sent. */
let other: Server;
let otherUrl = '';
const seen: Array<{ path: string; headers: IncomingHttpHeaders }> = [];

beforeAll(async () => {
  other = createServer((request, response) => {
    seen.push({ path: request.url ?? '', headers: request.headers });
    response.setHeader('content-type', 'text/html; charset=utf-8');
    if (request.url === '/frame-app') {
      response.end(
        `<!doctype html><title>framer</title><iframe name="app" src="${baseUrl}/auth/login"></iframe>`,
      );
    } else if (request.url === '/frame-own') {
      response.end('<!doctype html><title>framer</title><iframe name="own" src="/hello"></iframe>');
    } else response.end('<!doctype html><title>hello</title><p>hello from elsewhere</p>');
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherUrl = `http://localhost:${(other.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => other.close(resolve)));

async function ok<T>(response: Promise<Response>): Promise<T> {
  const res = await response;
  const body = await res.text();
  expect(res.status, body).toBe(200);
  return JSON.parse(body) as T;
}

/** A parent-teacher evening with one invited family; returns the parent's personal booking link. */
async function bookingLink(): Promise<{ link: string; parentName: string }> {
  const admin = await schoolThroughApi(baseUrl, 'Headers School');
  const post = <T>(path: string, body: unknown) => ok<T>(admin.post(path, body));
  const { id: subjectId } = await post<{ id: number }>('subjects/create', { name: 'Maths' });
  const { id: teacherId } = await post<{ id: number }>('users/create-teacher', {
    title: 'Ms',
    firstName: 'Mina',
    lastName: 'Hall',
    email: uniqueEmail('teacher'),
    subjectIds: [subjectId],
    sendInvite: false,
  });
  const parentEmail = uniqueEmail('parent');
  const { id: parentId } = await post<{ id: number }>('users/create-parent', {
    firstName: 'Pat',
    lastName: 'Rowe',
    email: parentEmail,
    sendInvite: false,
  });
  await post('users/create-student', {
    firstName: 'Rosa',
    lastName: 'Rowe',
    email: uniqueEmail('student'),
    sendInvite: false,
    parentIds: [parentId],
    subjects: [{ subjectId, teacherId }],
  });
  const { eventTypes } = await ok<{ eventTypes: Array<{ id: number; groupInt: number }> }>(
    admin.get('events/index'),
  );
  const { id: eventId } = await post<{ id: number }>('events/create', {
    name: 'Headers evening',
    eventTypeId: eventTypes.find((type) => type.groupInt === 1)?.id,
  });
  await post(`events/update?id=${eventId}`, { status: 1, slotMinutes: 10 });
  await post(`events/create-section?eventId=${eventId}`, {
    date: new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10),
    start: '16:00',
    end: '17:00',
    location: 'Main hall',
    teachers: [{ teacherId }],
  });
  await post(`events/add-recipients?eventId=${eventId}&saveme=1`, { userIds: [parentId] });
  await post(`message-types/send?eventId=${eventId}`, { messageTypeName: 'inviteToBook' });
  return { link: await linkFromMailboxApi(baseUrl, parentEmail), parentName: 'Pat Rowe' };
}

/** Follows a link to the other site the way a person clicks one, and returns the Referer it was sent. */
async function refererOfClickAway(browser: Browser, path: string): Promise<string | undefined> {
  const { page } = browser;
  await page.evaluate((href) => {
    const link = document.createElement('a');
    link.href = href;
    link.textContent = 'away';
    document.body.append(link);
    link.click();
  }, `${otherUrl}${path}`);
  await page.waitForURL((url) => url.pathname === path);
  return seen.find((request) => request.path === path)?.headers.referer;
}

describe('security headers in the browser', () => {
  let browser: Browser | undefined;
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail' && browser)
      await screenshot(browser.page, `failed-security-${task.name.slice(0, 40)}`);
    await browser?.close();
    browser = undefined;
  });

  it('another site cannot frame the app, though it can frame its own page', async () => {
    browser = await openBrowser(DESKTOP, { allowCspViolations: true });
    const { page } = browser;

    // The control: the same kind of frame with a page of the framing site itself loads.
    await page.goto(`${otherUrl}/frame-own`);
    await expect
      .poll(() => page.frameLocator('iframe[name="own"]').locator('p').textContent())
      .toBe('hello from elsewhere');

    await page.goto(`${otherUrl}/frame-app`);
    expect(await page.locator('iframe[name="app"]').count()).toBe(1);
    // Give the app every chance to load (it would show the login form within a second).
    await page.waitForTimeout(1500);
    const frames = page.frames().filter((frame) => frame !== page.mainFrame());
    expect(frames.length).toBe(1);
    for (const frame of frames) {
      expect(frame.url()).not.toMatch(/^http:\/\/127\.0\.0\.1/); // Chromium's error page instead
      expect(await frame.locator('input').count()).toBe(0);
    }
    expect(
      await page.frameLocator('iframe[name="app"]').getByRole('button', { name: 'Log In' }).count(),
    ).toBe(0);
  });

  it('the booking link leaves the address bar, the booking page still works (also after a reload), and sends no Referer', async () => {
    const { link, parentName } = await bookingLink();
    expect(new URL(link).searchParams.get('link')).toBeTruthy();
    browser = await openBrowser(DESKTOP);
    const { page } = browser;

    const response = await page.goto(link);
    expect(response?.headers()['referrer-policy']).toBe('no-referrer');
    expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    await page.waitForURL(
      (url) => url.pathname.startsWith('/book/ptevent/') && !url.searchParams.has('link'),
    );
    const booking = page.getByText(`Booking as ${parentName} (from your invitation link)`);
    await expect.poll(() => booking.isVisible()).toBe(true);
    expect(page.url()).not.toContain('link=');
    expect(await page.evaluate(() => location.search)).toBe('');

    // The grid is still ours to book from (the token travels in a header, from the tab's store).
    await expect.poll(() => page.getByRole('checkbox', { name: /Mina Hall/ }).isChecked()).toBe(true);
    await page.reload();
    await expect.poll(() => booking.isVisible()).toBe(true);

    // The address no longer holds the token, and the page was served with no-referrer anyway.
    await page.goto(link);
    await expect.poll(() => booking.isVisible()).toBe(true);
    expect(await refererOfClickAway(browser, '/video-call')).toBeUndefined();
  });

  it('a page without a token hands over only the origin', async () => {
    browser = await openBrowser(DESKTOP);
    const { page } = browser;
    const response = await page.goto(`${baseUrl}/auth/login`);
    expect(response?.headers()['referrer-policy']).toBe('strict-origin-when-cross-origin');
    await expect.poll(() => page.getByRole('button', { name: 'Log In' }).isVisible()).toBe(true);
    expect(await refererOfClickAway(browser, '/from-login')).toBe(`${baseUrl}/`);
  });

  it('Swagger UI works under its policy', async () => {
    browser = await openBrowser(DESKTOP);
    const { page } = browser;
    const response = await page.goto(`${baseUrl}/api/docs`);
    expect(response?.headers()['x-frame-options']).toBe('DENY');
    await expect.poll(() => page.getByText('Parley API').first().isVisible()).toBe(true);
    await expect.poll(() => page.getByText('/api/user/login').first().isVisible()).toBe(true);
    // An operation opens, with its highlighted example answers (more of Swagger UI under the policy).
    await page.getByText('/api/site/verify-email', { exact: true }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Try it out' }).isVisible()).toBe(true);
    // Swagger UI is a third-party developer tool, not a screen of the product: out of the axe check.
    await screenshot(page, 'security-api-docs', { fullPage: false, axe: false });
  });

  it.each([
    ['desktop', DESKTOP, false],
    ['phone', PHONE, true],
  ] as const)('the login page is styled under the CSP (%s)', async (label, viewport, phone) => {
    browser = await openBrowser(viewport, { isMobile: phone });
    const { page } = browser;
    await page.goto(`${baseUrl}/auth/login`);
    const button = page.getByRole('button', { name: 'Log In' });
    await expect.poll(() => button.isVisible()).toBe(true);

    // Emotion's <style> tags carry the page's nonce (the browser hides the attribute, not the property).
    const styles = await page.evaluate(() => {
      const meta = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]');
      const tags = [...document.querySelectorAll<HTMLStyleElement>('style[data-emotion]')];
      return {
        nonce: meta?.nonce ?? '',
        attribute: meta?.getAttribute('nonce'),
        tags: tags.length,
        withNonce: tags.filter((tag) => tag.nonce && tag.nonce === meta?.nonce).length,
        rules: tags.reduce((sum, tag) => sum + (tag.sheet?.cssRules.length ?? 0), 0),
        body: getComputedStyle(document.body).backgroundColor,
        font: getComputedStyle(document.body).fontFamily,
      };
    });
    expect(styles.nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(styles.attribute).toBe('');
    expect(styles.tags).toBeGreaterThan(0);
    expect(styles.withNonce).toBe(styles.tags);
    expect(styles.rules).toBeGreaterThan(20);
    expect(styles.body).toBe('rgb(18, 18, 18)'); // MUI's dark background, from CssBaseline
    expect(styles.font).toContain('Roboto');
    // MUI's contained button (disabled until the form is filled): its own look, not the browser's grey box.
    const look = await button.evaluate((element) => {
      const style = getComputedStyle(element);
      return { radius: style.borderRadius, weight: style.fontWeight, background: style.backgroundColor };
    });
    expect(look).toEqual({ radius: '8px', weight: '600', background: 'rgba(255, 255, 255, 0.12)' });
    await page.waitForTimeout(300);
    await screenshot(page, `security-${label}-login`);
  });
});
