import { chromium, type Page, type Browser as PlaywrightBrowser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations } from './accessibility';
import { DESKTOP, LONG_JOURNEY_MS, PHONE, screenshot } from './browser';
import { logIn, PASSWORD } from './journeys';
import { smallSchool } from './school-fixture';

const baseUrl = inject('baseUrl');

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

const THEMES = ['light', 'dark'] as const;
const VIEWPORTS = [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const;

type School = Awaited<ReturnType<typeof smallSchool>>;

/**
 * Each role's main screens, home first. Profile and settings are one layout for every role: the admin's
 * are checked. An admin works at a desk: on a phone, the screens an admin may open there at the door.
 */
function screensOf(school: School) {
  const view = (kind: string, id: number) => `/${kind}/view/${id}`;
  const event = `/events/view/${school.eventId}`;
  return {
    admin: {
      all: [
        '/home',
        '/events',
        event,
        '/teachers',
        view('teachers', school.teacher.id),
        '/students', // the parents' and subjects' lists are the same list screen
        view('students', school.child.id),
        '/school',
        '/profile',
        '/settings',
      ],
      phone: ['/home', '/events', event, '/teachers', view('students', school.child.id)],
    },
    teacher: { all: ['/home', `/event/details-teacher?eventId=${school.eventId}`] },
    parent: { all: ['/home', school.bookingPath, `/event/details-parent?eventId=${school.eventId}`] },
    student: { all: ['/home', school.bookingPath] },
  } as const;
}

/** Text cut off by its own box: a heading or paragraph wider than itself (a card clips what sticks out). */
async function cutText(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('h1, h2, h3, h4, h5, h6, p')]
      .filter((element) => element.offsetParent !== null && element.scrollWidth > element.clientWidth + 1)
      .map((element) => `${element.tagName.toLowerCase()} "${element.innerText.slice(0, 40)}"`),
  );
}

/** What sticks out past the right edge when the page scrolls sideways (nothing when it does not). */
async function sideScroll(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= width) return [];
    // Inside a box that scrolls or clips on its own (a data table), sticking out is that box's business.
    const clipped = (element: Element) => {
      for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) {
        if (getComputedStyle(up).overflowX !== 'visible') return true;
      }
      return false;
    };
    return [...document.querySelectorAll('body *')]
      .filter((element) => element.getBoundingClientRect().right > width + 1 && !clipped(element))
      .slice(-5)
      .map(
        (element) =>
          `${element.tagName.toLowerCase()}.${[...element.classList].slice(0, 2).join('.')} ` +
          `"${(element as HTMLElement).innerText?.slice(0, 30) ?? ''}" ends at ` +
          `${Math.round(element.getBoundingClientRect().right)} of ${width}`,
      );
  });
}

/**
 * Waits until the app has drawn the screen's content (no skeleton, no progress bar): a page that arrived
 * rendered is taken over first (drawn again if it was rendered for another viewport).
 */
async function loaded(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  await page.locator('#root[data-prerendered]').waitFor({ state: 'detached', timeout: 20_000 });
  await expect
    .poll(
      () =>
        page.evaluate(
          () =>
            document.querySelector('h1, h2') !== null &&
            [...document.querySelectorAll('.MuiSkeleton-root, [role="progressbar"]')].every(
              (element) => !element.checkVisibility({ visibilityProperty: true }),
            ),
        ),
      { timeout: 20_000 },
    )
    .toBe(true);
}

describe('WCAG 2.2 AA on every main screen, both themes, desktop and phone', () => {
  let browser: PlaywrightBrowser;
  let school: School;
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: FLAGS,
    });
    // One long word in the school's and the event's names, as some schools type them: it must wrap.
    school = await smallSchool(baseUrl, `Accessibilitycheck${Date.now()}`);
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** Checks a page; a violation is kept (with a screenshot) so one run lists them all. */
  const found: string[] = [];
  const check = async (page: Page, name: string) => {
    await loaded(page);
    const lines = await axeViolations(page);
    if (lines.length > 0) {
      found.push(`${name}:\n    ${lines.join('\n    ')}`);
      await screenshot(page, `axe-${name.replaceAll(/[^\w-]+/g, '_')}`, { fullPage: false, axe: false });
    }
  };
  const combinations = THEMES.flatMap((theme) => VIEWPORTS.map(([name, size]) => ({ theme, name, size })));

  // A busy 2-CPU machine needs up to ~2 s a screen (axe's contrast rule is most of it), and more while a
  // video-call journey encodes beside it: the limits guard against a hang, not a speed (the admin's took
  // 300 s once in CI).
  it('signed out: login, register, reset, the invitation and the booking link', {
    timeout: LONG_JOURNEY_MS,
  }, async () => {
    found.length = 0;
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    for (const { theme, name, size } of combinations) {
      await page.setViewportSize(size);
      await page.goto(`${baseUrl}/auth/login`);
      await page.evaluate((mode) => localStorage.setItem('theme', mode), theme);
      for (const path of ['/auth/login', '/auth/register', '/auth/request-reset']) {
        await page.goto(`${baseUrl}${path}`);
        await check(page, `visitor ${theme} ${name} ${path}`);
      }
      await page.goto(school.invitation);
      await check(page, `visitor ${theme} ${name} invitation`);
      await page.goto(school.bookingLink);
      await check(page, `visitor ${theme} ${name} booking link`);
      await page.evaluate(() => sessionStorage.clear()); // the personal link stays with the tab
    }
    await context.close();
    expect(found, found.join('\n')).toEqual([]);
  });

  for (const role of ['admin', 'teacher', 'parent', 'student'] as const) {
    it(`${role}: main screens and the account menu`, { timeout: LONG_JOURNEY_MS }, async () => {
      found.length = 0;
      const screens = screensOf(school)[role];
      const email = {
        admin: school.admin.email,
        teacher: school.teacher.email,
        parent: school.parent.email,
        student: school.child.email,
      }[role];
      const context = await browser.newContext({ viewport: DESKTOP });
      const page = await context.newPage();
      await logIn(page, baseUrl, email, PASSWORD);
      for (const { theme, name, size } of combinations) {
        await page.evaluate((mode) => localStorage.setItem('theme', mode), theme);
        await page.setViewportSize(size);
        const [home, ...rest] = name === 'phone' && 'phone' in screens ? screens.phone : screens.all;
        await page.goto(`${baseUrl}${home}`);
        await check(page, `${role} ${theme} ${name} ${home}`);
        // The account menu, open over home.
        await page.getByRole('button', { name: name === 'phone' ? 'Open menu' : /Open user menu/ }).click();
        await page.getByRole('menu').waitFor();
        await check(page, `${role} ${theme} ${name} account menu`);
        await page.keyboard.press('Escape');
        await page.getByRole('menu').waitFor({ state: 'detached' });
        for (const path of rest) {
          await page.goto(`${baseUrl}${path}`);
          await check(page, `${role} ${theme} ${name} ${path}`);
        }
      }
      await context.close();
      expect(found, found.join('\n')).toEqual([]);
    });
  }

  /** A signed-in page of its own context (closed by the caller). */
  const signedIn = async (email: string, options: Parameters<PlaywrightBrowser['newContext']>[0] = {}) => {
    const context = await browser.newContext({ viewport: DESKTOP, ...options });
    const page = await context.newPage();
    await logIn(page, baseUrl, email, PASSWORD);
    return { context, page };
  };

  it('the slot grid names each slot by time, teacher, child and state, and shows the state as text', async () => {
    const { context, page } = await signedIn(school.parent.email);
    await page.goto(`${baseUrl}${school.bookingPath}`);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('tab', { name: 'Pick times' }).click();
    const maths = school.teacher.name;
    const art = school.artTeacher.name;
    const child = school.child.name;
    // What a screen reader says for a cell: "16:00 Mina Hall for Rosa Rowe: free".
    for (const teacher of [maths, art]) {
      for (const time of ['16:00', '17:50']) {
        await page
          .getByRole('button', { name: `${time} ${teacher} for ${child}: free`, exact: true })
          .waitFor();
      }
    }
    const pick = page.getByRole('button', { name: `16:10 ${maths} for ${child}: free`, exact: true });
    await pick.press('Enter');
    const picked = page.getByRole('button', { name: `16:10 ${maths} for ${child}: selected`, exact: true });
    await picked.waitFor();
    expect(await picked.getAttribute('aria-pressed')).toBe('true');
    // The same hour with the Art teacher clashes with the pick (one child, one place at a time).
    await page.getByRole('button', { name: `16:10 ${art} for ${child}: clashes`, exact: true }).waitFor();
    // Not by colour alone: every cell's visible word is its state, the word its name ends with.
    const cells = await page
      .getByRole('button', { name: new RegExp(`^\\d\\d:\\d\\d .+ for ${child}: `) })
      .evaluateAll((buttons) =>
        buttons.map((button) => ({
          shown: (button as HTMLElement).innerText.trim().toLowerCase(),
          state: (button.getAttribute('aria-label') ?? '').split(': ').pop() ?? '',
        })),
      );
    expect(cells.length).toBe(24); // 16:00–17:50 in 10 minutes, two teachers
    for (const cell of cells)
      expect(cell.state, JSON.stringify(cell)).toContain(cell.shown.split('\n').pop());
    await context.close();
  });

  it('reflows at 320 CSS px without a horizontal scroll, and keeps its controls at 200 % text', async () => {
    const { context, page } = await signedIn(school.admin.email);
    const noSideScroll = () => sideScroll(page);
    const checks: Array<[string, string]> = [
      ['/home', 'heading'],
      ['/events', 'Add event'],
      [`/events/view/${school.eventId}`, 'Add section'],
      ['/teachers', 'heading'],
      ['/profile', 'heading'],
    ];
    for (const [size, zoom] of [
      [{ width: 320, height: 640 }, '100%'],
      [DESKTOP, '200%'],
      [PHONE, '200%'],
    ] as const) {
      await page.setViewportSize(size);
      for (const [path, control] of checks) {
        await page.goto(`${baseUrl}${path}`);
        await loaded(page);
        await page.evaluate((fontSize) => {
          document.documentElement.style.fontSize = fontSize;
        }, zoom);
        const where = `${path} at ${size.width} px, text ${zoom}`;
        expect(await noSideScroll(), where).toEqual([]);
        expect(await cutText(page), where).toEqual([]);
        const key =
          control === 'heading'
            ? page.getByRole('heading', { level: 1 }).first()
            : page.getByRole('button', { name: control });
        await key.scrollIntoViewIfNeeded();
        expect(await key.isVisible(), where).toBe(true);
        const box = await key.boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= size.width + 0.5, where).toBe(true);
      }
    }
    await screenshot(page, 'reflow-profile-phone-200', { fullPage: false, axe: false });
    await context.close();

    // Signed out, at 320 px: the login page and the family's booking link.
    const visitor = await browser.newContext({ viewport: { width: 320, height: 640 } });
    const guest = await visitor.newPage();
    for (const url of [`${baseUrl}/auth/login`, `${baseUrl}/auth/register`, school.bookingLink]) {
      await guest.goto(url);
      await loaded(guest);
      expect(await sideScroll(guest), url).toEqual([]);
      expect(await cutText(guest), url).toEqual([]);
    }
    await screenshot(guest, 'reflow-booking-link-320', { fullPage: false, axe: false });
    await visitor.close();
  });

  it('moves nothing when the device asks for reduced motion', async () => {
    const motion = async (reducedMotion: 'reduce' | 'no-preference') => {
      const { context, page } = await signedIn(school.admin.email, { reducedMotion });
      const button = page.getByRole('button', { name: /Open user menu/ });
      const transition = await button.evaluate((element) => getComputedStyle(element).transitionDuration);
      await button.click();
      await page.getByRole('menu').waitFor();
      // Right after opening: is the menu still growing in? (An animation of no duration moves nothing: a
      // skeleton drawn just now, its pulse stopped, is "running" until the next frame.)
      const running = await page.evaluate(
        () =>
          document.getAnimations().filter((animation) => {
            const timing = animation.effect?.getTiming();
            return (
              animation.playState === 'running' &&
              timing?.iterations !== Infinity &&
              Number(timing?.duration) > 0
            );
          }).length,
      );
      await context.close();
      return { transition, running };
    };
    const reduced = await motion('reduce');
    expect(reduced.transition.split(',').every((duration) => Number.parseFloat(duration) === 0)).toBe(true);
    expect(reduced.running).toBe(0);
    const normal = await motion('no-preference');
    expect(normal.transition.split(',').some((duration) => Number.parseFloat(duration) > 0)).toBe(true);
  });

  it('ties every field error to its field', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/auth/login`);
    const email = page.getByLabel('Email');
    await email.fill('not-an-address');
    await email.blur();
    await expect.poll(() => email.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await email.getAttribute('aria-describedby')) ?? '';
    expect(await page.locator(`[id="${describedBy}"]`).innerText()).toBe('Invalid email format');
    await context.close();
  });
});
