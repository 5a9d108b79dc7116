import { readFileSync } from 'node:fs';
import { BOOKING_STATE_TEXT } from '@parley/domain/booking';
import type { Locator, Page } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { type Browser, DESKTOP, LONG_JOURNEY_MS, openBrowser, PHONE, screenshot } from './browser';
import { logIn, PASSWORD, schoolThroughApi, snackbar } from './journeys';

const baseUrl = inject('baseUrl');

const SAMPLE_EVENTS = [
  'Sample: Parent teacher evening',
  'Sample: Open morning tours',
  'Sample: Summer concert',
  'Sample: Graduation ceremony',
];
const TEACHERS = 10;
const FAMILIES = 12;
const CSV_HEADER = 'Date,Time,Teacher,Location,Parent,Student,Subject,Status';
const DISABLED_NOTICE = 'This event is currently disabled. Review settings and enable to allow bookings.';

/** Teachers "Teach0 Tag" … with last names that say which one they are. */
const teacherLast = (tag: string, i: number) => `Staff${i}${tag}`;

function teachersCsv(tag: string): string {
  const lines = ['Title,First name,Last name,Email'];
  for (let i = 0; i < TEACHERS; i++) lines.push(`Ms,Teach${i},${teacherLast(tag, i)},t${i}.${tag}@e2e.test`);
  return lines.join('\n');
}

const parentEmail = (tag: string, i: number) => `parent${i}.${tag}@home.test`;

function familiesCsv(tag: string): string {
  const lines = [
    'Student first name,Student last name,Student email,Parent first name,Parent last name,Parent email',
  ];
  for (let i = 0; i < FAMILIES; i++) {
    lines.push(`Kid${i},Fam${i}${tag},kid${i}.${tag}@e2e.test,Pat,Fam${i}${tag},${parentEmail(tag, i)}`);
  }
  return lines.join('\n');
}

/** YYYY-MM-DD some days from now (far enough that the school's zone does not matter). */
function daysAhead(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** Adds a section through the "New section" dialog, picking teachers by last name. */
async function addSection(
  page: Page,
  shot: string,
  section: { date: string; start: string; end: string; location: string; teachers: string[] },
  unavailable?: { teacher: string; start: string; end: string },
): Promise<void> {
  await page.getByRole('button', { name: 'Add section' }).click();
  const dialog = page.getByRole('dialog', { name: 'New section' });
  await dialog.getByLabel('Date').fill(section.date);
  await dialog
    .getByLabel(/^Start/)
    .first()
    .fill(section.start);
  await dialog.getByLabel(/^End/).first().fill(section.end);
  await dialog.getByLabel('Location').fill(section.location);
  await dialog.getByRole('combobox', { name: 'Teachers taking part' }).click();
  for (const name of section.teachers) {
    // Each pick settled (its chip drawn, the list moved under it) before the next click, which would
    // otherwise land on the option that has just moved to where this one was.
    const option = page.getByRole('option', { name: new RegExp(name) });
    await option.click();
    await expect.poll(() => option.getAttribute('aria-selected')).toBe('true');
  }
  await page.keyboard.press('Escape'); // closes the list, not the dialog
  await expect.poll(() => dialog.getByText(`(${section.teachers.length})`).isVisible()).toBe(true);
  if (unavailable) {
    const card = dialog.locator('.MuiPaper-outlined', { hasText: unavailable.teacher });
    await card.getByRole('button', { name: 'Add unavailable time' }).click();
    await card.getByLabel('Start').fill(unavailable.start);
    await card.getByLabel('End').fill(unavailable.end);
    await card.evaluate((element) => element.scrollIntoView({ block: 'center' })); // for the screenshot
  }
  await screenshot(page, shot, { fullPage: false });
  const save = dialog.getByRole('button', { name: 'Save' });
  await expect.poll(() => save.isEnabled()).toBe(true);
  await save.click();
  await dialog.waitFor({ state: 'detached' });
  await snackbar(page, 'Section added.');
}

/** The td cells of one row of a slot grid, by the row's time. */
async function gridCell(grid: Locator, time: string, teacher: string): Promise<Locator> {
  const headers = await grid.getByRole('columnheader').allInnerTexts();
  const column = headers.findIndex((text) => text.includes(teacher));
  expect(column).toBeGreaterThan(0);
  const row = grid.getByRole('row').filter({ has: grid.page().getByRole('rowheader', { name: time }) });
  return row.getByRole('cell').nth(column - 1);
}

// Issue 4's journey: a new school's admin sets up a parent-teacher evening, on a desktop and a phone.
describe.each([
  ['desktop', DESKTOP, false],
  ['phone', PHONE, true],
] as const)('parent-teacher evening (%s)', (viewportLabel, viewport, phone) => {
  let browser: Browser;
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail' && browser)
      await screenshot(browser.page, `failed-events-${viewportLabel}`);
    await browser?.close();
  });

  // Every photographed step is also an axe check (1–2 s each, decision 020).
  it('sees the samples, sets up an evening, invites families, exports, disables and sees it at home', {
    timeout: LONG_JOURNEY_MS,
  }, async () => {
    const tag = `${viewportLabel}${Date.now()}`;
    const admin = await schoolThroughApi(baseUrl, `Events ${viewportLabel} School`);
    // Set-up that is not the point: 10 teachers and 12 families (one parent each), no invitations.
    for (const [path, csv] of [
      ['users/bulk-add-teachers', teachersCsv(tag)],
      ['users/bulk-add-students', familiesCsv(tag)],
    ] as const) {
      const response = await admin.post(`${path}?confirm=true&send_invite=false`, { csv });
      expect(response.status).toBe(200);
    }

    browser = await openBrowser(viewport, { isMobile: phone });
    const { page } = browser;
    await logIn(page, baseUrl, admin.email, PASSWORD);

    // A new school has one sample event of each type.
    await page.goto(`${baseUrl}/events`);
    await expect
      .poll(() => page.getByRole('heading', { name: 'Events', exact: true }).isVisible())
      .toBe(true);
    for (const name of SAMPLE_EVENTS) {
      await expect.poll(() => page.getByText(name, { exact: true }).isVisible()).toBe(true);
    }
    await screenshot(page, `${viewportLabel}-40-events-list`);

    // "New event": the name is required and Create stays disabled until the form is valid.
    await page.getByRole('button', { name: 'Add event' }).click();
    const dialog = page.getByRole('dialog', { name: 'New event' });
    const name = dialog.getByLabel('Event name');
    const create = dialog.getByRole('button', { name: 'Create' });
    await name.focus();
    await name.blur();
    await expect.poll(() => dialog.getByText('Name is required').isVisible()).toBe(true);
    expect(await create.isDisabled()).toBe(true);
    await expect
      .poll(() => dialog.getByRole('combobox', { name: /Event type/ }).innerText())
      .toBe('Parent teacher');
    await screenshot(page, `${viewportLabel}-41-new-event-dialog`);
    const eventName = `Spring evening ${viewportLabel}`;
    await name.fill(eventName);
    await expect.poll(() => create.isEnabled()).toBe(true);
    await create.click();

    // The new event opens with a green snackbar; it starts disabled.
    await page.waitForURL(/\/events\/view\/\d+$/);
    const eventId = Number(new URL(page.url()).pathname.split('/').pop());
    await snackbar(page, 'Event created.');
    await expect.poll(() => page.getByRole('heading', { name: eventName }).isVisible()).toBe(true);
    await expect.poll(() => page.getByText(DISABLED_NOTICE).isVisible()).toBe(true);

    // Two sections with five teachers each; the first teacher is away for half an hour.
    const first = Array.from({ length: 5 }, (_, i) => teacherLast(tag, i));
    const second = Array.from({ length: 5 }, (_, i) => teacherLast(tag, i + 5));
    const date = daysAhead(21);
    await addSection(
      page,
      `${viewportLabel}-42-section-dialog`,
      { date, start: '16:00', end: '18:00', location: 'Main hall', teachers: first },
      { teacher: first[0] ?? '', start: '16:30', end: '17:00' },
    );
    await addSection(page, `${viewportLabel}-42-section-dialog-2`, {
      date,
      start: '18:00',
      end: '19:30',
      location: 'Library',
      teachers: second,
    });

    // The slot grids: 10-minute slots, one column per teacher, a gap where the teacher is away.
    const grids = page.getByRole('table', { name: /^Slots: / });
    await expect.poll(() => grids.count()).toBe(2);
    const [grid1, grid2] = [grids.nth(0), grids.nth(1)];
    await expect.poll(() => grid1.getByRole('rowheader').count()).toBe(12); // 16:00 … 17:50
    await expect.poll(() => grid2.getByRole('rowheader').count()).toBe(9); // 18:00 … 19:20
    for (const teacher of first) {
      expect(await grid1.getByRole('columnheader', { name: new RegExp(teacher) }).count()).toBe(1);
    }
    for (const teacher of second) {
      expect(await grid2.getByRole('columnheader', { name: new RegExp(teacher) }).count()).toBe(1);
    }
    for (const time of ['16:30', '16:40', '16:50']) {
      const cell = await gridCell(grid1, time, first[0] ?? '');
      expect(await cell.getAttribute('aria-label')).toBe('Unavailable');
      expect((await cell.innerText()).trim()).toBe('—');
    }
    for (const time of ['16:20', '17:00']) {
      expect((await (await gridCell(grid1, time, first[0] ?? '')).innerText()).trim()).toBe('Free');
    }
    expect((await (await gridCell(grid1, '16:30', first[1] ?? '')).innerText()).trim()).toBe('Free');
    expect(await grid1.getByRole('cell', { name: 'Unavailable' }).count()).toBe(3);
    expect(await grid2.getByRole('cell', { name: 'Unavailable' }).count()).toBe(0);
    await page.getByRole('heading', { name: 'Sections', exact: true }).scrollIntoViewIfNeeded();
    await screenshot(page, `${viewportLabel}-43-event-with-sections`);

    // Recipients: all parents, previewed then confirmed.
    await page.getByRole('button', { name: 'Add all parents' }).click();
    const preview = page.getByRole('dialog', { name: 'Add recipients' });
    await expect.poll(() => preview.getByText(`${FAMILIES} people will be added.`).isVisible()).toBe(true);
    await screenshot(page, `${viewportLabel}-44-recipients-preview`);
    await preview.getByRole('button', { name: `Add ${FAMILIES}` }).click();
    await preview.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByText(`Recipients (${FAMILIES})`).isVisible()).toBe(true);

    // Enable the event, then send "Invite to book" to all recipients.
    const status = page.getByRole('switch', { name: /Bookings open to families/ });
    await status.click();
    await expect.poll(() => page.getByText(DISABLED_NOTICE).isVisible()).toBe(false);
    await expect.poll(() => status.isChecked()).toBe(true);
    const bookingUrl = await page.getByLabel('Public booking link').inputValue();
    expect(bookingUrl).toMatch(new RegExp(`^${baseUrl}/book/ptevent/[A-Za-z0-9_-]{6,}$`));
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Send this message?' });
    await expect.poll(() => confirm.getByText('“Invite to book” goes by email to').isVisible()).toBe(true);
    await confirm.getByRole('button', { name: 'Send' }).click();
    await confirm.waitFor({ state: 'detached' });
    await snackbar(page, `Invitation sent to ${FAMILIES} recipients.`);

    // The dev mailbox: exactly one mail per family, with the event's booking link.
    const parents = Array.from({ length: FAMILIES }, (_, i) => parentEmail(tag, i));
    const mailsTo = async () => {
      const { items } = (await (await fetch(`${baseUrl}/api/dev/mailbox`)).json()) as {
        items: Array<{ to: string; subject: string; links: string[] }>;
      };
      return items.filter(
        (item) => item.to.endsWith(`.${tag}@home.test`) || item.to.endsWith(`.${tag}@e2e.test`),
      );
    };
    await expect.poll(async () => (await mailsTo()).length).toBe(FAMILIES);
    const mails = await mailsTo();
    expect(mails.map((mail) => mail.to).sort()).toEqual([...parents].sort());
    for (const mail of mails) {
      expect(mail.subject).toContain(eventName);
      // Each family's own link to the booking page (it books without a password).
      expect(mail.links[0]).toMatch(
        new RegExp(`^${bookingUrl.replace(/[.?]/g, '\\$&')}\\?link=[\\w-]{40,}$`),
      );
    }

    // The bookings CSV opens in Excel: a byte-order mark, then the header row.
    const bookings = page.getByRole('button', { name: 'Download bookings' });
    await bookings.scrollIntoViewIfNeeded();
    await screenshot(page, `${viewportLabel}-45-event-ready`);
    const [download] = await Promise.all([page.waitForEvent('download'), bookings.click()]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const csv = readFileSync(await download.path());
    expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(csv.subarray(3).toString('utf8').split('\r\n')[0]).toBe(CSV_HEADER);

    // Disable (the notice appears), then enable again.
    await status.click();
    await expect.poll(() => page.getByText(DISABLED_NOTICE).isVisible()).toBe(true);
    await expect.poll(() => status.isChecked()).toBe(false);
    await page.getByText(DISABLED_NOTICE).scrollIntoViewIfNeeded();
    await screenshot(page, `${viewportLabel}-46-event-disabled`);
    // A family opening the disabled event's link is told in their words, never the admin's (issue 36).
    const family = await openBrowser(viewport, { isMobile: phone });
    try {
      await family.page.goto(bookingUrl);
      await expect
        .poll(() => family.page.getByText(BOOKING_STATE_TEXT.notTakingBookings).isVisible())
        .toBe(true);
      expect(await family.page.getByText(/Review settings/).count()).toBe(0);
      await screenshot(family.page, `${viewportLabel}-47-disabled-event-family`);
    } finally {
      await family.close();
    }
    await status.click();
    await expect.poll(() => page.getByText(DISABLED_NOTICE).isVisible()).toBe(false);
    await expect.poll(() => status.isChecked()).toBe(true);

    // Home: the four tiles hold the school's real counts, and the evening is under "Event Bookings".
    const json = async (path: string) => (await admin.get(path)).json();
    const total = async (path: string) => ((await json(path)) as { total: number }).total;
    const truth = {
      Events: ((await json('events/index')) as { events: unknown[] }).events.length,
      Teachers: await total('users/teachers'),
      Parents: await total('users/parents'),
      Students: await total('users/students'),
    };
    expect(truth).toEqual({ Events: 5, Teachers: TEACHERS, Parents: FAMILIES, Students: FAMILIES });
    await page.getByRole('link', { name: 'Home', exact: true }).first().click();
    await page.waitForURL((url) => url.pathname === '/home');
    const tiles = page.getByRole('list', { name: 'Counts' });
    for (const [tile, expected] of Object.entries(truth)) {
      await expect
        .poll(() => tiles.getByRole('listitem').filter({ hasText: tile }).innerText())
        .toMatch(new RegExp(`^${tile}\\s+${expected}$`));
    }
    const active = page.getByRole('list', { name: 'Event Bookings' });
    const item = active.getByRole('link').filter({ hasText: eventName });
    await expect.poll(() => item.innerText()).toMatch(/0 bookings/);
    await screenshot(page, `${viewportLabel}-47-admin-home`);
    await item.click();
    await page.waitForURL((url) => url.pathname === `/events/view/${eventId}`);
  });
});
