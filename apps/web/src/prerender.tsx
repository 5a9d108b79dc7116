// scripts/prerender.mjs bundles this into one script that apps/web/prerender/page-renderer.mjs runs in a fresh
// jsdom at a page's address, as its visitor in the dark theme first sees it: at build time for the login
// page (signed out), and per request for a booking link with its first answers (decision 019) and for a
// signed-in visitor's home (decision 028). main.tsx hydrates the result.
import type { Viewport } from '@parley/domain/constants';
import { renderToString } from 'react-dom/server';
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

/**
 * The rules Emotion made while rendering: a component's (those of its class), which the app's Emotion takes
 * over by name, and the rest (the global styles, keyframes), which the app writes again.
 */
function emotionStyles() {
  const components = { names: [] as string[], css: '' };
  let global = '';
  for (const [name, rules] of Object.entries(emotionCache.inserted)) {
    if (typeof rules !== 'string') continue;
    if (rules.includes(`.${emotionCache.key}-${name}`)) {
      components.names.push(name);
      components.css += rules;
    } else global += rules;
  }
  return { components, global };
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
  // The app's first render, as React renders it on a server, so that main.tsx can hydrate it: the same
  // elements, texts and ids. Emotion is its server build here (scripts/prerender.mjs) and, in the mode
  // @emotion/server uses, keeps each style's rules in the cache rather than in the markup.
  emotionCache.compat = true;
  container.innerHTML = renderToString(<App />);
  const { components, global } = emotionStyles();
  propertiesToAttributes(container);
  const elementStyles = styleAttributesToRules(container);
  return prerenderedDocument(template, {
    takeOver,
    viewport: forRequest?.viewport,
    // Only a page of this address: a page the build renders once is answered at every booking address.
    keep: forRequest ? bookingLinkKeeping(pathname) : null,
    visitor: token !== null ? (user?.id ?? null) : null,
    markup: container.innerHTML,
    styles: components,
    globalCss: global + elementStyles,
  });
}
