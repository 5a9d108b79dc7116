import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_APP_NAME } from '@parley/domain/constants';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServer } from '../apps/server/test/server-process';
import { APP_UPDATE_TEXT } from '../apps/web/src/features/app-update/app-update-text';
import { type Browser, DESKTOP, openBrowser, PHONE, screenshot } from './browser';
import { logIn, PASSWORD, schoolThroughApi } from './journeys';

// Issue 12: the installable app in Chromium. Its own server serves a copy of the build, so a test can
// deploy a "new version" into it while a tab is open.

let server: ServerProcess;
let dist = '';

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'parley-pwa-dist-'));
  cpSync('apps/web/dist', dist, { recursive: true });
  server = await startServer({ WEB_DIST: dist, TRUST_PROXY: '127.0.0.1' }); // journeys.ts: a proxy on this host
});
afterAll(async () => {
  await server?.stop();
  rmSync(dist, { recursive: true, force: true });
});

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

async function signedIn(
  browser: Browser,
  label: string,
  before?: (admin: Awaited<ReturnType<typeof schoolThroughApi>>) => Promise<void>,
) {
  const admin = await schoolThroughApi(server.url, `PWA ${label} School`);
  await before?.(admin);
  await logIn(browser.page, server.url, admin.email, PASSWORD);
}

/** An event and a teacher through the API, so the admin's home has figures of its own to cache. */
async function homeWorthCaching(admin: Awaited<ReturnType<typeof schoolThroughApi>>, label: string) {
  const { eventTypes } = (await (await admin.get('events/index')).json()) as {
    eventTypes: Array<{ id: number; groupInt: number }>;
  };
  const created = await admin.post('events/create', {
    name: `Offline evening ${label}`,
    eventTypeId: eventTypes.find((type) => type.groupInt === 1)?.id,
  });
  expect(created.status).toBe(200);
  const teacher = await admin.post('users/create-teacher', {
    firstName: 'Tess',
    lastName: 'Cached',
    email: `tess.${Date.now()}.${label}@example.org`,
    sendInvite: false,
  });
  expect(teacher.status).toBe(200);
}

describe('the installable app', () => {
  it('links a manifest Chromium parses and finds installable', async () => {
    const browser = await openBrowser(DESKTOP);
    try {
      const { page } = browser;
      const warnings: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'warning') warnings.push(message.text());
      });
      await page.goto(`${server.url}/auth/login`);
      const href = await page.locator('link[rel="manifest"]').getAttribute('href');
      expect(href).toBe('/manifest.webmanifest');
      const response = await page.request.get(`${server.url}${href}`);
      expect(response.headers()['cache-control']).toBe('no-cache');
      const manifest = await response.json();
      expect(manifest).toMatchObject({
        name: DEFAULT_APP_NAME,
        short_name: DEFAULT_APP_NAME,
        start_url: '/',
        scope: '/',
        display: 'standalone',
        theme_color: '#121212',
        background_color: '#121212',
      });
      const icons = manifest.icons as Array<{ src: string; sizes: string; purpose: string }>;
      expect(icons.map((icon) => `${icon.sizes} ${icon.purpose}`)).toEqual([
        '192x192 any',
        '512x512 any',
        '512x512 maskable',
      ]);
      for (const icon of [...icons, { src: '/icons/apple-touch-icon-180.png' }]) {
        const image = await page.request.get(`${server.url}${icon.src}`);
        expect(image.status(), icon.src).toBe(200);
        expect(image.headers()['content-type']).toBe('image/png');
      }
      expect(await page.locator('link[rel="apple-touch-icon"]').getAttribute('href')).toBe(
        '/icons/apple-touch-icon-180.png',
      );
      expect(await page.locator('meta[name="theme-color"]').getAttribute('content')).toBe('#121212');
      // The standard tag, not Apple's deprecated one, which Chromium warns about in every console (issue 36).
      expect(await page.locator('meta[name="mobile-web-app-capable"]').getAttribute('content')).toBe('yes');
      expect(warnings.filter((text) => /deprecated/i.test(text))).toEqual([]);

      // The login page runs the app (which registers the worker) once the page is idle.
      await controlledBy(page);
      const cdp = await page.context().newCDPSession(page);
      const parsed = (await cdp.send('Page.getAppManifest')) as {
        url: string;
        errors: Array<{ message: string }>;
        manifestId?: string;
      };
      expect(parsed.url).toBe(`${server.url}/manifest.webmanifest`);
      expect(parsed.errors).toEqual([]);
      const installability = (await cdp.send('Page.getInstallabilityErrors')) as {
        installabilityErrors: Array<{ errorId: string }>;
      };
      expect(installability.installabilityErrors).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  for (const [label, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`opens without a network from its service worker, and says it is offline (${label})`, async () => {
      const browser = await openBrowser(viewport, { isMobile: label === 'phone' });
      try {
        const { page, context } = browser;
        await signedIn(browser, `Offline ${label}`, (admin) => homeWorthCaching(admin, label));
        expect(await controlledBy(page)).toBe(`${server.url}/service-worker.js`);
        const shell = page.getByRole('button', { name: label === 'phone' ? 'Open menu' : 'Open user menu' });
        await shell.waitFor();
        // Home with its figures, fetched online: a teacher and an event, so not all zeros.
        const counts = page.getByRole('list', { name: 'Counts' });
        await expect.poll(() => counts.innerText()).toMatch(/[1-9]/);
        const figures = await counts.innerText();
        await expect(page.getByText(APP_UPDATE_TEXT.offline).isVisible()).resolves.toBe(false);

        await context.setOffline(true);
        // Offline for the service worker too, not only the page: its network-first navigation must fail.
        const [worker] = context.serviceWorkers();
        expect(worker).toBeTruthy();
        expect(
          await worker?.evaluate(() =>
            fetch('/api/site/config', { cache: 'no-store' }).then(
              () => 'online',
              () => 'offline',
            ),
          ),
        ).toBe('offline');

        const answer = await page.reload();
        expect(answer?.fromServiceWorker()).toBe(true);
        expect(page.url()).not.toMatch(/^chrome-error:/);
        await page.getByText(APP_UPDATE_TEXT.offline).waitFor();
        await shell.waitFor();
        // The cached home (spec §4: kept for four hours, persisted): the same figures, without a network.
        await expect.poll(() => counts.innerText()).toBe(figures);
        await page.waitForTimeout(500); // the notice's entry transition
        await screenshot(page, `pwa-offline-${label}`, { fullPage: false });

        await context.setOffline(false);
        await page.getByText(APP_UPDATE_TEXT.offline).waitFor({ state: 'hidden' });
      } finally {
        await browser.close();
      }
    });
  }

  it('prompts for a new version deployed while a tab is open, and Reload switches to it', async () => {
    const browser = await openBrowser(PHONE, { isMobile: true });
    try {
      const { page, context } = browser;
      await signedIn(browser, 'Update');
      await controlledBy(page);
      await expect(page.getByText(APP_UPDATE_TEXT.ready).isVisible()).resolves.toBe(false);

      // A new deployment: a changed page and service worker (a build writes new bytes into both).
      const index = join(dist, 'index.html');
      writeFileSync(
        index,
        readFileSync(index, 'utf8').replace('<head>', '<head><meta name="parley-build" content="2">'),
      );
      appendFileSync(join(dist, 'service-worker.js'), '\nself.parleyBuild = 2;\n');
      await page.evaluate(() => {
        (window as { beforeUpdate?: boolean }).beforeUpdate = true;
      });
      await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());

      await page.getByText(APP_UPDATE_TEXT.ready).waitFor();
      // Waiting, not yet in charge: the open tab still runs the old version.
      expect(
        await page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.waiting)),
      ).toBe(true);
      await page.waitForTimeout(500); // the snackbar's entry transition
      await screenshot(page, 'pwa-update-phone', { fullPage: false });
      await page.setViewportSize(DESKTOP);
      await screenshot(page, 'pwa-update-desktop', { fullPage: false });

      await Promise.all([
        page.waitForEvent('load'),
        page.getByRole('button', { name: APP_UPDATE_TEXT.reload }).click(),
      ]);
      await page.locator('meta[name="parley-build"]').waitFor({ state: 'attached' });
      expect(await page.evaluate(() => (window as { beforeUpdate?: boolean }).beforeUpdate)).toBeUndefined();
      const state = await page.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        return {
          waiting: Boolean(registration?.waiting),
          controlledByActive: navigator.serviceWorker.controller === registration?.active,
        };
      });
      expect(state).toEqual({ waiting: false, controlledByActive: true });
      // The worker in charge is the new one.
      const builds = await Promise.all(
        context
          .serviceWorkers()
          .map((worker) => worker.evaluate(() => (self as { parleyBuild?: number }).parleyBuild)),
      );
      expect(builds).toContain(2);
      await expect(page.getByText(APP_UPDATE_TEXT.ready).isVisible()).resolves.toBe(false);
    } finally {
      await browser.close();
    }
  });
});
