import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { type Browser, DESKTOP, LONG_JOURNEY_MS, openBrowser, PHONE, screenshot } from './browser';
import { linkFromMailboxApi, logIn, PASSWORD, schoolThroughApi, snackbar, uniqueEmail } from './journeys';

const baseUrl = inject('baseUrl');

const ZONE = 'Europe/London';
const SLOT_TAKEN = 'Sorry, that time has just been taken. The grid now shows the times still free.';

type Person = { id: number; email: string; name: string };
type Teacher = Person & { subject: string; subjectId: number };
type Mail = {
  id: number;
  to: string;
  subject: string;
  links: string[];
  attachments: Array<{ filename: string }>;
};

/** A calendar date `days` from today (UTC): a few days ahead, so the school's zone does not move it. */
const daysAhead = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** "16:30" plus minutes, as the school's clock shows it. */
function plus(time: string, minutes: number): string {
  const [h = 0, m = 0] = time.split(':').map(Number);
  const total = h * 60 + m + minutes;
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
}

async function ok<T>(response: Promise<Response>): Promise<T> {
  const res = await response;
  const body = await res.text();
  expect(res.status, body).toBe(200);
  return JSON.parse(body) as T;
}

async function mailbox(): Promise<Mail[]> {
  return (await ok<{ items: Mail[] }>(fetch(`${baseUrl}/api/dev/mailbox`))).items;
}

/** The newest mail to an address whose subject ends so, once the outbox holds it. */
async function mailTo(to: string, subjectEnd: string): Promise<Mail> {
  let found: Mail | undefined;
  await expect
    .poll(async () => {
      found = (await mailbox()).find((mail) => mail.to === to && mail.subject.endsWith(subjectEnd));
      return Boolean(found);
    })
    .toBe(true);
  return found as Mail;
}

/** Follows an invitation mail's link the way the password page does: the token, then a password. */
async function setPassword(email: string, path: string): Promise<void> {
  const token = new URL(await linkFromMailboxApi(baseUrl, email)).searchParams.get('token');
  expect(token).toBeTruthy();
  await ok(
    fetch(`${baseUrl}/api/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, password: PASSWORD }),
    }),
  );
}

/** A .ics file as text with its folded lines joined again, and its VEVENTs. */
function calendarEvents(ics: string): string[] {
  const text = ics.replace(/\r\n[ \t]/g, '');
  return text.split('BEGIN:VEVENT').slice(1);
}

/** What the journey needs of a school set up through the API. */
async function evening(label: string) {
  const admin = await schoolThroughApi(baseUrl, `Booking ${label} School`);
  const post = <T>(path: string, body: unknown) => ok<T>(admin.post(path, body));
  const person = async (
    kind: 'teacher' | 'parent' | 'student',
    body: Record<string, unknown>,
  ): Promise<Person> => {
    const email = uniqueEmail(kind);
    const { id } = await post<{ id: number }>(`users/create-${kind}`, {
      sendInvite: false,
      ...body,
      email,
    });
    return { id, email, name: `${body.firstName} ${body.lastName}` };
  };

  const subjects: Record<string, number> = {};
  for (const name of ['Maths', 'English', 'Science', 'Art'])
    subjects[name] = (await post<{ id: number }>('subjects/create', { name })).id;
  const staff = [
    ['Mina', 'Hall', 'Maths'],
    ['Ezra', 'Pike', 'English'],
    ['Sana', 'Reed', 'Science'],
    ['Arlo', 'Vance', 'Art'],
  ] as const;
  const teachers: Teacher[] = [];
  for (const [firstName, lastName, subject] of staff) {
    const subjectId = subjects[subject] ?? 0;
    // The Maths teacher is invited, and follows the invitation to set a password.
    const teacher = await person('teacher', {
      title: 'Ms',
      firstName,
      lastName,
      subjectIds: [subjectId],
      sendInvite: subject === 'Maths',
    });
    teachers.push({ ...teacher, subject, subjectId });
  }
  const [maths, english, science, art] = teachers as [Teacher, Teacher, Teacher, Teacher];
  await setPassword(maths.email, 'users/set-teacher-password');
  const taught = (...list: Teacher[]) =>
    list.map((teacher) => ({ subjectId: teacher.subjectId, teacherId: teacher.id }));

  // The family of the journey: two children whose teachers are the four.
  const parent = await person('parent', { firstName: 'Pat', lastName: 'Rowe' });
  const rosa = await person('student', {
    firstName: 'Rosa',
    lastName: 'Rowe',
    parentIds: [parent.id],
    subjects: taught(maths, english),
  });
  const remy = await person('student', {
    firstName: 'Remy',
    lastName: 'Rowe',
    parentIds: [parent.id],
    subjects: taught(science, art),
  });
  // Two more families racing for a time with the Maths teacher.
  const racers: Array<Person & { child: Person }> = [];
  for (const [first, child, last] of [
    ['Bea', 'Bo', 'Stone'],
    ['Cal', 'Cy', 'Frost'],
  ] as const) {
    const racer = await person('parent', { firstName: first, lastName: last });
    const kid = await person('student', {
      firstName: child,
      lastName: last,
      parentIds: [racer.id],
      subjects: taught(maths),
    });
    racers.push({ ...racer, child: kid });
  }
  // A student with a password, not invited to the evening (yet).
  const student = await person('student', { firstName: 'Sol', lastName: 'Wren', sendInvite: true });
  await setPassword(student.email, 'users/set-new-password');

  // The evening: 16:00–18:00 in 10-minute slots with the four teachers, enabled, the families invited.
  const { eventTypes } = await ok<{ eventTypes: Array<{ id: number; groupInt: number }> }>(
    admin.get('events/index'),
  );
  const eventName = `Autumn consultations ${label}`;
  const { id: eventId } = await post<{ id: number }>('events/create', {
    name: eventName,
    eventTypeId: eventTypes.find((type) => type.groupInt === 1)?.id,
  });
  await post(`events/update?id=${eventId}`, { status: 1, slotMinutes: 10 });
  const date = daysAhead(5);
  await post(`events/create-section?eventId=${eventId}`, {
    date,
    start: '16:00',
    end: '18:00',
    location: 'Main hall',
    teachers: teachers.map((teacher) => ({ teacherId: teacher.id })),
  });
  await post(`events/add-recipients?eventId=${eventId}&saveme=1`, {
    userIds: [parent.id, ...racers.map((racer) => racer.id)],
  });
  await post(`message-types/send?eventId=${eventId}`, { messageTypeName: 'inviteToBook' });
  return { admin, eventId, eventName, date, teachers, maths, parent, rosa, remy, racers, student };
}

/** Waits (up to 10 s: a forced home refresh alone takes 2 s) until a locator's text matches. */
async function textOf(locator: Locator, expected: RegExp | string): Promise<void> {
  await expect
    .poll(async () => ((await locator.count()) > 0 ? locator.first().innerText() : ''), { timeout: 10_000 })
    .toMatch(expected);
}

/** The booking page's "My bookings" card (not the confirmation's list of the same name). */
const myBookingsCard = (page: Page) =>
  page.locator('.MuiCard-root', {
    has: page.getByRole('heading', { name: 'My bookings', exact: true }),
  });
/** The parent-teacher flow's card (stepper, steps, confirmation). */
const flowCard = (page: Page) => page.locator('.MuiCard-root', { has: page.getByLabel('Booking steps') });

/** A slot of the times grid by its accessible name ("16:00 Mina Hall for Bo Stone: free"). */
const slot = (page: Page, time: string, teacher: string) =>
  page.getByRole('button', { name: new RegExp(`^${time} ${teacher} for .*: \\w+`) });

async function slotState(page: Page, time: string, teacher: string): Promise<string> {
  const label = (await slot(page, time, teacher).getAttribute('aria-label')) ?? '';
  return label.split(': ').pop() ?? '';
}

/** A racer's booking page from their own invitation link, on the Maths teacher's live grid. */
async function openGrid(page: Page, email: string, teacher: string): Promise<void> {
  await page.goto(await linkFromMailboxApi(baseUrl, email));
  // One child: the flow starts at the teachers, the child's Maths teacher already ticked.
  const teacherBox = page.getByRole('checkbox', { name: new RegExp(teacher) });
  await expect.poll(() => teacherBox.isChecked()).toBe(true);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('tab', { name: 'Pick times' }).click();
  await expect.poll(() => slotState(page, '16:00', teacher)).toBe('free');
}

// Issue 5's journey: a parent books from the invitation mail, changes a time, the teacher and a student
// see it at home, and two parents race for one slot; on a desktop (in New York) and on a phone.
describe.each([
  ['desktop', DESKTOP, false, 'America/New_York'],
  ['phone', PHONE, true, undefined],
] as const)('booking a parent-teacher evening (%s)', (label, viewport, phone, timezoneId) => {
  const browsers: Browser[] = [];
  const open = async () => {
    const browser = await openBrowser(viewport, { isMobile: phone, ...(timezoneId && { timezoneId }) });
    browsers.push(browser);
    return browser.page;
  };
  afterEach(async ({ task }) => {
    for (const [index, browser] of browsers.entries()) {
      if (task.result?.state === 'fail') await screenshot(browser.page, `failed-booking-${label}-${index}`);
      await browser.close();
    }
    browsers.length = 0;
  });

  // Every photographed step is also an axe check (1–2 s each, decision 020).
  it('books four teachers from the mail link, changes one, and the teacher, a student and a racer see the truth', {
    timeout: LONG_JOURNEY_MS,
  }, async () => {
    const e = await evening(label);
    const shot = async (page: Page, name: string, fullPage = true) => {
      // Let MUI's 250 ms colour transitions end; a full page is taken from the top, so the sticky app
      // bar is not painted over the middle of it.
      await page.waitForTimeout(300);
      if (fullPage) await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
      await screenshot(page, `booking-${label}-${name}`, { fullPage });
    };
    const ymd = e.date.replaceAll('-', '');
    const maths = e.maths.name;

    // ── 1. The parent (no password) opens the personal link in the invitation mail ──────────────────
    const page = await open();
    if (timezoneId) {
      expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(timezoneId);
    }
    await page.goto(`${baseUrl}/dev/mailbox`);
    await page
      .getByRole('list', { name: 'Mails' })
      .getByRole('button')
      .filter({ hasText: e.parent.email })
      .filter({ hasText: `book your place for ${e.eventName}` })
      .first()
      .click();
    const mailLink = page.getByRole('article').getByRole('link', { name: /\/book\/ptevent\/.+\?link=/ });
    await shot(page, '01-invitation-mail');
    // The page arrives rendered from its first answers (decision 019): who is booking, the children to
    // tick, in the layout of the browser's kind, hydrated by the app once the page is idle.
    const served = await fetch((await mailLink.getAttribute('href')) ?? '', {
      headers: { 'user-agent': await page.evaluate(() => navigator.userAgent) },
    });
    const root = /<div id="root" data-prerendered="when-idle">(.*?)<div id="prerendered-end"/s
      .exec(await served.text())?.[1]
      // React's server markup separates adjacent texts with an empty comment.
      ?.replaceAll('<!-- -->', '');
    expect(root).toContain(`Booking as ${e.parent.name} (from your invitation link)`);
    expect(root).toContain(e.rosa.name);
    // The page arrives with its first answers (decision 019): it asks the API for neither on opening.
    const asked: string[] = [];
    const listen = (request: { url(): string }) => asked.push(new URL(request.url()).pathname);
    page.on('request', listen);
    await mailLink.click();
    await page.waitForURL(
      (url) => url.pathname.startsWith('/book/ptevent/') && !url.searchParams.has('link'),
    );
    const bookingPath = new URL(page.url()).pathname;
    await textOf(page.getByText(/^Booking as /), `Booking as ${e.parent.name} (from your invitation link)`);
    page.off('request', listen);
    expect(asked).toContain(bookingPath);
    expect(asked.filter((path) => ['/api/events/book-event', '/api/site/config'].includes(path))).toEqual([]);

    // Both children stay ticked; the four teachers come pre-filled from the children's teachers.
    for (const child of [e.rosa, e.remy]) {
      expect(await page.getByRole('checkbox', { name: child.name }).isChecked()).toBe(true);
    }
    await shot(page, '02-children');
    await page.getByRole('button', { name: 'Next' }).click();
    for (const [child, teachers] of [
      [e.rosa, e.teachers.slice(0, 2)],
      [e.remy, e.teachers.slice(2)],
    ] as const) {
      const group = page.getByRole('region', { name: `Teachers: ${child.name}` });
      for (const teacher of teachers) {
        const box = group.getByRole('checkbox', { name: new RegExp(teacher.name) });
        await expect.poll(() => box.isChecked()).toBe(true);
      }
    }
    await shot(page, '03-teachers');
    await page.getByRole('button', { name: 'Next' }).click();

    // "Arrange for me" between 16:30 and 17:30.
    await expect
      .poll(() => page.getByRole('tab', { name: 'Arrange for me' }).getAttribute('aria-selected'))
      .toBe('true');
    await page.getByLabel('Earliest').fill('16:30');
    await page.getByLabel('Latest').fill('17:30');
    await page.getByRole('button', { name: 'Find times' }).click();
    const proposal = page.getByRole('list', { name: 'Proposed times' }).getByRole('listitem');
    await expect.poll(() => proposal.count()).toBe(4);
    const arranged = new Map<string, string>(); // teacher → start time
    for (const text of await proposal.allInnerTexts()) {
      const [times = '', who = ''] = text.split(/\n+/);
      const match = /^(\d\d:\d\d) – (\d\d:\d\d)$/.exec(times.trim());
      const teacher = e.teachers.find((entry) => who.startsWith(entry.name));
      expect(match, text).toBeTruthy();
      expect(teacher, text).toBeTruthy();
      const [, start = '', end = ''] = match ?? [];
      // The school's clock, within the window (not New York's 11:30–12:30).
      expect(start >= '16:30' && end <= '17:30', text).toBe(true);
      expect(end).toBe(plus(start, 10));
      arranged.set(teacher?.name ?? '', start);
    }
    expect(new Set(arranged.values()).size).toBe(4); // one parent, one place at a time
    await shot(page, '04-arranged');
    await page.getByRole('button', { name: 'Book these times' }).click();

    // The confirmation: every appointment at the school's time, with teacher, child and subject.
    const flow = flowCard(page);
    await textOf(flow.getByRole('status'), 'Booking confirmed.');
    const confirmed = flow.getByRole('list', { name: 'My bookings' }).getByRole('listitem');
    await expect.poll(() => confirmed.count()).toBe(4);
    for (const [index, teacher] of e.teachers.entries()) {
      const start = arranged.get(teacher.name) ?? '';
      const child = index < 2 ? e.rosa : e.remy; // Rosa sees Maths and English, Remy Science and Art
      const item = confirmed.filter({ hasText: teacher.name });
      await textOf(item, `${start} – ${plus(start, 10)}`);
      await textOf(item, `${teacher.name} · ${child.name} · ${teacher.subject}`);
    }
    await textOf(flow.getByText(/^Times are in /), `Times are in ${ZONE}`);
    await textOf(flow.getByText(/confirmation email/), e.parent.email);
    await shot(page, '05-confirmed');

    // ── 2. The confirmation mail carries an .ics with one VEVENT per appointment, in London time ─────
    const confirmation = await mailTo(e.parent.email, `${e.eventName}: booking confirmed`);
    await page.goto(`${baseUrl}/dev/mailbox?id=${confirmation.id}`);
    const attachment = page
      .getByRole('article')
      .getByRole('list', { name: 'Attachments' })
      .getByRole('link', { name: /\.ics$/ });
    await expect.poll(() => attachment.isVisible()).toBe(true);
    await attachment.scrollIntoViewIfNeeded();
    await shot(page, '06-confirmation-mail');
    const [download] = await Promise.all([page.waitForEvent('download'), attachment.click()]);
    expect(download.suggestedFilename()).toMatch(/\.ics$/);
    const ics = readFileSync(await download.path(), 'utf8');
    expect(ics).toContain(`TZID:${ZONE}`);
    const vevents = calendarEvents(ics);
    expect(vevents).toHaveLength(4);
    for (const [teacher, start] of arranged) {
      const vevent = vevents.find((entry) => entry.includes(teacher));
      expect(vevent, teacher).toContain(`DTSTART;TZID=${ZONE}:${ymd}T${start.replace(':', '')}00`);
      expect(vevent, teacher).toContain(`DTEND;TZID=${ZONE}:${ymd}T${plus(start, 10).replace(':', '')}00`);
      expect(vevent, teacher).toContain('STATUS:CONFIRMED');
    }

    // ── 3. The parent changes the Maths time: Change → a free time → Save changes ─────────────────
    await page.goto(`${baseUrl}${bookingPath}`); // the personal link stays with the tab
    const mine = myBookingsCard(page).getByRole('listitem');
    await expect.poll(() => mine.count()).toBe(4);
    const oldTime = arranged.get(maths) ?? '';
    const newTime = '17:40'; // after the arranged window: free, and clashing with nothing of the family
    await mine.filter({ hasText: maths }).getByRole('button', { name: 'Change' }).click();
    await textOf(page.getByText(/^Choose a new time with /), `Choose a new time with ${maths}.`);
    expect(await slotState(page, oldTime, maths)).toBe('booked for you');
    await slot(page, newTime, maths).click();
    await expect.poll(() => slotState(page, newTime, maths)).toBe('selected');
    await slot(page, newTime, maths).evaluate((cell) => cell.scrollIntoView({ block: 'center' }));
    await shot(page, '07-change-picked', false);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await textOf(flow.getByRole('status'), 'Booking changed.');
    await textOf(
      flow.getByRole('list', { name: 'My bookings' }).getByRole('listitem').filter({ hasText: maths }),
      `${newTime} – ${plus(newTime, 10)}`,
    );
    await shot(page, '08-changed');
    // The change is mailed too: the new time confirmed, the old one cancelled.
    const changed = await mailTo(e.parent.email, `${e.eventName}: booking changed`);
    const changedIcs = calendarEvents(
      await (await fetch(`${baseUrl}/api/dev/mailbox/attachment?id=${changed.id}&index=0`)).text(),
    );
    const mathsEntries = changedIcs.filter((entry) => entry.includes(maths));
    expect(mathsEntries.find((entry) => entry.includes('STATUS:CANCELLED'))).toContain(
      `DTSTART;TZID=${ZONE}:${ymd}T${oldTime.replace(':', '')}00`,
    );
    expect(mathsEntries.find((entry) => entry.includes('STATUS:CONFIRMED'))).toContain(
      `DTSTART;TZID=${ZONE}:${ymd}T${newTime.replace(':', '')}00`,
    );

    // ── 4. The teacher: My Events lists the evening; its schedule shows the change ───────────────────
    const staff = await open();
    await logIn(staff, baseUrl, e.maths.email, PASSWORD);
    const teacherList = staff.getByRole('list', { name: 'Teacher events' });
    const card = teacherList.getByRole('listitem').filter({ hasText: e.eventName });
    await textOf(card.getByTestId('booking-details'), '1 appointment booked');
    await textOf(card, /16:00 – 18:00/);
    await shot(staff, '09-teacher-home');
    await card.getByRole('link', { name: 'View bookings' }).click();
    await staff.waitForURL(
      (url) =>
        url.pathname === '/event/details-teacher' && url.searchParams.get('eventId') === String(e.eventId),
    );
    const line = (time: string) =>
      staff.locator(phone ? 'li' : 'tr').filter({ hasText: `${time}–${plus(time, 10)}` });
    await textOf(line(newTime), new RegExp(`${e.parent.name}[\\s\\S]*${e.rosa.name}[\\s\\S]*Maths`));
    await textOf(line(oldTime), 'Free');
    expect(await line(oldTime).innerText()).not.toContain(e.parent.name);
    await textOf(staff.getByText(/appointments? booked$/), '1 appointment booked');
    await line(newTime).scrollIntoViewIfNeeded();
    await shot(staff, '10-teacher-schedule', false);

    // ── 5. A student: no open events until invited, then the evening with its buttons ──────────────
    const pupil = await open();
    await logIn(pupil, baseUrl, e.student.email, PASSWORD);
    await expect.poll(() => pupil.getByText('There are no open student events').isVisible()).toBe(true);
    await shot(pupil, '11-student-home-empty');
    await ok(
      e.admin.post(`events/add-recipients?eventId=${e.eventId}&saveme=1`, { userIds: [e.student.id] }),
    );
    await pupil.getByRole('button', { name: 'Refresh My Events' }).click();
    const studentCard = pupil
      .getByRole('list', { name: 'Student events' })
      .getByRole('listitem')
      .filter({ hasText: e.eventName });
    await textOf(studentCard.getByTestId('booking-details'), 'No bookings found.');
    await textOf(studentCard, /16:00 – 18:00/); // London's evening, not New York's 11:00
    expect(await studentCard.getByRole('link', { name: 'Update booking' }).getAttribute('href')).toBe(
      bookingPath,
    );
    await studentCard.getByRole('button', { name: 'Add to Calendar' }).click();
    const calendarDialog = pupil.getByRole('dialog', { name: 'Add to Calendar' });
    await textOf(calendarDialog, 'Reminder: 1 day before');
    await shot(pupil, '12-student-calendar-dialog', false);
    const [calendarFile] = await Promise.all([
      pupil.waitForEvent('download'),
      calendarDialog.getByRole('button', { name: 'Add', exact: true }).click(),
    ]);
    expect(calendarFile.suggestedFilename()).toMatch(/\.ics$/);
    await snackbar(pupil, 'Calendar file downloaded.');
    await expect
      .poll(() => studentCard.getByRole('button', { name: 'Added to Calendar' }).isDisabled())
      .toBe(true);
    await shot(pupil, '13-student-home-listed');

    // ── 6. Two parents race for 16:00 with the Maths teacher: one books it, the other gets the 409 ───
    await Promise.all(browsers.splice(0).map((browser) => browser.close())); // keep two browsers, not five
    const [bea, cal] = e.racers as [(typeof e.racers)[0], (typeof e.racers)[0]];
    const [first, second] = await Promise.all([open(), open()]);
    await openGrid(first, bea.email, maths);
    await openGrid(second, cal.email, maths);
    const race = '16:00';
    await slot(first, race, maths).click();
    await first.getByRole('button', { name: 'Book 1 time' }).click();
    await textOf(flowCard(first).getByRole('status'), 'Booking confirmed.');
    // The second parent's grid still shows 16:00 free: they pick it and book.
    expect(await slotState(second, race, maths)).toBe('free');
    await slot(second, race, maths).click();
    await expect.poll(() => slotState(second, race, maths)).toBe('selected');
    await second.getByRole('button', { name: 'Book 1 time' }).click();
    await textOf(second.getByRole('alert'), SLOT_TAKEN);
    // The fresh grid: 16:00 taken, nothing picked, the next time still free; no error page.
    await expect.poll(() => slotState(second, race, maths)).toBe('taken');
    expect(await slotState(second, plus(race, 10), maths)).toBe('free');
    expect(await second.getByRole('button', { name: /^Book/ }).isDisabled()).toBe(true);
    await textOf(myBookingsCard(second), 'No bookings yet.');
    await second.getByRole('alert').scrollIntoViewIfNeeded();
    await shot(first, '14-race-winner');
    await shot(second, '15-race-loser', false);

    // The server agrees: one booking at 16:00, the winner's.
    const schedule = await ok<{ days: Array<{ rows: Array<{ time: string; bookings: unknown[] }> }> }>(
      e.admin.get(`events/details-teacher?eventId=${e.eventId}&teacherId=${e.maths.id}`),
    );
    const raced = schedule.days.flatMap((day) => day.rows).find((row) => row.time === race);
    expect(raced?.bookings).toEqual([
      expect.objectContaining({ parentName: bea.name, studentName: bea.child.name }),
    ]);
  });
});
