import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCAN_WINDOW_HOURS_MAX } from '@parley/domain/events';
import type { DoorState, EventTicketResponse, Ticket } from '@parley/domain/tickets';
import { formatIsoDateTime } from '@parley/domain/time-zone';
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Browser, DESKTOP, LONG_JOURNEY_MS, openBrowser, PHONE, screenshot } from './browser';
import { cameraArgs, type Frame, hold, writeVideo } from './fake-camera';
import { linkFromMailboxApi, logIn, PASSWORD, schoolThroughApi, snackbar, uniqueEmail } from './journeys';

const baseUrl = inject('baseUrl');

// Issue 10 in Chromium: a family's tickets, a door phone whose camera films them (a fake camera playing a
// video made from the real tickets' QR codes), the door page, and an offline door.

const CONCERT = 'Sample: Summer concert';
const CAMERA_DENIED =
  'Camera permission denied. Please: 1. Allow camera access when prompted 2. Check device settings if needed 3. Reload the app and try again';

/** Where this file's videos and reused phone profiles live; removed at the end. */
const work = mkdtempSync(join(tmpdir(), 'parley-tickets-e2e-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let files = 0;
const video = (frames: Frame[]) => writeVideo(join(work, `camera-${++files}.y4m`), frames);
const profile = () => mkdtempSync(join(work, 'phone-'));

async function ok<T>(response: Promise<Response>): Promise<T> {
  const res = await response;
  const body = await res.text();
  expect(res.status, body).toBe(200);
  return JSON.parse(body) as T;
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

async function tokenOf(email: string): Promise<string> {
  const { accessToken } = await ok<{ accessToken: string }>(
    fetch(`${baseUrl}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    }),
  );
  return accessToken;
}

type Person = { id: number; email: string; name: string };

/**
 * A new school's sample "Summer concert" (ticketed), enabled; a teacher the admin names as its scanner;
 * a parent who books it for their child with two guests (three tickets), as the booking page does.
 */
async function concert(label: string) {
  const admin = await schoolThroughApi(baseUrl, `Tickets ${label} School`);
  const post = <T>(path: string, body: unknown) => ok<T>(admin.post(path, body));
  const person = async (kind: 'teacher' | 'parent' | 'student', body: Record<string, unknown>) => {
    const email = uniqueEmail(kind);
    const { id } = await post<{ id: number }>(`users/create-${kind}`, { ...body, email });
    return { id, email, name: `${body.firstName} ${body.lastName}` } satisfies Person;
  };
  const { events } = await ok<{ events: Array<{ id: number; name: string }> }>(admin.get('events/index'));
  const eventId = events.find((event) => event.name === CONCERT)?.id ?? 0;
  expect(eventId).toBeGreaterThan(0);
  // Its door open today (issue 35's window; the sample concert is weeks ahead).
  await post(`events/update?id=${eventId}`, { status: 1, scanOpensHoursBefore: SCAN_WINDOW_HOURS_MAX });
  const { event } = await ok<{ event: { code: string } }>(admin.get(`events/view?id=${eventId}`));

  const teacher = await person('teacher', {
    title: 'Ms',
    firstName: 'Tess',
    lastName: 'Doorway',
    sendInvite: true,
  });
  await setPassword(teacher.email, 'users/set-teacher-password');
  await post(`events/update-can-scan-user-ids?id=${eventId}`, { canScanUserIds: [teacher.id] });
  const parent = await person('parent', { firstName: 'Pat', lastName: 'Rowe', sendInvite: true });
  await setPassword(parent.email, 'users/set-new-password');
  const child = await person('student', {
    firstName: 'Rosa',
    lastName: 'Rowe',
    parentIds: [parent.id],
    sendInvite: false,
  });

  // The parent books the concert for Rosa and two guests.
  const parentToken = await tokenOf(parent.email);
  const asParent = (path: string, init: RequestInit = {}) =>
    fetch(`${baseUrl}/api/${path}`, {
      ...init,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${parentToken}` },
    });
  const page = await ok<{ grid: Array<{ slots: Array<{ id: number; free: number }> }> }>(
    asParent(`events/book-event?code=${event.code}`),
  );
  const slotId = page.grid.flatMap((group) => group.slots).find((slot) => slot.free >= 3)?.id;
  expect(slotId).toBeTruthy();
  await ok(
    asParent(`events/update-slot-for-booking?id=${eventId}`, {
      method: 'POST',
      body: JSON.stringify({
        items: [{ slotId, studentId: child.id, guests: 2 }],
        idempotencyKey: `tickets-${label}-${Date.now()}`,
      }),
    }),
  );
  const tickets = async (): Promise<Ticket[]> =>
    (
      await ok<EventTicketResponse>(
        admin.get(`tickets/get-event-ticket?eventId=${eventId}&userId=${child.id}`),
      )
    ).data.tickets;
  const door = () => ok<DoorState>(admin.get(`tickets/door?eventId=${eventId}`));
  const issued = await tickets();
  expect(issued.map((ticket) => ticket.userName)).toEqual([
    'Rosa Rowe',
    'Guest 1 of Rosa Rowe',
    'Guest 2 of Rosa Rowe',
  ]);
  return { admin, eventId, teacher, parent, child, tickets, issued, door };
}

/** Waits (up to 15 s) until a locator's text matches. */
async function textOf(locator: Locator, expected: RegExp | string, timeout = 15_000): Promise<void> {
  await expect
    .poll(async () => ((await locator.count()) > 0 ? locator.first().innerText() : ''), { timeout })
    .toMatch(expected);
}

/** A screenshot once MUI's transitions have ended. */
async function shot(page: Page, name: string, fullPage = false): Promise<void> {
  await page.waitForTimeout(400);
  await screenshot(page, `tickets-${name}`, { fullPage });
}

const scannerDialog = (page: Page) => page.getByRole('dialog', { name: 'Scan Ticket' });
/** The scanner's latest result panel (one already read is marked) and its title (an h3). */
const resultPanel = (page: Page) =>
  scannerDialog(page)
    .locator('[role="status"]:not([data-read])')
    .filter({ has: page.getByRole('heading', { level: 3 }) });
const resultTitle = (page: Page) => resultPanel(page).getByRole('heading', { level: 3 });
/** The result on screen, read or not. */
const shownResult = (page: Page) =>
  scannerDialog(page)
    .getByRole('status')
    .filter({ has: page.getByRole('heading', { level: 3 }) });

/** The door page, then its "Scan Tickets": the scanner with the phone's camera. */
async function openScanner(page: Page, eventId: number): Promise<Locator> {
  await page.goto(`${baseUrl}/events/door/${eventId}`);
  await textOf(page.getByRole('heading', { level: 1 }), `Door: ${CONCERT}`);
  await page.getByRole('button', { name: 'Scan Tickets' }).click();
  return scannerDialog(page);
}

/**
 * Reads results, "Scan Another" after each, until the camera shows this person's ticket admitted; returns
 * what came before ("Already Scanned: Rosa Rowe"). The video loops, so every ticket in it comes round.
 */
async function scanUntilAdmitted(page: Page, name: string): Promise<string[]> {
  const seen: string[] = [];
  for (let round = 0; round < 40; round++) {
    await textOf(resultTitle(page), /./, 20_000);
    const title = await resultTitle(page).innerText();
    const lines = (await resultPanel(page).innerText()).split('\n').map((line) => line.trim());
    const who = lines[lines.indexOf('Name') + 1] ?? '';
    await resultPanel(page).evaluate((panel) => panel.setAttribute('data-read', ''));
    if (title === 'Ticket Scanned Successfully!' && who === name) return seen;
    seen.push(`${title}: ${who}`);
    await page.waitForTimeout(700); // the video moves on
    await scannerDialog(page).getByRole('button', { name: 'Scan Another' }).click();
  }
  throw new Error(`${name} was never admitted; seen: ${seen.join(' | ')}`);
}

/**
 * Opens browsers for a test and closes them after it (a failed test photographs each first): call once
 * in a describe.
 */
function browsersOfEachTest(name: string) {
  const browsers: Browser[] = [];
  afterEach(async ({ task }) => {
    for (const [index, browser] of browsers.entries()) {
      // A phone the test closed itself has nothing to photograph.
      if (task.result?.state === 'fail' && !browser.page.isClosed())
        await screenshot(browser.page, `failed-${name}-${index}`);
      await browser.close();
    }
    browsers.length = 0;
  });
  return async (...args: Parameters<typeof openBrowser>) => {
    const browser = await openBrowser(...args);
    browsers.push(browser);
    return browser;
  };
}

describe('tickets at the door (online)', () => {
  let school: Awaited<ReturnType<typeof concert>>;
  const open = browsersOfEachTest('tickets');
  beforeAll(async () => {
    school = await concert('door');
  });

  it('a phone scans a real ticket once, again ("Already Scanned") and a forged one; the door and the family see it', async () => {
    const [rosa] = school.issued as [Ticket];

    // ── The parent: "Your Ticket" shows the three tickets, ready to scan ─────────────────────────────────
    const parentDesk = await open(DESKTOP);
    const parentPage = parentDesk.page;
    await logIn(parentPage, baseUrl, school.parent.email, PASSWORD);
    const card = parentPage.getByRole('listitem').filter({ hasText: CONCERT });
    await card.getByRole('button', { name: 'Show Ticket' }).click();
    const ticketDialog = parentPage.getByRole('dialog', { name: 'Your Ticket' });
    await textOf(ticketDialog, 'Ticket 1 of 3');
    await textOf(ticketDialog, 'Ready to Scan');
    await textOf(ticketDialog, 'Rosa Rowe');
    expect(
      await ticketDialog
        .getByRole('img', { name: /^QR code of the ticket for Rosa Rowe/ })
        .getAttribute('data-qr-text'),
    ).toBe(rosa.qrCodeUrl);
    await shot(parentPage, 'desktop-01-your-ticket');
    for (const [index, name] of ['Guest 1 of Rosa Rowe', 'Guest 2 of Rosa Rowe'].entries()) {
      await ticketDialog.getByRole('button', { name: 'Next ticket' }).click();
      await textOf(ticketDialog, `Ticket ${index + 2} of 3`);
      await textOf(ticketDialog, name); // the ticket shown (the others are hidden)
      await textOf(ticketDialog, 'Ready to Scan');
    }
    await ticketDialog.getByRole('button', { name: 'Close' }).click();

    // ── The teacher's phone films Rosa's ticket: admitted once ──────────────────────────────────────────
    const phoneProfile = profile();
    const realTicket = video(hold(rosa.qrCodeUrl, 2));
    let phone = await open(PHONE, { isMobile: true, args: cameraArgs(realTicket), profileDir: phoneProfile });
    await logIn(phone.page, baseUrl, school.teacher.email, PASSWORD);
    // The teacher's home lists the concert they scan at, with "Scan Tickets".
    const myEvent = phone.page.getByRole('listitem').filter({ hasText: CONCERT });
    await myEvent.getByRole('button', { name: 'Scan Tickets' }).click();
    const scanner = scannerDialog(phone.page);
    await textOf(resultTitle(phone.page), 'Ticket Scanned Successfully!', 20_000);
    await snackbar(phone.page, 'Ticket scanned successfully for Rosa Rowe');
    await textOf(resultPanel(phone.page), /Name\s+Rosa Rowe/);
    await textOf(resultPanel(phone.page), new RegExp(`Email\\s+${school.child.email.replace(/\./g, '\\.')}`));
    await textOf(resultPanel(phone.page), new RegExp(`Event\\s+${CONCERT}`));
    await textOf(resultPanel(phone.page), /Scanned\s+.+\(Tess Doorway\)/);
    await shot(phone.page, 'phone-02-scanned');

    // The same ticket again: "Already Scanned", saying when and by whom.
    await scanner.getByRole('button', { name: 'Scan Another' }).click();
    await textOf(resultTitle(phone.page), 'Already Scanned', 20_000);
    await textOf(resultPanel(phone.page), 'This ticket has already been scanned.');
    await textOf(resultPanel(phone.page), /Already scanned .+ by Tess Doorway\./);
    await shot(phone.page, 'phone-03-already-scanned');
    await scanner.getByRole('button', { name: 'Close' }).click();
    await phone.close();

    // ── The same phone, now filming a forged ticket: "Invalid Ticket" ───────────────────────────────────
    const forged = video(hold(`${baseUrl}/t/ForgedTicketCodeXXXXXX`, 2));
    phone = await open(PHONE, { isMobile: true, args: cameraArgs(forged), profileDir: phoneProfile });
    await openScanner(phone.page, school.eventId);
    await textOf(resultTitle(phone.page), 'Invalid Ticket', 20_000);
    await textOf(resultPanel(phone.page), 'This is not a ticket for this event.');
    await shot(phone.page, 'phone-04-invalid');
    await scannerDialog(phone.page).getByRole('button', { name: 'Close' }).click();

    // ── The door page: 1 admitted of 3 expected ─────────────────────────────────────────────────────────
    const figure = (page: Page, label: string) => page.getByLabel(new RegExp(`^${label}: `));
    await textOf(figure(phone.page, 'Expected'), '3');
    await textOf(figure(phone.page, 'Admitted'), '1');
    await textOf(figure(phone.page, 'Still to come'), '2');
    await textOf(phone.page.getByRole('list', { name: 'Latest admissions' }), /Rosa Rowe/);
    await shot(phone.page, 'phone-05-door', true);
    expect(await school.door()).toMatchObject({ expected: 3, admitted: 1, toCome: 2, duplicates: [] });

    const adminDesk = await open(DESKTOP);
    await logIn(adminDesk.page, baseUrl, school.admin.email, PASSWORD);
    await adminDesk.page.goto(`${baseUrl}/events/door/${school.eventId}`);
    await textOf(figure(adminDesk.page, 'Admitted'), '1');
    await textOf(figure(adminDesk.page, 'Expected'), '3');
    await shot(adminDesk.page, 'desktop-06-door', true);

    // ── The family sees Rosa's ticket scanned, with when ────────────────────────────────────────────────
    await parentPage.reload();
    await parentPage
      .getByRole('listitem')
      .filter({ hasText: CONCERT })
      .getByRole('button', { name: 'Show Ticket' })
      .click();
    await textOf(ticketDialog, 'Ticket 1 of 3');
    await textOf(ticketDialog, /\bScanned\b/);
    await textOf(ticketDialog, /Scanned: \w{3} \d{1,2} \w{3} \d{4}, \d{2}:\d{2}/);
    expect(await ticketDialog.innerText()).not.toContain('Ready to Scan'); // Rosa's (the guests' are hidden)
    await shot(parentPage, 'desktop-07-your-ticket-scanned');

    // And on the parent's phone.
    const parentPhone = await open(PHONE, { isMobile: true });
    await logIn(parentPhone.page, baseUrl, school.parent.email, PASSWORD);
    await parentPhone.page
      .getByRole('listitem')
      .filter({ hasText: CONCERT })
      .getByRole('button', { name: 'Show Ticket' })
      .click();
    const phoneTicket = parentPhone.page.getByRole('dialog', { name: 'Your Ticket' });
    await textOf(phoneTicket, /Scanned: \w{3} \d{1,2} \w{3} \d{4}, \d{2}:\d{2}/);
    await shot(parentPhone.page, 'phone-08-your-ticket-scanned');
  });

  it('a refused camera gives the spec’s text; a desktop without touch gets "Mobile Device Required"', async () => {
    const [, guest1] = school.issued as [Ticket, Ticket];
    // A real refusal: the browser asks, and nobody says yes (no fake permission prompt).
    const refused = await open(PHONE, {
      isMobile: true,
      args: cameraArgs(video(hold(guest1.qrCodeUrl, 1)), { allow: false }),
    });
    await logIn(refused.page, baseUrl, school.teacher.email, PASSWORD);
    const scanner = await openScanner(refused.page, school.eventId);
    await textOf(scanner.getByRole('alert'), CAMERA_DENIED);
    expect(await scanner.getByRole('button', { name: 'Try Again' }).isVisible()).toBe(true);
    await shot(refused.page, 'phone-09-camera-refused');

    const desk = await open(DESKTOP);
    await logIn(desk.page, baseUrl, school.teacher.email, PASSWORD);
    await desk.page.goto(`${baseUrl}/events/door/${school.eventId}`);
    await desk.page.getByRole('button', { name: 'Scan Tickets' }).click();
    const required = desk.page.getByRole('dialog', { name: 'Mobile Device Required' });
    await textOf(required, /needs a phone or tablet with a camera/);
    expect(await desk.page.getByRole('dialog', { name: 'Scan Ticket' }).count()).toBe(0);
    await shot(desk.page, 'desktop-10-mobile-required');
    // Nobody scanned anything here.
    expect((await school.door()).admitted).toBe(1);
  });

  it('the QR’s own address: anyone sees a ticket to show; the scanner checks it and admits', async () => {
    const [, , guest2] = school.issued as [Ticket, Ticket, Ticket];
    const phone = await open(PHONE, { isMobile: true });
    const codeRequests: string[] = [];
    phone.context.on('request', (request) => {
      if (request.url().includes(guest2.ticketId) || request.postData()?.includes(guest2.ticketId))
        codeRequests.push(request.url());
    });
    await phone.page.goto(guest2.qrCodeUrl);
    await textOf(phone.page.getByRole('heading', { level: 1 }), 'Parley ticket');
    expect(
      await phone.page.getByRole('img', { name: 'QR code of this ticket' }).getAttribute('data-qr-text'),
    ).toBe(guest2.qrCodeUrl);
    await shot(phone.page, 'phone-11-ticket-link', true);
    expect(codeRequests).toEqual([guest2.qrCodeUrl]); // signed out, the code went nowhere but into the page

    await phone.page.getByRole('link', { name: 'Log in to check' }).click();
    await phone.page.getByLabel('Email').fill(school.teacher.email);
    await phone.page.getByLabel('Password').fill(PASSWORD);
    await phone.page.getByRole('button', { name: 'Log In' }).click();
    await phone.page.waitForURL((url) => url.pathname === `/t/${guest2.ticketId}`);
    await textOf(phone.page.getByText('Valid ticket.'), 'Valid ticket.');
    await textOf(phone.page.locator('main'), /Guest 2 of Rosa Rowe/);
    await phone.page.getByRole('button', { name: 'Admit' }).click();
    await textOf(phone.page.getByRole('heading', { level: 3 }), 'Ticket Scanned Successfully!');
    await snackbar(phone.page, 'Ticket scanned successfully for Guest 2 of Rosa Rowe');
    await shot(phone.page, 'phone-12-ticket-link-admitted');
    // Only this app heard of the code (the page, the login's return address, the API).
    expect(codeRequests.length).toBeGreaterThan(2);
    for (const url of codeRequests) expect(url.startsWith(`${baseUrl}/`), url).toBe(true);
    expect((await school.door()).admitted).toBe(2);
  });
});

describe('an American browser at a UK school (issue 36)', () => {
  const open = browsersOfEachTest('clock');

  it('the scanner’s card links to the door page; the door and the ticket show London time in the school’s style', async () => {
    const school = await concert('clock');
    const [rosa] = school.issued as [Ticket];
    await ok(school.admin.post('tickets/scan-ticket', { ticketId: rosa.ticketId, eventId: school.eventId }));
    const [admitted] = (await school.door()).recent;
    const when = formatIsoDateTime(admitted?.scannedDate ?? '', 'Europe/London');
    const american = { locale: 'en-US', timezoneId: 'America/New_York' };
    /** The browser's own style: "12/6/2026", "3:41 AM". */
    const browserStyle = /\d{1,2}\/\d{1,2}\/\d{4}|\b[AP]M\b/;

    for (const [device, viewport, phone] of [
      ['desktop', DESKTOP, false],
      ['phone', PHONE, true],
    ] as const) {
      const { page } = await open(viewport, { ...american, ...(phone && { isMobile: true }) });
      await logIn(page, baseUrl, school.teacher.email, PASSWORD);
      const card = page.getByRole('listitem').filter({ hasText: CONCERT });
      const doorLink = card.getByRole('link', { name: 'Open the door page' });
      await textOf(doorLink, 'Open the door page');
      await shot(page, `${device}-clock-01-scanner-card`);
      await doorLink.click();
      const recent = page.getByRole('list', { name: 'Latest admissions' });
      await textOf(recent, when);
      expect(await page.locator('main').innerText()).not.toMatch(browserStyle);
      await shot(page, `${device}-clock-02-door`, true);
    }

    const { page } = await open(DESKTOP, american);
    await logIn(page, baseUrl, school.parent.email, PASSWORD);
    await page
      .getByRole('listitem')
      .filter({ hasText: CONCERT })
      .getByRole('button', { name: 'Show Ticket' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Your Ticket' });
    await textOf(dialog, `Scanned: ${when}`);
    expect(await dialog.innerText()).not.toMatch(browserStyle);
    await shot(page, 'desktop-clock-03-your-ticket');
  });
});

describe('an offline door', () => {
  const open = browsersOfEachTest('offline');

  it('admits from its list without a network, sends the scans once when it returns, and two offline doors on one ticket show as a duplicate', {
    timeout: LONG_JOURNEY_MS,
  }, async () => {
    const school = await concert('offline');
    const [rosa, guest1, guest2] = school.issued as [Ticket, Ticket, Ticket];
    const names = school.issued.map((ticket) => ticket.userName) as [string, string, string];
    const lead = 4; // seconds of an empty picture: time to take the list and lose the network

    // ── Door 1 (the teacher's phone) takes the list online, then the network drops ───────────────────────
    const door1 = await open(PHONE, {
      isMobile: true,
      args: cameraArgs(
        video([
          ...hold(null, lead),
          ...hold(rosa.qrCodeUrl, 2),
          ...hold(guest1.qrCodeUrl, 2),
          ...hold(guest2.qrCodeUrl, 2),
        ]),
      ),
    });
    await logIn(door1.page, baseUrl, school.teacher.email, PASSWORD);
    let scanner = await openScanner(door1.page, school.eventId);
    await textOf(scanner, /Ready offline: 3 tickets on this phone \(list taken .+\)/);
    await door1.context.setOffline(true);
    await textOf(scanner.getByTestId('door-offline'), 'Offline');

    // Two tickets come in without a network.
    const before = await scanUntilAdmitted(door1.page, names[0]);
    expect(before).toEqual([]);
    await textOf(shownResult(door1.page), 'Admitted offline: the scan is sent when the network returns.');
    await snackbar(door1.page, `Ticket scanned successfully for ${names[0]}`);
    await textOf(scanner.getByTestId('door-offline'), 'Offline — 1 scan waiting');
    await scanner.getByRole('button', { name: 'Scan Another' }).click();
    const between = await scanUntilAdmitted(door1.page, names[1]);
    // Rosa's ticket, seen again on the way, is "Already Scanned" by this door.
    expect(between.every((line) => line === `Already Scanned: ${names[0]}`)).toBe(true);
    await textOf(scanner.getByTestId('door-offline'), 'Offline — 2 scans waiting');
    await shot(door1.page, 'phone-20-offline-two-waiting');
    await scanner.getByRole('button', { name: 'Close' }).click();
    await textOf(door1.page.getByTestId('door-offline'), 'Offline — 2 scans waiting'); // the door page says it too
    await shot(door1.page, 'phone-21-offline-door-page');
    expect((await school.door()).admitted).toBe(0); // nothing has reached the server

    // ── Door 2 (the admin's phone) takes the list, loses the network, admits Guest 2 ─────────────────────
    const door2 = await open(PHONE, {
      isMobile: true,
      args: cameraArgs(video([...hold(null, lead), ...hold(guest2.qrCodeUrl, 2)])),
    });
    await logIn(door2.page, baseUrl, school.admin.email, PASSWORD);
    const scanner2 = await openScanner(door2.page, school.eventId);
    await textOf(scanner2, /Ready offline: 3 tickets/);
    await door2.context.setOffline(true);
    await textOf(scanner2.getByTestId('door-offline'), 'Offline');
    await scanUntilAdmitted(door2.page, names[2]);
    await textOf(scanner2.getByTestId('door-offline'), 'Offline — 1 scan waiting');

    // ── Door 1 admits Guest 2 as well (its scanner opens again, offline) ───────────────────────────────
    scanner = scannerDialog(door1.page);
    await door1.page.getByRole('button', { name: 'Scan Tickets' }).click();
    await scanUntilAdmitted(door1.page, names[2]);
    await textOf(scanner.getByTestId('door-offline'), 'Offline — 3 scans waiting');
    const keptKey = `parley.door.${school.teacher.id}.${school.eventId}`;
    const kept = await door1.page.evaluate((key) => localStorage.getItem(key), keptKey);
    expect((JSON.parse(kept ?? '{}') as { queue: unknown[] }).queue).toHaveLength(3);

    // ── The network returns to door 1 first: its three admissions reach the server ─────────────────────
    await door1.context.setOffline(false);
    await textOf(
      scanner.getByRole('alert').filter({ hasText: 'offline scans sent' }),
      '3 offline scans sent: 3 admitted.',
      20_000,
    );
    expect(await scanner.getByTestId('door-offline').count()).toBe(0);
    await shot(door1.page, 'phone-22-synced');
    let state = await school.door();
    expect(state).toMatchObject({ expected: 3, admitted: 3, toCome: 0, duplicates: [] });

    // A resend of the same nonces (say the answer was lost) changes nothing.
    const report = scanner.getByRole('alert').filter({ hasText: 'offline scans sent' });
    await report.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => report.count()).toBe(0);
    await door1.page.evaluate(
      ([key, value]) => localStorage.setItem(key as string, value as string),
      [keptKey, kept],
    );
    await door1.context.setOffline(true);
    await door1.context.setOffline(false);
    await textOf(
      scanner.getByRole('alert').filter({ hasText: 'offline scans sent' }),
      '3 offline scans sent: 3 admitted.',
      20_000,
    );
    state = await school.door();
    expect(state).toMatchObject({ admitted: 3, duplicates: [] });

    // ── Then door 2: its Guest 2 came second, a duplicate, told at the door and listed for the admin ───
    await door2.context.setOffline(false);
    const duplicateLine = `${names[2]}: another door admitted this ticket first. Already scanned`;
    await textOf(
      scanner2.getByRole('alert').filter({ hasText: 'offline scan sent' }),
      '1 offline scan sent: 0 admitted.',
      20_000,
    );
    await textOf(
      scanner2.getByRole('alert').filter({ hasText: 'offline scan sent' }),
      new RegExp(`${duplicateLine} .+ by Tess Doorway\\.`),
    );
    await shot(door2.page, 'phone-23-duplicate-reported');
    // Each phone synced under its own device id.
    const deviceOf = (page: Page) => page.evaluate(() => localStorage.getItem('scannerDeviceId'));
    const [device1, device2] = [await deviceOf(door1.page), await deviceOf(door2.page)];
    expect(device1).toMatch(/^[0-9a-f]{32}$/);
    expect(device2).toMatch(/^[0-9a-f]{32}$/);
    expect(device2).not.toBe(device1);
    state = await school.door();
    expect(state).toMatchObject({ expected: 3, admitted: 3, toCome: 0 });
    expect(state.duplicates).toHaveLength(1);
    expect(state.duplicates[0]).toMatchObject({
      ticket: { userName: names[2], scanned: true, scannedByName: 'Tess Doorway' },
      deviceId: device2,
      byName: 'Ada Admin',
    });
    // Every ticket is scanned once, by the teacher's door.
    for (const ticket of await school.tickets())
      expect(ticket).toMatchObject({ scanned: true, scannedByName: 'Tess Doorway' });

    // The admin's desk: the door page lists the person let in twice.
    const desk = await open(DESKTOP);
    await logIn(desk.page, baseUrl, school.admin.email, PASSWORD);
    await desk.page.goto(`${baseUrl}/events/door/${school.eventId}`);
    const twice = desk.page.getByRole('list', { name: 'Admitted twice' });
    await textOf(twice, new RegExp(`${names[2]}[\\s\\S]*Again .+ by Ada Admin`));
    await textOf(desk.page.getByLabel(/^Admitted: /), '3');
    await shot(desk.page, 'desktop-24-door-duplicate', true);
  });
});
