import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { type Browser, DESKTOP, openBrowser, PHONE, screenshot } from './browser';
import { logIn, PASSWORD, schoolThroughApi, uniqueEmail } from './journeys';

const baseUrl = inject('baseUrl');

/** The "Activity" card of the page: its entries, newest first (a table on a desktop, a list on a phone). */
function activity(page: Page, phone: boolean) {
  return phone
    ? page.getByRole('list', { name: 'Activity' }).getByRole('listitem')
    : page.getByRole('table', { name: 'Activity' }).getByRole('row');
}

// Issue 11's audit trail, as an admin sees it: a change made on a person's page and on an event's page
// appears at once in that page's Activity, with who, when, what and from where, and in its CSV.
describe.each([
  ['desktop', DESKTOP, false],
  ['phone', PHONE, true],
] as const)('audit trail (%s)', (label, viewport, phone) => {
  let browser: Browser;
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail' && browser) await screenshot(browser.page, `failed-audit-${label}`);
    await browser?.close();
  });

  it('an admin edits a parent and disables an event, and sees each change in the page’s Activity', async () => {
    const admin = await schoolThroughApi(baseUrl, `Audit ${label} School`);
    const email = uniqueEmail(`audit.parent.${label}`);
    const created = await admin.post('users/create-parent', {
      email,
      firstName: 'Pat',
      lastName: 'Parker',
      sendInvite: false,
    });
    const { id: parentId } = (await created.json()) as { id: number };
    browser = await openBrowser(viewport, { isMobile: phone });
    const { page } = browser;
    await logIn(page, baseUrl, admin.email, PASSWORD);

    // The person's page: the creation is there already; an edit adds "Edited …" on top.
    await page.goto(`${baseUrl}/parents/view/${parentId}`);
    const entries = activity(page, phone);
    await expect.poll(() => entries.filter({ hasText: 'Added Pat Parker' }).count()).toBe(1);
    await page.getByLabel('Last name').fill('Parkinson');
    await page.getByRole('button', { name: 'Save' }).click();
    const edited = entries.filter({ hasText: 'last name Parker → Parkinson' });
    await expect.poll(() => edited.count()).toBe(1);
    const text = (await edited.first().textContent()) ?? '';
    expect(text).toContain('Ada Admin'); // who
    expect(text).toMatch(/\d{4}, \d{2}:\d{2}/); // when, on the school's clock
    expect(text).toMatch(/127\.0\.0\.1|::1/); // from where: this browser's address …
    expect(text).toContain('Chrome on Linux'); // … and browser
    const first = await entries.nth(phone ? 0 : 1).textContent();
    expect(first).toContain('last name Parker → Parkinson'); // newest first
    await page.getByRole('heading', { name: 'Activity' }).scrollIntoViewIfNeeded();
    await screenshot(page, `${label}-110-person-activity`);

    // Its CSV: the same entry, in a file Excel opens.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`activity-person-${parentId}.csv`);
    const csv = readFileSync(await download.path());
    expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = csv.subarray(3).toString('utf8').split('\r\n');
    expect(lines[0]?.startsWith('When,When (UTC),Who,Who email,Action,What')).toBe(true);
    expect(lines[1]).toContain('last name Parker → Parkinson');
    expect(lines[1]).toContain(admin.email);

    // The event's page: disabling it (through its switch) is recorded there.
    const { eventTypes } = (await (await admin.get('events/index')).json()) as {
      eventTypes: Array<{ id: number; groupInt: number }>;
    };
    const event = await admin.post('events/create', {
      name: `Open evening ${label}`,
      eventTypeId: eventTypes.find((type) => type.groupInt === 4)?.id,
    });
    const { id: eventId } = (await event.json()) as { id: number };
    expect((await admin.post(`events/update?id=${eventId}`, { status: 1 })).status).toBe(200);
    await page.goto(`${baseUrl}/events/view/${eventId}`);
    const eventEntries = activity(page, phone);
    await expect
      .poll(() => eventEntries.filter({ hasText: `Enabled Open evening ${label}` }).count())
      .toBe(1);
    const status = page.getByRole('switch', { name: /Bookings open to families/ });
    await status.click();
    await expect.poll(() => status.isChecked()).toBe(false);
    const disabled = eventEntries.filter({ hasText: `Disabled Open evening ${label}` });
    await expect.poll(() => disabled.count()).toBe(1);
    expect(await disabled.first().textContent()).toContain('Chrome on Linux');
    await page.getByRole('heading', { name: 'Activity' }).scrollIntoViewIfNeeded();
    await screenshot(page, `${label}-111-event-activity`, { fullPage: false });
  });
});
