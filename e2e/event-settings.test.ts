import { afterEach, describe, expect, inject, it } from 'vitest';
import { type Browser, DESKTOP, openBrowser, PHONE, screenshot } from './browser';
import { logIn, PASSWORD, schoolThroughApi } from './journeys';

const baseUrl = inject('baseUrl');

// Decision 020, one clock style: the booking window of an event's settings is typed as a date and a time on
// the 24-hour clock, in a browser whose locale would show a 12-hour picker ("--:-- --" in en-US).

describe('event settings: the booking window on the 24-hour clock', () => {
  let browser: Browser | undefined;
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail' && browser) await screenshot(browser.page, 'failed-event-settings');
    await browser?.close();
  });

  it('takes "0800" and "1830", tidies them to 08:00 and 18:30 and saves the window', async () => {
    const admin = await schoolThroughApi(baseUrl, 'Clock Style School');
    const { eventTypes } = (await (await admin.get('events/index')).json()) as {
      eventTypes: Array<{ id: number; groupInt: number }>;
    };
    const created = await admin.post('events/create', {
      name: 'Spring consultations',
      eventTypeId: eventTypes.find((type) => type.groupInt === 1)?.id,
    });
    const { id } = (await created.json()) as { id: number };

    for (const [label, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      browser = await openBrowser(viewport, { isMobile: label === 'phone', args: ['--lang=en-US'] });
      const { page } = browser;
      await logIn(page, baseUrl, admin.email, PASSWORD);
      await page.goto(`${baseUrl}/events/view/${id}`);
      const settings = page.locator('form', { has: page.getByLabel('Booking opens') });
      const opensTime = settings.getByRole('textbox', { name: 'Opens at' });
      const closesTime = settings.getByRole('textbox', { name: 'Closes at' });
      if (label === 'desktop') {
        await settings.getByLabel('Booking opens').fill('2026-03-01');
        await opensTime.fill('0800');
        await settings.getByLabel('Booking closes').fill('2026-03-11');
        await closesTime.fill('1830');
        await closesTime.blur();
        await expect.poll(() => closesTime.inputValue()).toBe('18:30');
        expect(await opensTime.inputValue()).toBe('08:00');
        await screenshot(page, `event-settings-window-${label}`);
        await settings.getByRole('button', { name: 'Save' }).click();
        await expect.poll(() => page.getByText('Sun 1 Mar 2026, 08:00').count()).toBeGreaterThan(0);
      }
      // Saved, and shown again as it was typed, on the 24-hour clock.
      await expect.poll(() => closesTime.inputValue()).toBe('18:30');
      expect(await opensTime.inputValue()).toBe('08:00');
      expect(await settings.getByLabel('Booking closes').inputValue()).toBe('2026-03-11');
      await screenshot(page, `event-settings-saved-${label}`);
      await browser.close();
      browser = undefined;
    }
  });
});
