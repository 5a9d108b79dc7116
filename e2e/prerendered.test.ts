import type { Page } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { type Browser, openBrowser, PHONE, screenshot } from './browser';
import { PASSWORD, schoolThroughApi, waitForPath } from './journeys';

const baseUrl = inject('baseUrl');

/** Holds the app's scripts back, as a slow phone connection does, until the returned function is called. */
async function holdScripts(page: Page): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/assets/*.js', async (route) => {
    await held;
    await route.continue();
  });
  return release;
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
    // the app sends them home. (Without the service worker, which would answer for the scripts.)
    await page.evaluate(async () => {
      for (const registration of await navigator.serviceWorker.getRegistrations())
        await registration.unregister();
    });
    release = await holdScripts(page);
    await page.goto(`${baseUrl}/auth/login`, { waitUntil: 'commit' });
    await page.locator('#root[data-prerendered]').waitFor({ state: 'attached' });
    expect(await page.getByRole('heading', { name: 'Log in to your school' }).isVisible()).toBe(false);
    release();
    await waitForPath(page, '/home');
  });
});
