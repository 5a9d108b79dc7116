// scripts/prerender.mjs bundles this into one script that apps/web/prerender/page-renderer.mjs runs in a fresh
// jsdom at a page's address, as its visitor in the dark theme first sees it: at build time for the login
// page (signed out), and per request for a booking link with its first answers (decision 019) and for a
// signed-in visitor's home (decision 028). main.tsx renders
// over the result.
import './lib/preact-parity';
import type { Viewport } from '@parley/domain/constants';
import { act } from 'preact/test-utils';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { prerenderedDocument, type TakeOver } from './app/prerendered';
import { emotionCache } from './app/providers';
import { preloadPage } from './app/router';
import { bookingLinkKeeping } from './features/booking/booking-link';
import { getSession } from './lib/session';

/**
 * An element's own style, as a rule for the prerendered page's stylesheet: the CSP allows no style
 * attribute in markup (the app sets its elements' styles through the DOM, which it does allow).
 * `!important`, as an attribute's declarations outrank the classes' rules.
 */
function styleAttributesToRules(container: HTMLElement): string {
  return [...container.querySelectorAll<HTMLElement>('[style]')]
    .map((element, index) => {
      const declarations = [...element.style]
        .map((property) => `${property}:${element.style.getPropertyValue(property)}!important`)
        .join(';');
      element.removeAttribute('style');
      element.setAttribute('data-prerendered-style', String(index));
      return `[data-prerendered-style="${index}"]{${declarations}}`;
    })
    .join('');
}

/**
 * The state the app set as properties (a box ticked, a field's text, an option chosen) written as the
 * attributes the markup carries, so the page shows it before the app runs.
 */
function propertiesToAttributes(container: HTMLElement) {
  for (const input of container.querySelectorAll('input')) {
    if (input.type === 'checkbox' || input.type === 'radio') input.toggleAttribute('checked', input.checked);
    else if (input.type !== 'file' && input.type !== 'password') input.setAttribute('value', input.value);
  }
  for (const area of container.querySelectorAll('textarea')) area.textContent = area.value;
  for (const option of container.querySelectorAll('option'))
    option.toggleAttribute('selected', option.selected);
}

/** The built index.html (`template`) made into the prerendered page at jsdom's address. */
export async function renderDocument(
  template: string,
  takeOver: TakeOver,
  /**
   * A page rendered for a request (a booking link or home, with its first answers), in its visitor's
   * layout.
   */
  forRequest?: { viewport: Viewport },
): Promise<string> {
  const { pathname, search, hash } = window.location;
  // Signed in for a signed-in visitor's page (the server stored their profile in this window: home).
  const { token, user } = getSession();
  await preloadPage({ pathname, search, hash, loggedIn: token !== null, isAdmin: user?.isAdmin ?? null });
  const container = document.getElementById('root');
  if (!container) throw new Error('no #root');
  // Preact renders synchronously: the markup and the styles it uses are complete when render returns. A
  // page for a request shows what its visitor sees once the first effects have run too (the children of
  // the family ticked, the personal link kept): act runs them, and the renders they cause, at once.
  if (forRequest) act(() => createRoot(container).render(<App />));
  else createRoot(container).render(<App />);
  const css = (key: string) =>
    [...document.querySelectorAll(`style[data-emotion="${key}"]`)].map((style) => style.textContent).join('');
  propertiesToAttributes(container);
  const elementStyles = styleAttributesToRules(container);
  return prerenderedDocument(template, {
    takeOver,
    viewport: forRequest?.viewport,
    // Only a page of this address: a page the build renders once is answered at every booking address.
    keep: forRequest ? bookingLinkKeeping(pathname) : null,
    visitor: token !== null ? (user?.id ?? null) : null,
    markup: container.innerHTML,
    styles: { names: Object.keys(emotionCache.inserted), css: css(emotionCache.key) },
    globalCss: css(`${emotionCache.key}-global`) + elementStyles,
  });
}
