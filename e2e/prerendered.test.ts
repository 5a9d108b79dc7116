import type { Page } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { type Browser, DESKTOP, openBrowser, PHONE, PHONE_USER_AGENT, screenshot } from './browser';
import { logIn, openUserMenu, PASSWORD, schoolThroughApi, waitForPath } from './journeys';
import { expectVisibleFocus, tabTo } from './keyboard';
import { smallSchool } from './school-fixture';

const baseUrl = inject('baseUrl');

/** Holds the requests to matching addresses back until the returned function is called. */
async function holdRequests(page: Page, url: string): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(url, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** Holds the app's scripts back, as a slow phone connection does, until the returned function is called. */
const holdScripts = (page: Page) => holdRequests(page, '**/assets/*.js');

/** Unregisters the app's service worker, which would answer for the held scripts. */
async function withoutServiceWorker(page: Page): Promise<void> {
  await page.evaluate(async () => {
    for (const registration of await navigator.serviceWorker.getRegistrations())
      await registration.unregister();
  });
}

/** Lets the held scripts through: React hydrates the page once the browser is idle, without a gesture. */
async function expectTakenOverWhenIdle(page: Page, release: () => void): Promise<void> {
  release();
  await page.locator('#root[data-prerendered]').waitFor({ state: 'detached' });
  expect(await page.locator('script[type="module"]').count()).toBe(1);
}

// Decision 019: the login page and the booking links arrive prerendered and the app takes them over.
describe('prerendered pages (phone)', () => {
  let browser: Browser;
  afterEach(async () => {
    await browser?.close();
  });

  it('the login page shows before its scripts run; what is typed, tapped and entered meanwhile is kept', async () => {
    const school = await schoolThroughApi(baseUrl, 'Prerendered Primary');
    browser = await openBrowser(PHONE, { isMobile: true });
    const { page } = browser;
    let release = await holdScripts(page);
    await page.goto(`${baseUrl}/auth/login`, { waitUntil: 'commit' });
    await page.getByRole('heading', { name: 'Log in to your school' }).waitFor();
    expect(await page.locator('#root[data-prerendered]').count()).toBe(1);
    await screenshot(page, 'prerendered-01-login-before-the-app');

    await page.getByLabel('Email').fill(school.email);
    await page.getByLabel('Password').fill(PASSWORD);
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const dark = await background();
    await page.getByRole('button', { name: 'Light mode' }).click();
    await page.getByLabel('Password').press('Enter');
    // Nothing happened yet, least of all the browser sending the form (the password in the address).
    expect(page.url()).toBe(`${baseUrl}/auth/login`);
    expect(await background()).toBe(dark);
    expect(await page.getByLabel('Email').inputValue()).toBe(school.email);

    release();
    // The app took the page over with what was typed, then the tap and the Enter: signed in, light theme.
    await waitForPath(page, '/home');
    await expect.poll(background).not.toBe(dark);
    expect(await page.locator('style[data-prerendered]').count()).toBe(0);
    await screenshot(page, 'prerendered-02-signed-in');

    // Signed in (and in the light theme): the prerendered form is not for this visitor and never shows;
    // the app sends them home.
    await withoutServiceWorker(page);
    release = await holdScripts(page);
    await page.goto(`${baseUrl}/auth/login`, { waitUntil: 'commit' });
    await page.locator('#root[data-prerendered]').waitFor({ state: 'attached' });
    expect(await page.getByRole('heading', { name: 'Log in to your school' }).isVisible()).toBe(false);
    release();
    await waitForPath(page, '/home');
  });

  it('a booking link arrives rendered for its family, is hydrated when idle, and the box a tap unticks stays unticked', async () => {
    const school = await smallSchool(baseUrl, `rendered${Date.now()}`);
    browser = await openBrowser(PHONE, { isMobile: true, userAgent: PHONE_USER_AGENT });
    const { page } = browser;
    const release = await holdScripts(page);
    await page.goto(school.bookingLink, { waitUntil: 'commit' });
    // Painted from the server's HTML, before any script: who is booking and the teachers to tick, in the
    // phone's layout; the personal link already out of the address.
    await page.getByText('Booking as Pat Rowe (from your invitation link)').waitFor();
    expect(await page.locator('#root[data-prerendered="when-idle"]').count()).toBe(1);
    expect(await page.locator('html.prerendered-stale').count()).toBe(0);
    expect(new URL(page.url()).searchParams.has('link')).toBe(false);
    const art = page.getByRole('checkbox', { name: new RegExp(school.artTeacher.name) });
    expect(await art.isChecked()).toBe(true);
    await screenshot(page, 'prerendered-03-booking-before-the-app');

    // The app's files arrive and React hydrates the page while the visitor reads it: the same elements.
    const box = await art.elementHandle();
    await expectTakenOverWhenIdle(page, release);
    expect(await art.evaluate((element, before) => element === before, box)).toBe(true);
    // The first tap unticks a teacher, and the app has it unticked.
    await art.click();
    await expect.poll(() => art.isChecked()).toBe(false);
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => page.getByRole('tab', { name: 'Arrange for me' }).isVisible()).toBe(true);
    await screenshot(page, 'prerendered-04-booking-taken-over');
  });

  it("a parent's home arrives rendered for them and is hydrated when idle; another visitor never sees it", async () => {
    const school = await smallSchool(baseUrl, `home${Date.now()}`);
    // Without the service worker: once the app has run, it would answer for the scripts held back below.
    browser = await openBrowser(PHONE, {
      isMobile: true,
      userAgent: PHONE_USER_AGENT,
      serviceWorkers: 'block',
    });
    const { page } = browser;
    await logIn(page, baseUrl, school.parent.email, PASSWORD);
    // The sign-in handed the session to this browser's page requests, in a cookie no script can read.
    const pageCookie = async () =>
      (await page.context().cookies()).find((cookie) => cookie.name === 'parley-page' && cookie.value);
    await expect.poll(async () => (await pageCookie())?.httpOnly).toBe(true);
    expect((await pageCookie())?.sameSite).toBe('Lax');

    let release = await holdScripts(page);
    // The server slow to confirm the session: the app takes the page over while it is still checking.
    const confirmUser = await holdRequests(page, '**/api/users/data');
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${baseUrl}/home`, { waitUntil: 'commit' });
    // Painted from the server's HTML, before any script: the parent's own home, in the phone's layout.
    await page.getByText('Welcome, Pat').waitFor();
    await page.getByText(school.eventName).first().waitFor();
    expect(await page.locator('#root[data-prerendered="when-idle"]').count()).toBe(1);
    expect(await page.locator('html.prerendered-stale').count()).toBe(0);
    const welcome = await page.getByText('Welcome, Pat').elementHandle();
    await screenshot(page, 'prerendered-06-home-before-the-app');
    // Started, the app checks the stored user with the server and hands its session to the page requests
    // again; the first tap opens the menu.
    const keptAgain = page.waitForResponse((answer) => answer.url().endsWith('/api/user/page-session'));
    await expectTakenOverWhenIdle(page, release);
    // Hydrated, not drawn again (a tap held for an element drawn again would be lost): the progress bar
    // of the session check waited for the hydration rather than break it (React's error 418).
    expect(await welcome?.evaluate((element) => element.isConnected)).toBe(true);
    expect(pageErrors).toEqual([]);
    await page.getByRole('progressbar', { name: 'Loading' }).waitFor();
    confirmUser();
    await openUserMenu(page, true);
    await page.getByRole('menuitem', { name: 'Logout' }).waitFor();
    await screenshot(page, 'prerendered-07-home-taken-over');

    // Another user's session in this browser's storage (the cookie still the parent's): the page is not
    // theirs, so it stays hidden and the app draws their own at once.
    await page.keyboard.press('Escape');
    expect((await keptAgain).status()).toBe(200);
    release = await holdScripts(page);
    await page.evaluate(() => {
      const user = JSON.parse(localStorage.getItem('currentUser') ?? '{}') as { id: number };
      localStorage.setItem('currentUser', JSON.stringify({ ...user, id: user.id + 1 }));
    });
    await page.goto(`${baseUrl}/home`, { waitUntil: 'commit' });
    await page.locator('#root[data-prerendered]').waitFor({ state: 'attached' });
    expect(await page.locator('html.prerendered-stale').count()).toBe(1);
    expect(await page.getByText('Welcome, Pat').isVisible()).toBe(false);
    release();
    await page.locator('#root[data-prerendered]').waitFor({ state: 'detached' });

    // Logging out ends the cookie too: home is then the plain page, with no one's data in it.
    await page.unrouteAll();
    await openUserMenu(page, true);
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await waitForPath(page, '/auth/login');
    await expect.poll(pageCookie).toBeUndefined();
    const answer = await page.request.get(`${baseUrl}/home`);
    expect(await answer.text()).not.toContain('Pat');
  });

  it('a keyboard visitor sees where the focus is on the rendered page, and still once the app has taken over', async () => {
    const school = await smallSchool(baseUrl, `focus${Date.now()}`);
    browser = await openBrowser(DESKTOP);
    const { page } = browser;
    const release = await holdScripts(page);
    await page.goto(school.bookingLink, { waitUntil: 'commit' });
    const art = page.getByRole('checkbox', { name: new RegExp(school.artTeacher.name) });
    // No script has run: the browser's own focus marks each stop (tabTo checks the ring at each).
    await tabTo(page, art);
    expect(await page.locator('#root[data-prerendered]').count()).toBe(1);
    await screenshot(page, 'prerendered-05-focus-before-the-app', { fullPage: false });
    release();
    await page.locator('#root[data-prerendered]').waitFor({ state: 'detached' });
    // The app took over with the box still focused, and marks it as the keyboard's: Space unticks it.
    await expectVisibleFocus(page, 'the box focused before the app ran');
    await page.keyboard.press('Space');
    await expect.poll(() => art.isChecked()).toBe(false);
    await expectVisibleFocus(page, 'the box unticked');
  });
});
