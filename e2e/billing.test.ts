import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import pg from 'pg';
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pdfText } from '../apps/server/test/billing/pdf-text';
import { type StripeStandIn, startStripeStandIn } from '../apps/server/test/billing/stripe-stand-in';
import { type Browser, DESKTOP, openBrowser, PHONE, screenshot } from './browser';
import { logIn, PASSWORD, schoolThroughApi } from './journeys';

// Billing journeys (issue 15) on a server of their own: PostgreSQL, so the operator's command line can
// work on the same database while the server runs (the embedded database admits one process), and a
// Stripe API stand-in on 127.0.0.1 the server's Stripe library is pointed at by host and port.

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const WEBHOOK_SECRET = 'whsec_e2ebillingsecret';
// The web build of this journey (vite build --outDir), else the shared one.
const WEB_DIST = process.env.BILLING_WEB_DIST ?? 'apps/web/dist';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

const withDatabase = (url: string, name: string) => {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
};

describe('billing for schools', () => {
  let server: ChildProcess;
  let standIn: StripeStandIn;
  let baseUrl: string;
  let databaseUrl: string;
  let databaseName: string;
  let output = '';
  const browsers: Browser[] = [];

  beforeAll(async () => {
    if (!existsSync(`${WEB_DIST}/index.html`)) throw new Error(`Build the web app into ${WEB_DIST} first`);
    standIn = await startStripeStandIn();
    databaseName = `parley_e2e_billing_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${databaseName}`);
    await admin.end();
    databaseUrl = withDatabase(ADMIN_URL, databaseName);
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        APP_URL: baseUrl,
        DATABASE_URL: databaseUrl,
        WEB_DIST,
        LOG_LEVEL: 'warn',
        SMTP_URL: '',
        TRUST_PROXY: '127.0.0.1',
        STRIPE_SECRET_KEY: 'sk_test_e2ebilling',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_URL: standIn.url,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout?.on('data', (chunk) => (output += chunk));
    server.stderr?.on('data', (chunk) => (output += chunk));
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (server.exitCode !== null) throw new Error(`server exited early:\n${output}`);
      if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
      const ready = await fetch(`${baseUrl}/api/ready`).catch(() => undefined);
      if (ready?.ok) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, 120_000);

  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail' && browsers[0])
      await screenshot(browsers[0].page, 'failed-billing', { axe: false });
    await Promise.all(browsers.splice(0).map((browser) => browser.close()));
  });

  afterAll(async () => {
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    }
    await standIn?.close();
    if (databaseName) {
      const admin = new pg.Client({ connectionString: ADMIN_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
      await admin.end();
    }
  });

  const operator = (...args: string[]) =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', 'apps/server/src/operator/main.ts', ...args], {
      env: { ...process.env, DATABASE_URL: databaseUrl, APP_URL: baseUrl },
      timeout: 60_000,
    });

  it('a new school in trial chooses a plan, asks for an invoice with a PO, and the operator marks it paid', async () => {
    const school = await schoolThroughApi(baseUrl, 'Riverside Primary');
    const desktop = await openBrowser(DESKTOP);
    browsers.push(desktop);
    const { page } = desktop;
    await logIn(page, baseUrl, school.email, PASSWORD);
    await page.goto(`${baseUrl}/billing`);
    await expect.poll(async () => page.getByText(/^Free trial: 30 days left/).isVisible()).toBe(true);
    await screenshot(page, 'billing-trial-desktop');

    // The plan that fits is picked; choose it.
    await expect.poll(async () => page.getByRole('radio', { name: /Small school/ }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Choose plan' }).click();
    await expect.poll(async () => page.getByText('Plan: Small school').isVisible()).toBe(true);

    // Asking for the invoice without details names what is missing, and keeps the PO number typed.
    await page.getByLabel('Purchase order number (optional)').fill('PO-RIV-2026-17');
    await page.getByRole('button', { name: 'Ask for an invoice' }).click();
    await expect.poll(async () => page.getByText(/Add the finance contact first/).isVisible()).toBe(true);
    expect(await page.getByLabel('Purchase order number (optional)').inputValue()).toBe('PO-RIV-2026-17');

    await page.getByLabel('Billing address').fill('4 River Road\nRiverside RV1 4AA');
    await page.getByLabel('VAT or tax number').fill('GB987654321');
    await page.getByLabel('Finance contact email').fill('bursar@riverside.example.org');
    await page.getByRole('button', { name: 'Save details' }).click();
    await expect.poll(async () => page.getByText('Billing details saved.').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Ask for an invoice' }).click();
    await expect
      .poll(async () => page.getByText('Invoice PRL-000001', { exact: true }).isVisible())
      .toBe(true);
    await expect
      .poll(() => page.getByText(/Invoice PRL-000001 for EUR 588\.00 is waiting for payment/).isVisible())
      .toBe(true);
    await screenshot(page, 'billing-invoice-desktop');

    // The PDF, downloaded from the page, says what was asked for.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'PDF of PRL-000001' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('invoice-PRL-000001.pdf');
    const pdf = readFileSync((await download.path()) ?? '');
    const text = await pdfText(pdf);
    for (const expected of [
      'Invoice PRL-000001',
      'Purchase order: PO-RIV-2026-17',
      'Riverside Primary',
      '4 River Road',
      'VAT/Tax no. GB987654321',
      'Total EUR 588.00',
    ])
      expect(text).toContain(expected);

    // The finance contact got it, with the same PDF, in the dev mailbox.
    const { items } = (await (await fetch(`${baseUrl}/api/dev/mailbox`)).json()) as {
      items: Array<{ id: number; to: string; subject: string }>;
    };
    const mail = items.find((item) => item.to === 'bursar@riverside.example.org');
    expect(mail?.subject).toBe('Invoice PRL-000001 from Parley Software Ltd');
    const attachment = await fetch(`${baseUrl}/api/dev/mailbox/attachment?id=${mail?.id}&index=0`);
    expect(Buffer.compare(Buffer.from(await attachment.arrayBuffer()), pdf)).toBe(0);

    // The operator records the bank transfer from the command line.
    const listed = await operator('schools');
    expect(listed.stdout).toMatch(/\tRiverside Primary\tsmall\ttrial\t/);
    const paid = await operator('mark-paid', 'PRL-000001');
    const until = paid.stdout.match(/active until (\d{4}-\d{2}-\d{2})\./)?.[1] ?? '';
    expect(until).not.toBe('');
    const label = new Date(`${until}T12:00:00Z`).toLocaleDateString('en-GB', {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      timeZone: 'UTC',
    });
    await page.reload();
    await expect.poll(async () => page.getByText(`Active until ${label}`).isVisible()).toBe(true);
    await expect.poll(async () => page.getByText(/^Paid \d/).isVisible()).toBe(true);
    await screenshot(page, 'billing-active-desktop');

    const phone = await openBrowser(PHONE, { isMobile: true });
    browsers.push(phone);
    await logIn(phone.page, baseUrl, school.email, PASSWORD);
    await phone.page.goto(`${baseUrl}/billing`);
    await expect.poll(async () => phone.page.getByText(`Active until ${label}`).isVisible()).toBe(true);
    await screenshot(phone.page, 'billing-active-phone');
  });

  it('a school pays by card at the Stripe stand-in; the signed webhook activates it, a replay or a forgery changes nothing', async () => {
    const school = await schoolThroughApi(baseUrl, 'Hilltop College');
    const desktop = await openBrowser(DESKTOP);
    browsers.push(desktop);
    const { page } = desktop;
    // Stripe's hosted Checkout page, as far as this browser knows.
    await page.context().route('https://checkout.stripe.test/**', (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><title>Checkout</title><h1>Stripe Checkout</h1>',
      }),
    );
    await logIn(page, baseUrl, school.email, PASSWORD);
    await page.goto(`${baseUrl}/billing`);
    await page.getByRole('button', { name: 'Choose plan' }).click();
    await expect.poll(async () => page.getByText('Plan: Small school').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Pay by card' }).click();
    await page.waitForURL(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_standin_\d+$/);
    const sessionId = page.url().split('/').pop() ?? '';
    const created = standIn.requests.find((request) => request.path === '/v1/checkout/sessions');
    const schoolId = created?.form.get('metadata[schoolId]') ?? '';
    const customer = created?.form.get('customer') ?? '';
    expect(created?.form.get('line_items[0][price_data][unit_amount]')).toBe('58800');

    const payload = JSON.stringify({
      id: 'evt_e2e_paid',
      object: 'event',
      type: 'checkout.session.completed',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      data: {
        object: {
          id: sessionId,
          object: 'checkout.session',
          customer,
          payment_status: 'paid',
          metadata: { schoolId, planId: 'small' },
        },
      },
    });
    const deliver = (signature: string) =>
      fetch(`${baseUrl}/api/billing/stripe-webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body: payload,
      });
    const signer = new Stripe('sk_test_signer');
    const forged = signer.webhooks.generateTestHeaderString({ payload, secret: 'whsec_notthesecret' });
    expect((await deliver(forged)).status).toBe(400);
    await page.goto(`${baseUrl}/billing`);
    await expect.poll(async () => page.getByText(/^Free trial: 30 days left/).isVisible()).toBe(true);

    const signed = signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    expect(await (await deliver(signed)).json()).toEqual({ received: true, duplicate: false });
    await page.goto(`${baseUrl}/billing?card=paid`);
    await expect.poll(async () => page.getByText(/^Active until /).isVisible()).toBe(true);
    const activeText = await page.getByText(/^Active until /).textContent();
    await expect.poll(async () => page.getByText(/^Paid by card /).isVisible()).toBe(true);
    await expect
      .poll(() => page.getByRole('button', { name: 'Manage card and receipts' }).isVisible())
      .toBe(true);
    await screenshot(page, 'billing-card-paid-desktop');

    // The same event again (Stripe retries): nothing changes.
    expect(
      await (
        await deliver(signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }))
      ).json(),
    ).toEqual({
      received: true,
      duplicate: true,
    });
    const view = (await (await school.get('billing/view')).json()) as {
      invoices: unknown[];
      status: { until: string };
    };
    expect(view.invoices).toHaveLength(1);
    await page.reload();
    await expect.poll(async () => page.getByText(/^Active until /).textContent()).toBe(activeText);
  });
});
