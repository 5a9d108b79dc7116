import type { Page } from 'playwright-core';
import { expect } from 'vitest';

// Steps the journeys share. Each waits for what a person would see before going on.

let counter = 0;
export const uniqueEmail = (prefix: string) => `${prefix}.${Date.now()}.${++counter}@example.org`;
export const PASSWORD = 'correct horse battery';

export async function waitForPath(page: Page, path: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === path, { timeout: 15_000 });
}

/** Opens the newest mail to an address in the dev mailbox page and returns the URL of its link. */
export async function linkFromMailbox(
  page: Page,
  baseUrl: string,
  subject: string | RegExp,
): Promise<string> {
  await page.goto(`${baseUrl}/dev/mailbox`);
  await page.getByRole('list', { name: 'Mails' }).getByRole('button', { name: subject }).first().click();
  const link = page.getByRole('article').getByRole('link').first();
  const href = await link.getAttribute('href');
  expect(href).toBeTruthy();
  return href ?? '';
}

/**
 * The newest mail's link for an address, through the dev mailbox API (for steps that are not the point);
 * with `path`, the newest link to that page (reset mails are written after the answer, so an older mail
 * to the same address may be all there is for a moment).
 */
export async function linkFromMailboxApi(baseUrl: string, to: string, path?: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const response = await fetch(`${baseUrl}/api/dev/mailbox`);
    const { items } = (await response.json()) as { items: Array<{ to: string; links: string[] }> };
    const link = items
      .filter((item) => item.to === to.toLowerCase())
      .map((item) => item.links[0])
      .find((href) => href && (!path || new URL(href).pathname === path));
    if (link) return link;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no mail to ${to}${path ? ` linking to ${path}` : ''}`);
}

/** Waits for the snackbar of a colour (MUI's name: Success, Error, Info) that holds the text. */
export async function snackbar(page: Page, text: string | RegExp, color = 'Success'): Promise<void> {
  await expect
    .poll(() =>
      page.locator(`.MuiAlert-filled.MuiAlert-color${color}`, { hasText: text }).first().isVisible(),
    )
    .toBe(true);
}

export async function logIn(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await waitForPath(page, '/auth/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await waitForPath(page, '/home');
}

/** Opens the user menu (wide) or the overflow menu (phone). */
export async function openUserMenu(page: Page, phone: boolean): Promise<void> {
  await page.getByRole('button', { name: phone ? 'Open menu' : 'Open user menu' }).click();
}

/**
 * Registers and verifies a school through the API, then returns the admin's token. Each school signs up
 * and logs in from its own address (X-Forwarded-For, which the test server trusts from 127.0.0.1: TRUST_PROXY): the journeys
 * share one server, and from 127.0.0.1 alone they would soon meet the per-IP signup and login limits.
 */
export async function schoolThroughApi(baseUrl: string, name: string) {
  const email = uniqueEmail('admin');
  const net = ['192.0.2', '198.51.100', '203.0.113'][Math.floor(Math.random() * 3)];
  const from = { 'x-forwarded-for': `${net}.${1 + Math.floor(Math.random() * 254)}` }; // documentation nets
  const post = (path: string, body: unknown, token?: string) =>
    fetch(`${baseUrl}/api/${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...from,
        ...(token && { authorization: `Bearer ${token}` }),
      },
      body: JSON.stringify(body),
    });
  await post('site/signup', {
    subscriberName: name,
    firstName: 'Ada',
    lastName: 'Admin',
    email,
    password: PASSWORD,
  });
  const link = new URL(await linkFromMailboxApi(baseUrl, email));
  await fetch(`${baseUrl}/api/site/verify-school${link.search}`);
  const login = await post('user/login', { email, password: PASSWORD });
  const { accessToken } = (await login.json()) as { accessToken: string };
  return {
    email,
    accessToken,
    post: (path: string, body: unknown) => post(path, body, accessToken),
    get: (path: string) =>
      fetch(`${baseUrl}/api/${path}`, { headers: { authorization: `Bearer ${accessToken}` } }),
  };
}
