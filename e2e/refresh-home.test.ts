import type { Page } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { type Browser, DESKTOP, openBrowser, screenshot } from './browser';
import { logIn, PASSWORD, schoolThroughApi, uniqueEmail } from './journeys';

const baseUrl = inject('baseUrl');

// Issue 12 / spec §4: a push with action refresh_home makes an open home page fetch its data again. The
// push is a real one, delivered to the service worker through DevTools (no push service in a test).

/** Resolves once a service worker controls the page (the first install claims the open page). */
async function controlledBy(page: Page): Promise<string> {
  return page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((resolve) =>
        navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }),
      );
    }
    return navigator.serviceWorker.controller?.scriptURL ?? '';
  });
}

/** Sends a push with this payload to the page's service worker, as a push service would. */
async function pushTo(page: Page, payload: unknown): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const scope = `${baseUrl}/`;
  const registrationId = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const ours = registrations.find(
        (registration) => registration.scopeURL === scope && !registration.isDeleted,
      );
      if (ours) resolve(ours.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: baseUrl,
    registrationId: await registrationId,
    data: JSON.stringify(payload),
  });
  await cdp.detach();
}

describe('refresh_home push', () => {
  let browser: Browser;
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail' && browser) await screenshot(browser.page, 'failed-refresh-home');
    await browser?.close();
  });

  it('refetches the open home page without reloading it, and nothing refetches without the push', async () => {
    const admin = await schoolThroughApi(baseUrl, 'Refresh Home School');
    browser = await openBrowser(DESKTOP);
    const { page } = browser;
    await logIn(page, baseUrl, admin.email, PASSWORD);
    expect(await controlledBy(page)).toBe(`${baseUrl}/service-worker.js`);

    const parents = page
      .getByRole('list', { name: 'Counts' })
      .getByRole('listitem')
      .filter({ hasText: 'Parents' })
      .locator('p');
    await expect
      .poll(async () => /^\d+$/.test((await parents.textContent()) ?? ''), { timeout: 10_000 })
      .toBe(true);
    const before = Number(await parents.textContent());

    let homeRequests = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/site/index') homeRequests += 1;
    });
    let navigations = 0;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations += 1;
    });
    await page.evaluate(() => {
      (window as { beforePush?: boolean }).beforePush = true;
    });

    // Something home shows changes on the server: alone, the open page neither asks nor shows it.
    const created = await admin.post('users/create-parent', {
      email: uniqueEmail('refresh.parent'),
      firstName: 'Rae',
      lastName: 'Fresh',
      sendInvite: false,
    });
    expect(created.status).toBe(200);
    await page.waitForTimeout(1_500);
    expect(homeRequests).toBe(0);
    expect(await parents.textContent()).toBe(String(before));

    await pushTo(page, { action: 'refresh_home' });
    await expect.poll(() => homeRequests, { timeout: 10_000 }).toBeGreaterThan(0);
    await expect.poll(() => parents.textContent(), { timeout: 10_000 }).toBe(String(before + 1));
    expect(navigations).toBe(0);
    expect(await page.evaluate(() => (window as { beforePush?: boolean }).beforePush)).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/home');
    await screenshot(page, 'refresh-home-after-push');
  });
});
