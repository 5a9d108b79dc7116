import type { Locator, Page } from 'playwright-core';

// Keyboard-only journeys: focus moves with Tab and Shift+Tab only, and every stop must show where it is.

export type FocusState = { description: string; ring: boolean; inView: boolean };

/**
 * The focused element, whether it (or the control around it: a checkbox's span, an input's box, at most
 * three levels up) draws a ring (an outline at least 2 px wide, or a box shadow), and whether it is on
 * screen.
 */
export async function focusState(page: Page): Promise<FocusState> {
  return page.evaluate(() => {
    const focused = document.activeElement;
    if (!focused || focused === document.body) return { description: 'body', ring: false, inView: false };
    let ring = false;
    let element: Element | null = focused;
    for (let level = 0; element && level < 4 && !ring; level++, element = element.parentElement) {
      const style = getComputedStyle(element);
      ring =
        (style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2) ||
        style.boxShadow !== 'none';
    }
    const box = focused.getBoundingClientRect();
    const inView =
      box.width > 0 &&
      box.height > 0 &&
      box.bottom > 0 &&
      box.right > 0 &&
      box.top < window.innerHeight &&
      box.left < window.innerWidth;
    const name =
      focused.getAttribute('aria-label') ??
      (focused as HTMLElement).innerText?.trim().slice(0, 40) ??
      focused.getAttribute('name') ??
      '';
    return { description: `${focused.tagName.toLowerCase()} "${name}"`, ring, inView };
  });
}

/**
 * Fails unless the focus is on screen and shows a ring. MUI marks a control as the keyboard's in the render
 * after its focus event (after a takeover, once React has hydrated the part it is in), so a missing ring
 * is looked at again until five seconds have passed.
 */
export async function expectVisibleFocus(page: Page, step: string): Promise<void> {
  let state = await focusState(page);
  for (let tries = 0; (!state.ring || !state.inView) && tries < 50; tries++) {
    await page.waitForTimeout(100);
    state = await focusState(page);
  }
  if (!state.ring || !state.inView) {
    throw new Error(
      `${step}: the focus on ${state.description} is ${state.inView ? 'not marked' : 'off screen'}`,
    );
  }
}

const isFocused = (target: Locator) =>
  target.evaluate(
    (element) => element === document.activeElement || element.contains(document.activeElement),
  );

/**
 * Presses Tab (or Shift+Tab) until the target has the focus, checking the focus ring at every stop;
 * fails after `max` presses.
 */
export async function tabTo(
  page: Page,
  target: Locator,
  { backwards = false, max = 80 }: { backwards?: boolean; max?: number } = {},
): Promise<void> {
  await target.waitFor();
  for (let press = 0; press < max; press++) {
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
    const state = await focusState(page);
    if (state.description !== 'body') await expectVisibleFocus(page, `Tab ${press + 1} towards ${target}`);
    if (await isFocused(target)) return;
  }
  throw new Error(`${max} presses of ${backwards ? 'Shift+Tab' : 'Tab'} never reached ${target}`);
}

/** Tabs to a control and presses a key on it (Enter for buttons and links, Space for boxes). */
export async function press(
  page: Page,
  target: Locator,
  key: 'Enter' | 'Space' = 'Enter',
  options: { backwards?: boolean; max?: number } = {},
): Promise<void> {
  await tabTo(page, target, options);
  await page.keyboard.press(key);
}
