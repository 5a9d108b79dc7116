import { afterEach, describe, expect, inject, it } from 'vitest';
import { type Browser, DESKTOP, openBrowser, PHONE, screenshot } from './browser';
import { linkFromMailboxApi, logIn, PASSWORD, schoolThroughApi, uniqueEmail } from './journeys';

const baseUrl = inject('baseUrl');

// Issue 11: an admin revokes a parent's personal booking links from the parent's page; the link in the
// invitation mail then opens nothing.
describe.each([
  ['desktop', DESKTOP, false],
  ['phone', PHONE, true],
] as const)('revoke personal links (%s)', (label, viewport, phone) => {
  let browser: Browser;
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail' && browser) await screenshot(browser.page, `failed-revoke-${label}`);
    await browser?.close();
  });

  it("ends the link of the parent's invitation mail", async () => {
    const admin = await schoolThroughApi(baseUrl, `Links ${label} School`);
    const json = async <T>(response: Promise<Response>) => (await (await response).json()) as T;
    const email = uniqueEmail(`links.parent.${label}`);
    const { id: parentId } = await json<{ id: number }>(
      admin.post('users/create-parent', { email, firstName: 'Lin', lastName: 'Kerr', sendInvite: false }),
    );
    const { eventTypes } = await json<{ eventTypes: Array<{ id: number; groupInt: number }> }>(
      admin.get('events/index'),
    );
    const { id: eventId } = await json<{ id: number }>(
      admin.post('events/create', {
        name: `Open evening ${label}`,
        eventTypeId: eventTypes.find((type) => type.groupInt === 4)?.id,
      }),
    );
    await admin.post(`events/update?id=${eventId}`, { status: 1 });
    await admin.post(`events/add-recipients?eventId=${eventId}&saveme=1`, { userIds: [parentId] });
    await admin.post(`message-types/send?eventId=${eventId}`, { messageTypeName: 'inviteToBook' });
    const link = new URL(await linkFromMailboxApi(baseUrl, email)).searchParams.get('link') ?? '';
    const withLink = () =>
      fetch(`${baseUrl}/api/events/booking-view?eventId=${eventId}`, { headers: { 'x-booking-link': link } });
    expect((await withLink()).status).toBe(200);

    browser = await openBrowser(viewport, { isMobile: phone });
    const { page } = browser;
    await logIn(page, baseUrl, admin.email, PASSWORD);
    await page.goto(`${baseUrl}/parents/view/${parentId}`);
    const revoke = page.getByRole('button', { name: 'Revoke personal links' });
    await revoke.scrollIntoViewIfNeeded();
    await screenshot(page, `${label}-95-person-revoke-links`);
    await revoke.click();
    const dialog = page.getByRole('dialog', { name: "Revoke Lin Kerr's personal links?" });
    const confirm = dialog.getByRole('button', { name: 'Revoke', exact: true });
    await confirm.waitFor();
    await page.waitForTimeout(400); // the dialog's fade-in, for the picture
    await screenshot(page, `${label}-96-revoke-links-confirm`, { fullPage: false });
    await confirm.click();
    await expect.poll(() => page.getByText('1 personal booking link revoked.').isVisible()).toBe(true);
    await dialog.waitFor({ state: 'detached' });
    await screenshot(page, `${label}-97-revoke-links-done`, { fullPage: false });
    expect((await withLink()).status).toBe(401);
  });
});
