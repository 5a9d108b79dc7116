import { generate } from 'otplib';
import type { Locator, Page } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { type Browser, DESKTOP, openBrowser, PHONE, screenshot } from './browser';
import { logIn, openUserMenu, PASSWORD, schoolThroughApi, waitForPath } from './journeys';

const baseUrl = inject('baseUrl');

// Issue 11's accounts journey (decision 015): an admin turns on two-factor sign-in from the profile page,
// signs in with a code from the "app" (computed here from the key shown on screen) and with a recovery
// code, and ends a session that a second browser holds.

/** The code an authenticator app shows for the secret, `stepsAhead` 30-second steps from now. */
const codeFor = (secret: string, stepsAhead = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + stepsAhead * 30 });

/** Waits for a dialog's opening transition to end, so a screenshot shows it, not its fade. */
async function opened(dialog: Locator): Promise<void> {
  await expect
    .poll(() =>
      dialog.evaluate((element) => {
        const container = element.closest('.MuiDialog-container') ?? element;
        return getComputedStyle(container).opacity;
      }),
    )
    .toBe('1');
}

async function logOut(page: Page): Promise<void> {
  await openUserMenu(page, false);
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await waitForPath(page, '/auth/login');
}

async function passwordStep(page: Page, email: string): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await waitForPath(page, '/auth/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect.poll(() => page.getByText('Two-factor sign-in').isVisible()).toBe(true);
}

describe('two-factor sign-in and sessions', () => {
  const browsers: Browser[] = [];
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail' && browsers[0]) await screenshot(browsers[0].page, 'failed-two-factor');
    await Promise.all(browsers.splice(0).map((browser) => browser.close()));
  });

  it('an admin turns it on, signs in with a code and with a recovery code, and ends another session', async () => {
    const admin = await schoolThroughApi(baseUrl, 'Two Factor School');
    await admin.post('user/logout', {}); // the set-up's own session: the browsers' are the ones to see
    const desktop = await openBrowser(DESKTOP);
    browsers.push(desktop);
    const { page } = desktop;
    await logIn(page, baseUrl, admin.email, PASSWORD);

    // Turn it on from the profile page.
    await page.goto(`${baseUrl}/profile`);
    const turnOn = page.getByRole('button', { name: 'Turn on' });
    await expect.poll(() => turnOn.isVisible()).toBe(true);
    await screenshot(page, 'two-factor-01-profile-off');
    await turnOn.click();
    const setup = page.getByRole('dialog', { name: 'Set up two-factor sign-in' });
    await expect
      .poll(() => setup.getByRole('img', { name: 'QR code for your authenticator app' }).isVisible())
      .toBe(true);
    const qrText = await setup.locator('[data-qr-text]').getAttribute('data-qr-text');
    expect(qrText).toMatch(/^otpauth:\/\/totp\/Parley:/);
    // The key as the person reads it off the screen, spaces and all.
    const shown = (await setup.getByLabel('Setup key').textContent()) ?? '';
    const secret = shown.replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(new URL(qrText ?? '').searchParams.get('secret')).toBe(secret);
    await opened(setup);
    await screenshot(page, 'two-factor-02-setup-desktop', { fullPage: false });
    await page.setViewportSize(PHONE);
    await screenshot(page, 'two-factor-02-setup-phone', { fullPage: false });
    await page.setViewportSize(DESKTOP);

    await setup.getByLabel('6-digit code').fill(await codeFor(secret));
    await setup.getByRole('button', { name: 'Turn on' }).click();
    const codesDialog = page.getByRole('dialog', { name: 'Your recovery codes' });
    await expect.poll(() => codesDialog.isVisible()).toBe(true);
    const recoveryCodes = await codesDialog.getByRole('listitem').allTextContents();
    expect(recoveryCodes).toHaveLength(10);
    await opened(codesDialog);
    await screenshot(page, 'two-factor-03-recovery-codes-desktop', { fullPage: false });
    await page.setViewportSize(PHONE);
    await screenshot(page, 'two-factor-03-recovery-codes-phone', { fullPage: false });
    await page.setViewportSize(DESKTOP);
    await codesDialog.getByRole('button', { name: 'I have saved them' }).click();
    await expect.poll(() => page.getByText('10 recovery codes left.').isVisible()).toBe(true);
    await screenshot(page, 'two-factor-04-profile-on');

    // Sign out; the password alone no longer signs in: a code from the app does.
    await logOut(page);
    await passwordStep(page, admin.email);
    expect(await page.evaluate(() => localStorage.getItem('ACCESS_TOKEN'))).toBeNull();
    await screenshot(page, 'two-factor-05-code-step-desktop');
    // The enrolment spent this step's code: the app's next one (one step ahead is accepted).
    await page.getByLabel('6-digit code').fill(await codeFor(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await waitForPath(page, '/home');

    // Sign out again, then in with a recovery code.
    await logOut(page);
    await passwordStep(page, admin.email);
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill(recoveryCodes[0] ?? '');
    await expect.poll(() => page.getByRole('button', { name: 'Verify' }).isEnabled()).toBe(true);
    await page.waitForTimeout(400); // the label's and the button's transitions, for the screenshot
    await screenshot(page, 'two-factor-06-recovery-step-desktop');
    await page.getByRole('button', { name: 'Verify' }).click();
    await waitForPath(page, '/home');
    // The same recovery code does not work twice.
    const reused = await fetch(`${baseUrl}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.77' },
      body: JSON.stringify({ email: admin.email, password: PASSWORD }),
    });
    const { challenge } = (await reused.json()) as { challenge: string };
    const second = await fetch(`${baseUrl}/api/user/login-second-factor`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.77' },
      body: JSON.stringify({ challenge, code: recoveryCodes[0] }),
    });
    expect(second.status).toBe(422);

    // A second browser, a phone, signs in too (with another recovery code) and sees its sessions.
    const phone = await openBrowser(PHONE, { isMobile: true });
    browsers.push(phone);
    await passwordStep(phone.page, admin.email);
    await screenshot(phone.page, 'two-factor-05-code-step-phone');
    await phone.page.getByRole('button', { name: 'Use a recovery code' }).click();
    await phone.page.getByLabel('Recovery code').fill(recoveryCodes[1] ?? '');
    await phone.page.getByRole('button', { name: 'Verify' }).click();
    await waitForPath(phone.page, '/home');
    await phone.page.goto(`${baseUrl}/profile`);
    const phoneSessions = phone.page.getByRole('list', { name: 'Signed-in sessions' });
    await expect.poll(() => phoneSessions.getByRole('listitem').count()).toBe(2);
    await expect.poll(() => phone.page.getByText('8 recovery codes left.').isVisible()).toBe(true);
    await screenshot(phone.page, 'two-factor-07-profile-phone');

    // The desktop sees both sessions, this one marked, and ends the phone's.
    await page.goto(`${baseUrl}/profile`);
    const sessions = page.getByRole('list', { name: 'Signed-in sessions' });
    await expect.poll(() => sessions.getByRole('listitem').count()).toBe(2);
    await expect.poll(() => sessions.getByText('This device').count()).toBe(1);
    await screenshot(page, 'two-factor-08-sessions-desktop');
    const end = sessions.getByRole('button', { name: /^End the session on / });
    expect(await end.count()).toBe(1);
    await end.click();
    await expect.poll(() => sessions.getByRole('listitem').count()).toBe(1);
    await expect.poll(() => page.getByText('The session has ended.').isVisible()).toBe(true);

    // The phone's next request answers 401 { action: "logout" }: it is sent to login.
    await phone.page.reload();
    await waitForPath(phone.page, '/auth/login');
    expect(await phone.page.evaluate(() => localStorage.getItem('ACCESS_TOKEN'))).toBeNull();
    // The desktop stays signed in.
    await page.reload();
    await expect.poll(() => sessions.getByText('This device').isVisible()).toBe(true);
  });
});
