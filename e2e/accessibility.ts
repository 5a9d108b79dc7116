import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

// WCAG 2.0, 2.1 and 2.2 at levels A and AA: the rules the issue and the law ask for (decision 020).
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * Waits (at most 2 s) until no CSS transition or finite animation runs: a fading dialog fails contrast.
 * Endless ones (the progress bar, spinners) are left running.
 */
export async function settle(page: Page): Promise<void> {
  await page
    .waitForFunction(
      () =>
        document.readyState === 'complete' &&
        document
          .getAnimations()
          .every(
            (animation) =>
              animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity,
          ),
      undefined,
      { timeout: 2_000, polling: 100 },
    )
    .catch(() => {
      // Still moving after 2 s: check the page as it is.
    });
}

/** axe's findings on the page as it is now, one readable line per element. */
export async function axeViolations(page: Page): Promise<string[]> {
  await settle(page);
  // axe leaves its experimental rules out unless asked; some of them test WCAG criteria (2.5.3 label in
  // name, 1.3.4 orientation, 1.3.1 table headers), so they run too, and only WCAG-tagged results count.
  const { violations } = await new AxeBuilder({ page }).withTags([...WCAG_TAGS, 'experimental']).analyze();
  const wcag = violations.filter((violation) => violation.tags.some((tag) => WCAG_TAGS.includes(tag)));
  return wcag.flatMap((violation) =>
    violation.nodes.map(
      (node) =>
        `${violation.id} (${violation.impact ?? 'n/a'}) at ${node.target.join(' ')}: ${violation.help}` +
        (node.failureSummary ? ` — ${node.failureSummary.replace(/\s+/g, ' ')}` : ''),
    ),
  );
}

/** Fails with the list of WCAG A/AA violations on the page, naming where it was (`where`). */
export async function expectAccessible(page: Page, where = ''): Promise<void> {
  const found = await axeViolations(page);
  if (found.length > 0) {
    throw new Error(
      `axe found ${found.length} WCAG violation(s) on ${where || page.url()}:\n  ${found.join('\n  ')}`,
    );
  }
}
