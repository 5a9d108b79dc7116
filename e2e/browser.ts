import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterEach, onTestFinished } from 'vitest';
import { expectAccessible } from './accessibility';

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/**
 * The limit of a long journey (many photographed steps, each an axe check; or real minutes of a call): a
 * guard against a hang, never a measure of speed. Beside the other journeys on a loaded machine such a
 * journey has taken two and a half times its usual time.
 */
export const LONG_JOURNEY_MS = 600_000;
/** A phone's Chromium, as it names itself. */
export const PHONE_USER_AGENT =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export type Browser = {
  context: BrowserContext;
  page: Page;
  /** Content-Security-Policy violations and security header errors seen on any page of this browser. */
  violations: string[];
  close(): Promise<void>;
};

// Every violation is also reported through the console, where the context listener below catches it
// (Chromium's own "Refused to …" lines are caught too).
function reportViolations() {
  document.addEventListener('securitypolicyviolation', (event) => {
    console.error(
      `Content Security Policy violation: ${event.effectiveDirective} blocked ${event.blockedURI || 'inline code'}` +
        ` at ${event.sourceFile || location.href}:${event.lineNumber}`,
    );
  });
}

const SECURITY_MESSAGE = /Content Security Policy|Content-Security-Policy|Permissions-Policy/i;
/** React's "the rendered page does not match" (production builds give its number). */
const HYDRATION_ERROR = /Minified React error #418\b|Hydration failed/;

/**
 * Debian's Chromium with a fresh profile: nothing carries over between journeys. The test that opens it
 * fails on any CSP violation (every journey runs under the real policy) unless `allowCspViolations`, and
 * on a rendered page React could not hydrate.
 */
export async function openBrowser(
  viewport: { width: number; height: number },
  options: {
    timezoneId?: string;
    /** The browser's language and formats ("en-US"): the app must show the school's style whatever it is. */
    locale?: string;
    isMobile?: boolean;
    /** The browser's name for itself (a phone's says "Mobile": the server renders a booking link for it). */
    userAgent?: string;
    allowCspViolations?: boolean;
    /** More Chromium switches (a fake camera: e2e/fake-camera.ts). */
    args?: string[];
    /**
     * A profile to open again (a phone restarted with another video keeps its storage and session); the
     * caller removes it. Without one, a fresh profile that closing removes.
     */
    profileDir?: string;
    /** 'block': the app's service worker never registers (it would answer for scripts a test holds back). */
    serviceWorkers?: 'allow' | 'block';
  } = {},
): Promise<Browser> {
  const profile = options.profileDir ?? mkdtempSync(join(tmpdir(), 'parley-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [...FLAGS, ...(options.args ?? [])],
    viewport,
    ...(options.timezoneId && { timezoneId: options.timezoneId }),
    ...(options.locale && { locale: options.locale }),
    ...(options.userAgent && { userAgent: options.userAgent }),
    ...(options.isMobile && { isMobile: true, hasTouch: true }),
    ...(options.serviceWorkers && { serviceWorkers: options.serviceWorkers }),
  });
  context.setDefaultTimeout(15_000);
  const violations: string[] = [];
  context.on('console', (message) => {
    if (SECURITY_MESSAGE.test(message.text())) violations.push(`${message.page()?.url()}: ${message.text()}`);
  });
  await context.addInitScript(reportViolations);
  if (!options.allowCspViolations) {
    onTestFinished(() => {
      if (violations.length > 0) throw new Error(`Security policy violations:\n${violations.join('\n')}`);
    });
  }
  // A rendered page React could not hydrate is drawn again, losing what the visitor tapped meanwhile.
  const hydrationErrors: string[] = [];
  context.on('weberror', (error) => {
    if (HYDRATION_ERROR.test(error.error().message))
      hydrationErrors.push(`${error.page()?.url()}: ${error.error().message}`);
  });
  onTestFinished(() => {
    if (hydrationErrors.length > 0) throw new Error(`Pages not hydrated:\n${hydrationErrors.join('\n')}`);
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    violations,
    async close() {
      await context.close();
      if (!options.profileDir) rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Saves a screenshot under e2e/screenshots (kept out of git) to be looked at: the whole page, or only the
 * viewport (a full-screen dialog on a phone scrolls inside itself, which a full-page shot cannot show).
 * Every step a journey photographs is also checked with axe (WCAG 2.2 A/AA; e2e/accessibility.ts), so
 * the test fails on a violation in any screen or state the journeys show; `axe: false` for a shot of a
 * failure.
 */
export async function screenshot(
  page: Page,
  name: string,
  { fullPage = true, axe = !name.startsWith('failed') } = {},
): Promise<void> {
  mkdirSync('e2e/screenshots', { recursive: true });
  await page.screenshot({ path: `e2e/screenshots/${name}.png`, fullPage });
  if (axe) await expectAccessible(page, `step "${name}" (${page.url()})`);
}

/**
 * The browsers a describe block's journeys open, closed after each test; each photographed first when the
 * test failed (`failed-{label}-{n}`).
 */
export function browsersClosedAfterEach(label: string): Browser[] {
  const browsers: Browser[] = [];
  afterEach(async ({ task }) => {
    for (const [index, browser] of browsers.entries()) {
      if (task.result?.state === 'fail') await screenshot(browser.page, `failed-${label}-${index}`);
      await browser.close();
    }
    browsers.length = 0;
  });
  return browsers;
}
