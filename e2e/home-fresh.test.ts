import type { Page } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { type Browser, DESKTOP, openBrowser, PHONE, screenshot } from './browser';
import { logIn, PASSWORD, uniqueEmail, waitForPath } from './journeys';
import { smallSchool } from './school-fixture';

const baseUrl = inject('baseUrl');

// Issue 36, point 1: home shows what the server has. The copy kept on the device paints first and is
// replaced by the server's answer; nobody presses refresh here.

/** The parent's card for the evening on home's "My Events". */
const eventCard = (page: Page, eventName: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('link', { name: eventName }) });

/** The number on one of the admin's count tiles. */
const tile = (page: Page, name: string) =>
  page.getByRole('list', { name: 'Counts' }).getByRole('listitem').filter({ hasText: name }).locator('p');

/**
 * Reloads the page as it comes without home's answers: the server renders home for the page cookie's
 * user (decision 028), which the app hands over again at each start, but not in the native app or when
 * the render is late. Then what the device kept is all the page has until the server answers.
 */
async function reloadWithoutPageAnswers(page: Page): Promise<void> {
  await page.context().clearCookies();
  await page.reload();
}

describe('home after a change (issue 36, point 1)', () => {
  const browsers: Browser[] = [];
  afterEach(async ({ task }) => {
    const [last] = browsers.slice(-1);
    if (task.result?.state === 'fail' && last)
      await screenshot(last.page, 'failed-home-fresh', { axe: false });
    for (const browser of browsers.splice(0)) await browser.close();
  });

  it('shows a booking made on the booking page, and an admin’s removal and new teacher, after a reload', {
    timeout: 240_000,
  }, async () => {
    const school = await smallSchool(baseUrl, `fresh${Date.now()}`);
    const parentBrowser = await openBrowser(DESKTOP);
    browsers.push(parentBrowser);
    const { page } = parentBrowser;
    await logIn(page, baseUrl, school.parent.email, PASSWORD);
    const card = eventCard(page, school.eventName);
    await expect.poll(() => card.innerText()).toContain('No bookings found.');

    // Book both teachers on the booking page ("Arrange for me"), then back Home with its Home button.
    await page.goto(`${baseUrl}${school.bookingPath}`);
    await expect
      .poll(() => page.getByRole('checkbox', { name: new RegExp(school.artTeacher.name) }).isChecked())
      .toBe(true);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Find times' }).click();
    await expect
      .poll(() => page.getByRole('list', { name: 'Proposed times' }).getByRole('listitem').count())
      .toBe(2);
    await page.getByRole('button', { name: 'Book these times' }).click();
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Booking confirmed.' }).count())
      .toBe(1);
    await page.getByRole('link', { name: 'Home' }).first().click();
    await waitForPath(page, '/home');
    await expect.poll(() => card.innerText()).toContain('2 bookings made');

    // A reload asks the server: the booking is still there.
    await reloadWithoutPageAnswers(page);
    await expect.poll(() => card.innerText()).toContain('2 bookings made');
    await screenshot(page, 'home-fresh-01-parent-booked');

    // The school removes one of the bookings: the parent's reload shows one.
    const { event } = (await (await school.admin.get(`events/view?id=${school.eventId}`)).json()) as {
      event: { bookings: Array<{ id: number }> };
    };
    expect(event.bookings).toHaveLength(2);
    const removed = await school.admin.post(`events/remove-booking?eventId=${school.eventId}`, {
      bookingId: event.bookings[0]?.id,
    });
    expect(removed.status).toBe(200);
    await reloadWithoutPageAnswers(page);
    await expect.poll(() => card.innerText()).toContain('1 booking made');
    const truth = (await (await school.admin.get('site/index')).json()) as { activeEvents: unknown[] };
    expect(truth.activeEvents).toHaveLength(1);

    // An admin on a phone sees two teachers; another admin (here: the API) adds one; a reload shows three.
    const adminBrowser = await openBrowser(PHONE, { isMobile: true });
    browsers.push(adminBrowser);
    const admin = adminBrowser.page;
    await logIn(admin, baseUrl, school.admin.email, PASSWORD);
    await expect.poll(() => tile(admin, 'Teachers').textContent()).toBe('2');
    const created = await school.admin.post('users/create-teacher', {
      email: uniqueEmail('fresh.teacher'),
      firstName: 'Nia',
      lastName: 'Okafor',
      sendInvite: false,
    });
    expect(created.status).toBe(200);
    await reloadWithoutPageAnswers(admin);
    await expect.poll(() => tile(admin, 'Teachers').textContent()).toBe('3');
    await screenshot(admin, 'home-fresh-02-admin-new-teacher');
  });
});
