import { afterEach, describe, expect, inject, it } from 'vitest';
import { type Browser, DESKTOP, openBrowser, PHONE, screenshot } from './browser';
import { logIn, PASSWORD, schoolThroughApi } from './journeys';

const baseUrl = inject('baseUrl');

// Settings → Push notifications (issue 12): the card is there and a push preference saves to the server.
describe.each([
  ['desktop', DESKTOP, false],
  ['phone', PHONE, true],
] as const)('push settings (%s)', (label, viewport, phone) => {
  let browser: Browser;
  afterEach(async () => {
    await browser?.close();
  });

  it('shows the push card and saves a push preference', async () => {
    const school = await schoolThroughApi(baseUrl, `Push ${label} School`);
    browser = await openBrowser(viewport, { isMobile: phone });
    const { page } = browser;
    await logIn(page, baseUrl, school.email, PASSWORD);
    await page.goto(`${baseUrl}/settings`);
    await expect.poll(() => page.getByText('Push notifications', { exact: true }).isVisible()).toBe(true);
    const reminders = page.getByLabel('Reminders: to book, and the day before a booking', { exact: true });
    await expect.poll(() => reminders.isChecked()).toBe(true);
    await reminders.click();
    await expect
      .poll(async () => {
        const settings = (await (await school.get('users/settings')).json()) as {
          groupedSettings: { push: { reminders: boolean } };
        };
        return settings.groupedSettings.push.reminders;
      })
      .toBe(false);
    await screenshot(page, `${label}-push-settings`);
  });
});
