import type { Page } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { expectAccessible } from './accessibility';
import { type Browser, DESKTOP, openBrowser, screenshot } from './browser';
import { PASSWORD, waitForPath } from './journeys';
import { expectVisibleFocus, press, tabTo } from './keyboard';
import { daysAhead, smallSchool } from './school-fixture';

const baseUrl = inject('baseUrl');

/** The booking page's "My bookings" card (not the confirmation's list of the same name). */
const myBookingsCard = (page: Page) =>
  page.locator('.MuiCard-root', { has: page.getByRole('heading', { name: 'My bookings', exact: true }) });

// Issue 13: the whole parent journey with the keyboard alone — no click, no fill; text is typed into the
// field Tab reached. Every stop of the focus must be on screen and marked.
describe('keyboard only', () => {
  let browser: Browser | undefined;
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail' && browser)
      await screenshot(browser.page, 'failed-keyboard', { fullPage: false });
    await browser?.close();
    browser = undefined;
  });

  it('a parent books from the mail link with "Arrange for me", changes a time and cancels one', async () => {
    const school = await smallSchool(baseUrl, `keys${Date.now()}`);
    browser = await openBrowser(DESKTOP);
    const { page } = browser;
    const maths = school.teacher.name;
    const art = school.artTeacher.name;

    // The mail link opens the booking page; one child, so the flow starts at the teachers (both ticked).
    await page.goto(school.bookingLink);
    await page.waitForURL((url) => url.pathname === school.bookingPath);
    await expect.poll(() => page.getByRole('checkbox', { name: new RegExp(art) }).isChecked()).toBe(true);
    await press(page, page.getByRole('button', { name: 'Next' }));

    // Arrange for me (the tab already chosen): earliest 16:30, latest 17:30, typed on the 24-hour clock.
    await expect
      .poll(() => page.getByRole('tab', { name: 'Arrange for me' }).getAttribute('aria-selected'))
      .toBe('true');
    await tabTo(page, page.getByLabel('Earliest'));
    await page.keyboard.type('1630');
    await tabTo(page, page.getByLabel('Latest'));
    expect(await page.getByLabel('Earliest').inputValue()).toBe('16:30'); // tidied on leaving
    await page.keyboard.type('17:30');
    await press(page, page.getByRole('button', { name: 'Find times' }));
    const proposal = page.getByRole('list', { name: 'Proposed times' }).getByRole('listitem');
    await expect.poll(() => proposal.count()).toBe(2);
    await expectAccessible(page, 'the proposal');
    await press(page, page.getByRole('button', { name: 'Book these times' }));
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Booking confirmed.' }).count())
      .toBe(1);
    await expectAccessible(page, 'the confirmation');
    await screenshot(page, 'keyboard-01-confirmed', { fullPage: false });

    // Change the Maths time: Change in My bookings, back up to the grid, a free time, Save changes.
    const mine = myBookingsCard(page).getByRole('listitem');
    await expect.poll(() => mine.count()).toBe(2);
    await press(page, mine.filter({ hasText: maths }).getByRole('button', { name: 'Change' }));
    await expect.poll(() => page.getByText(`Choose a new time with ${maths}.`).isVisible()).toBe(true);
    const newTime = page.getByRole('button', { name: new RegExp(`^17:40 ${maths} for `) });
    expect(await newTime.getAttribute('aria-label')).toMatch(/: free$/);
    await press(page, newTime, 'Enter', { backwards: true });
    await expect.poll(() => newTime.getAttribute('aria-label')).toMatch(/: selected$/);
    expect(await newTime.getAttribute('aria-pressed')).toBe('true');
    await expectVisibleFocus(page, 'the picked time');
    await expectAccessible(page, 'the grid with a new time picked');
    await screenshot(page, 'keyboard-02-change-picked', { fullPage: false });
    await press(page, page.getByRole('button', { name: 'Save changes' }));
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Booking changed.' }).count()).toBe(1);
    await expect.poll(() => mine.filter({ hasText: maths }).innerText()).toContain('17:40');

    // Cancel the Art booking: Cancel, then confirm in the dialog (focus moves into it).
    await press(page, mine.filter({ hasText: art }).getByRole('button', { name: 'Cancel' }));
    const dialog = page.getByRole('dialog', { name: 'Cancel this booking?' });
    await dialog.waitFor();
    await expectAccessible(page, 'the cancel dialog');
    await press(page, dialog.getByRole('button', { name: 'Cancel booking' }));
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => mine.count()).toBe(1);
    await expect.poll(() => mine.first().innerText()).toContain(maths);
    await screenshot(page, 'keyboard-03-cancelled', { fullPage: false });
  });

  it('an admin logs in, creates an evening, adds a section with teachers, adds the families, opens bookings and invites them', async () => {
    const school = await smallSchool(baseUrl, `keysadmin${Date.now()}`);
    browser = await openBrowser(DESKTOP);
    const { page } = browser;
    const snackbar = (text: string) => page.locator('.MuiAlert-filled', { hasText: text }).first();

    await page.goto(`${baseUrl}/auth/login`);
    await tabTo(page, page.getByLabel('Email'));
    await page.keyboard.type(school.admin.email);
    await tabTo(page, page.getByLabel('Password'));
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await waitForPath(page, '/home');

    // Events → Add event: the name field takes the focus; Create.
    await press(page, page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Events' }));
    await waitForPath(page, '/events');
    await press(page, page.getByRole('button', { name: 'Add event' }));
    const newEvent = page.getByRole('dialog', { name: 'New event' });
    const name = newEvent.getByLabel('Event name');
    await expect.poll(() => name.evaluate((element) => element === document.activeElement)).toBe(true);
    await expectVisibleFocus(page, 'the event name');
    await page.keyboard.type('Keyboard evening');
    await press(page, newEvent.getByRole('button', { name: 'Create' }));
    await page.waitForURL(/\/events\/view\/\d+$/);
    await snackbar('Event created.').waitFor();

    // Add section: a date typed into the date field, the default 16:00–19:00, a location, two teachers
    // picked from the list with the arrow keys.
    await press(page, page.getByRole('button', { name: 'Add section' }), 'Enter', { max: 150 });
    const section = page.getByRole('dialog', { name: 'New section' });
    await section.waitFor();
    const date = daysAhead(21);
    const [year, month, day] = date.split('-');
    await tabTo(page, section.getByLabel('Date'));
    await page.keyboard.type(`${month}${day}${year}`);
    expect(await section.getByLabel('Date').inputValue()).toBe(date);
    expect(
      await section
        .getByLabel(/^Start/)
        .first()
        .inputValue(),
    ).toBe('16:00');
    await tabTo(page, section.getByLabel('Location'));
    await page.keyboard.type('Main hall');
    const teachers = section.getByRole('combobox', { name: 'Teachers taking part' });
    await tabTo(page, teachers);
    for (const teacher of ['Mina', 'Arlo']) {
      await page.keyboard.type(teacher);
      await page.getByRole('option', { name: new RegExp(teacher) }).waitFor();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      // Clear the typed text (Backspace in an empty box would remove the last teacher chosen).
      if (await teachers.inputValue()) {
        await page.keyboard.press('Control+A');
        await page.keyboard.press('Backspace');
      }
    }
    await page.keyboard.press('Escape'); // closes the list, not the dialog
    await expect.poll(() => section.getByText('(2)').isVisible()).toBe(true);
    await screenshot(page, 'keyboard-04-section', { fullPage: false });
    await press(page, section.getByRole('button', { name: 'Save' }));
    await section.waitFor({ state: 'detached' });
    await snackbar('Section added.').waitFor();
    await expect.poll(() => page.getByRole('table', { name: /^Slots: / }).count()).toBe(1);

    // Recipients: all parents, previewed, then added.
    await press(page, page.getByRole('button', { name: 'Add all parents' }), 'Enter', { max: 150 });
    const preview = page.getByRole('dialog', { name: 'Add recipients' });
    await press(page, preview.getByRole('button', { name: 'Add 1' }));
    await preview.waitFor({ state: 'detached' });

    // Open bookings with Space on the switch, then send "Invite to book" and confirm.
    const status = page.getByRole('switch', { name: /Bookings open to families/ });
    await press(page, status, 'Space', { max: 150 });
    await expect.poll(() => status.isChecked()).toBe(true);
    await press(page, page.getByRole('button', { name: 'Send', exact: true }), 'Enter', { max: 150 });
    const confirm = page.getByRole('dialog', { name: 'Send this message?' });
    await press(page, confirm.getByRole('button', { name: 'Send' }));
    await confirm.waitFor({ state: 'detached' });
    await snackbar('Invitation sent to 1 recipient').waitFor();
    await screenshot(page, 'keyboard-05-event-ready', { fullPage: false });
  });
});
