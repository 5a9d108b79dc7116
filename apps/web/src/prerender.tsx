// Build time only: scripts/prerender.mjs bundles this for Node and runs it in jsdom at a page's address,
// as a signed-out visitor in the dark theme first sees it (decision 019). main.tsx renders over the result.
import './lib/preact-parity';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { prerenderedDocument, type TakeOver } from './app/prerendered';
import { emotionCache } from './app/providers';
import { preloadPage } from './app/router';

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

/** The built index.html (`template`) made into the prerendered page at jsdom's address. */
export async function renderDocument(template: string, takeOver: TakeOver): Promise<string> {
  const { pathname, search, hash } = window.location;
  await preloadPage({ pathname, search, hash, loggedIn: false, isAdmin: null });
  const container = document.getElementById('root');
  if (!container) throw new Error('no #root');
  // Preact renders synchronously: the markup and the styles it uses are complete when render returns.
  createRoot(container).render(<App />);
  const css = (key: string) =>
    [...document.querySelectorAll(`style[data-emotion="${key}"]`)].map((style) => style.textContent).join('');
  const elementStyles = styleAttributesToRules(container);
  return prerenderedDocument(template, {
    takeOver,
    markup: container.innerHTML,
    styles: { names: Object.keys(emotionCache.inserted), css: css(emotionCache.key) },
    globalCss: css(`${emotionCache.key}-global`) + elementStyles,
  });
}
