// A page prerendered at build time (scripts/prerender.mjs, decision 019): the login page and the booking
// link arrive as HTML with their styles, so a phone paints them before any JavaScript has run. React then
// hydrates that markup (it keeps the elements it finds, so nothing is drawn twice) and the app takes over
// what the visitor did meanwhile: the text typed, the field in focus, the buttons tapped.
import { BREAKPOINTS, PAGE_ELEMENT_IDS, STORAGE_KEYS, type Viewport } from '@parley/domain/constants';
import { type ReactNode, startTransition, useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';

/** The marker on #root of a prerendered page, and on the <style> that carries its styles. */
export const PRERENDERED = 'data-prerendered';
/**
 * The class a prerendered page's inline script puts on <html> when the markup is not what this visitor
 * will see (a stored session or light theme): the page then stays blank until the app renders, as an
 * unprerendered one does, rather than showing a form that is about to change.
 */
export const PRERENDERED_STALE = 'prerendered-stale';

/** What the page's inline script keeps until the app takes over (see prerenderedDocument). */
type Early = {
  /** Taps on buttons, checkboxes and radios, and Enter in a form's field, in the order they came. */
  acts: HTMLElement[];
  listeners: Record<'click' | 'submit' | 'keydown', (event: Event) => void>;
  /** The listener that starts the app at a gesture before the page is idle (each of TAKE_OVER_GESTURES). */
  go?: () => void;
};
const EARLY = '__parleyPrerendered';

/**
 * When the app takes a prerendered page over: at once (a page whose content comes from the API), or once
 * the page is idle after its first paint (the login form and a booking link, complete as they are): their
 * files are fetched after the paint and run when the browser has nothing else to do, so the first tap
 * finds the app running rather than waiting for it. A gesture before then starts it at once.
 */
export type TakeOver = 'at-once' | 'when-idle';
/**
 * The gestures that start a page's takeover before the page is idle: a tap, a key, a field typed into
 * (autofill, a script). Not a focus alone: a window given the focus back can move it without the visitor.
 */
const TAKE_OVER_GESTURES = ['pointerdown', 'keydown', 'input'] as const;
/** How long an idle page waits for the browser's idle time before it starts the app anyway. */
const IDLE_TIMEOUT_MS = 2000;

/** useIsMobile's query (the theme's breakpoints.down('md')), as the inline script can ask it. */
export const PHONE_QUERY = `(max-width:${BREAKPOINTS.md - 0.05}px)`;

/** A page as the build renders it (apps/web/src/prerender.tsx): its markup and the styles it uses. */
export type PrerenderedPage = {
  takeOver: TakeOver;
  /**
   * The layout it was rendered in, where that depends on the viewport (useIsMobile): a visitor whose window
   * says otherwise sees the page once the app has drawn theirs (stale for them, as with another theme).
   */
  viewport?: Viewport;
  /**
   * A secret of the address (a booking page's personal link) that the inline script moves into the tab's
   * store at once, as the app would (lib/url-token.ts): a page that waits to be idle keeps it out of the
   * address bar meanwhile too. An address without it, in a tab that keeps one, is a page rendered for
   * a stranger: stale for this visitor.
   */
  keep?: { param: string; key: string } | null;
  /**
   * The signed-in user the page was rendered for (home, decision 028): stale unless this browser's stored
   * session is that user's. Without one, the page is a signed-out visitor's: stale for a stored session.
   */
  visitor?: number | null;
  markup: string;
  /** The components' styles, with emotion's names for them: the app's emotion takes them over as its own. */
  styles: { names: string[]; css: string };
  /** The global styles (CssBaseline's), which the app writes again: dropped when it takes over. */
  globalCss: string;
};

/**
 * Hidden while prerendered: the whole page from a visitor who will see another one, and the progress bar
 * (nothing is loading that the visitor waits for: the page is all there).
 */
const PRERENDERED_CSS = `.${PRERENDERED_STALE} #root{visibility:hidden}#root[${PRERENDERED}] [role=progressbar]{display:none}`;
/** The element after #root whose arrival lets the page paint (see prerenderedDocument). */
const PRERENDERED_END = 'prerendered-end';
/**
 * How many preload tags the inline script adds per task: each starts a request, which costs the main thread
 * a few milliseconds on a slow phone (2.7 ms each on this host in Lighthouse's trace, before its 4×), so
 * the fifty of a booking link added at once were a long task of half a second.
 */
const PRELOADS_PER_TASK = 3;
/** The <template> that holds the app's tags until the page has been painted (its script: until it runs). */
const PRERENDERED_SCRIPTS = PAGE_ELEMENT_IDS.prerenderedScripts;

/**
 * The built index.html with the page in #root and its styles, and an inline script run before the body is
 * parsed. The page paints whole (render-blocking until its end is parsed: a half-parsed page, centred,
 * would shift as the rest arrived), and before the app is even fetched: its script and preload tags wait
 * in a <template> until the first paint, so on a slow connection the page's own bytes come first and a
 * warm cache cannot hold the paint back either (a page taken over at once fetches them at once: it needs
 * the app for its content; one taken over when idle fetches them then, and runs them when the page is
 * idle, at a gesture before that, or at once when the page is stale). The script hides the page from a
 * visitor who will see another one (a stored session on a signed-out page, another user's or none on a
 * signed-in one, the light theme, another viewport's layout), and until the app has taken over it keeps
 * what the markup alone would do wrong: a tap on a button (held back) or a checkbox or radio (let through,
 * as the app is told of it afterwards), or Enter in a form's field (held back), each given to the app once
 * it runs (a theme toggle tapped early still toggles, a teacher ticked early is ticked, an Enter still
 * signs in), and it blocks the browser's own submit (which would put the typed email and password into the
 * address). Those it holds back do not reach the app's half-hydrated listeners either. Links work as plain
 * links.
 * Inline tags carry the build's nonce placeholder, which the server replaces per answer.
 */
export function prerenderedDocument(template: string, page: PrerenderedPage): string {
  const nonce = /property="csp-nonce" nonce="([^"]+)"/.exec(template)?.[1];
  const entry = /<script type="module" crossorigin src="[^"]+" nonce="[^"]+"><\/script>/.exec(template)?.[0];
  if (!nonce || !entry || !template.includes('<div id="root"></div>')) {
    throw new Error('index.html is not as the build writes it');
  }
  const preloads = template.match(/<link rel="modulepreload" [^>]*>/g) ?? [];
  // A value in the script as a JS literal that no text of the address can close the script with.
  const text = (value: unknown) => JSON.stringify(value).replaceAll('<', '\\u003c');
  const script = `(function(){var d=document,q=window.${EARLY}={acts:[],listeners:{}},l=q.listeners,started=0,preloaded=0;
var kp=${text(page.keep ?? null)},other=0;if(kp)try{var u=new URL(location.href),t=u.searchParams.get(kp.param),ss=sessionStorage;if(t){ss.setItem(kp.key,t);u.searchParams.delete(kp.param);history.replaceState(history.state,"",u.pathname+u.search+u.hash)}else other=!!ss.getItem(kp.key)}catch(e){}
try{var s=localStorage,v=${text(page.viewport ?? '')},w=${text(page.visitor ?? null)},i=0;if(s.getItem(${text(STORAGE_KEYS.accessToken)}))try{i=(JSON.parse(s.getItem(${text(STORAGE_KEYS.currentUser)}))||{}).id||-1}catch(e){i=-1}if(other||(w===null?i:i!==w)||s.getItem(${text(STORAGE_KEYS.theme)})==="light"||v&&matchMedia(${text(PHONE_QUERY)}).matches!==(v==="phone"))d.documentElement.classList.add(${text(PRERENDERED_STALE)})}catch(e){}
function add(o){if(!o.parentNode)return;var m=d.createElement(o.tagName);for(var i=0;i<o.attributes.length;i++)m.setAttribute(o.attributes[i].name,o.attributes[i].value);m.nonce=o.nonce||o.getAttribute("nonce");o.remove();d.head.appendChild(m)}
function held(sel){var t=d.getElementById(${text(PRERENDERED_SCRIPTS)});return t?[].slice.call(t.content.querySelectorAll(sel)):[]}
function tags(sel){held(sel).forEach(add)}
function preload(){if(preloaded++)return;var ls=held("link");(function next(){ls.splice(0,${PRELOADS_PER_TASK}).forEach(add);if(ls.length)setTimeout(next,0)})()}
function start(){if(!started++){tags("link");tags("script")}}
function idle(){var r=window.requestIdleCallback;r?r(start,{timeout:${IDLE_TIMEOUT_MS}}):setTimeout(start,200)}
if(${page.takeOver === 'at-once'}||d.documentElement.classList.contains(${text(PRERENDERED_STALE)}))start();else{requestAnimationFrame(function(){setTimeout(function(){preload();idle()},0)});setTimeout(function(){preload();start()},${IDLE_TIMEOUT_MS + 1000});q.go=start;${text(TAKE_OVER_GESTURES)}.forEach(function(k){d.addEventListener(k,q.go,true)})}
function early(e){var r=d.getElementById("root");return r&&r.hasAttribute(${text(PRERENDERED)})&&r.contains(e.target)}
l.click=function(e){var b=e.target.closest&&e.target.closest("button,input[type=checkbox],input[type=radio]");if(b&&early(e)){if(b.tagName==="BUTTON")e.preventDefault();e.stopPropagation();q.acts.push(b)}};
l.keydown=function(e){var t=e.target;if(e.key==="Enter"&&t.tagName==="INPUT"&&t.form&&early(e)){e.preventDefault();e.stopPropagation();q.acts.push(t.form)}};
l.submit=function(e){if(early(e)){e.preventDefault();e.stopPropagation()}};
for(var k in l)d.addEventListener(k,l[k],true)})()`;
  const css = (styles: string) => styles.replaceAll('</', '<\\/');
  const head =
    // The server adds the page's own chunks in here too (apps/server/src/plugins/web-app.ts).
    `<template id="${PRERENDERED_SCRIPTS}">${preloads.join('')}${entry}</template>` +
    `<script nonce="${nonce}">${script}</script>` +
    `<style ${PRERENDERED} nonce="${nonce}">${PRERENDERED_CSS}${css(page.globalCss)}</style>` +
    // data-s: where emotion would move it to, so it is not moved (a moved stylesheet is parsed again).
    `<style data-emotion="css ${page.styles.names.join(' ')}" data-s="" nonce="${nonce}">${css(page.styles.css)}</style>` +
    `<link rel="expect" href="#${PRERENDERED_END}" blocking="render">`;
  return [entry, ...preloads]
    .reduce((html, tag) => html.replace(tag, ''), template)
    .replace('</head>', `${head}</head>`)
    .replace(
      '<div id="root"></div>',
      `<div id="root" ${PRERENDERED}="${page.takeOver}">${page.markup}</div><div id="${PRERENDERED_END}" hidden></div>`,
    );
}

type TextBox = HTMLInputElement | HTMLTextAreaElement;
type Typed = { box: TextBox; value: string; selection: [number | null, number | null] };

const TEXT_TYPES = new Set(['text', 'email', 'password', 'search', 'tel', 'url', 'number']);

/** What the visitor typed into the prerendered fields (or a password manager filled in). */
function typedInto(container: HTMLElement): Typed[] {
  return [...container.querySelectorAll<TextBox>('input, textarea')]
    .filter((box) => box instanceof HTMLTextAreaElement || TEXT_TYPES.has(box.type))
    .filter((box) => box.value !== box.defaultValue)
    .map((box) => ({ box, value: box.value, selection: [box.selectionStart, box.selectionEnd] }));
}

/**
 * Tells the app of a value typed before it ran, as a browser's typing would: the box is given the app's
 * value and then, through the DOM's own setter, the typed one, so the `input` event that follows is a
 * change to React (Testing Library's fireEvent.change does the same).
 */
function retype({ box, value, selection }: Typed) {
  if (!box.isConnected) return;
  const ownSetter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(box), 'value')?.set;
  box.value = box.defaultValue;
  ownSetter?.call(box, value);
  box.dispatchEvent(new Event('input', { bubbles: true }));
  // Typed into and left: the app is told it was left (a form checks a field when it is left).
  if (box !== document.activeElement) {
    box.dispatchEvent(new FocusEvent('focusout', { bubbles: true }));
    return;
  }
  try {
    box.setSelectionRange(selection[0], selection[1]);
  } catch {
    // an email or number field has no selection to put back
  }
}

/**
 * The prerender's element styles back on their elements (the CSP allows no style attribute in markup,
 * so they came as rules of the prerendered stylesheet, which goes once the app runs).
 */
function restoreElementStyles(container: HTMLElement) {
  const rules = [...document.querySelectorAll<HTMLStyleElement>(`style[${PRERENDERED}]`)].flatMap((style) => [
    ...(style.sheet?.cssRules ?? []),
  ]);
  for (const rule of rules) {
    if (!(rule instanceof CSSStyleRule) || !rule.selectorText.startsWith('[data-prerendered-style='))
      continue;
    for (const element of container.querySelectorAll<HTMLElement>(rule.selectorText)) {
      for (const property of rule.style)
        element.style.setProperty(property, rule.style.getPropertyValue(property));
      element.removeAttribute('data-prerendered-style');
    }
  }
}

export function isPrerendered(container: HTMLElement): boolean {
  return container.hasAttribute(PRERENDERED);
}

/** The app, calling `done` once its first render is committed and its effects have run. */
function Committed({ children, done }: { children: ReactNode; done: () => void }) {
  useEffect(done, [done]);
  return children;
}

/**
 * Hydrates the prerendered markup once the page's own chunks are in (a first render without them would be
 * the loading state, not the page), as a transition: React yields to the browser between components, and
 * a tap on a part not yet hydrated hydrates that part first. Until it is committed the inline script's
 * listeners hold taps and Enter back; then the prerendered styles go (the app's own are in), the focused
 * field is the app's, each typed value is given to the app, and what was held back happens, in order.
 * A page hidden as not this visitor's (another theme, signed in) is rendered afresh instead: hydrated,
 * its colours would fade from the prerendered theme's through their CSS transitions.
 */
export async function takeOverPrerendered(
  container: HTMLElement,
  pageLoaded: Promise<unknown>,
  app: ReactNode,
): Promise<void> {
  // A chunk that failed to load: the app renders anyway and shows its own error.
  await pageLoaded.catch(() => undefined);
  const early = (window as { [EARLY]?: Early })[EARLY];
  const go = early?.go;
  if (go) for (const name of TAKE_OVER_GESTURES) document.removeEventListener(name, go, true);
  const stale = document.documentElement.classList.contains(PRERENDERED_STALE);
  restoreElementStyles(container);
  const typed = typedInto(container);
  await new Promise<void>((resolve) => {
    const committed = <Committed done={resolve}>{app}</Committed>;
    if (stale) {
      container.replaceChildren();
      createRoot(container).render(committed);
    } else startTransition(() => void hydrateRoot(container, committed));
  });
  for (const [name, listener] of Object.entries(early?.listeners ?? {})) {
    document.removeEventListener(name, listener, true);
  }
  container.removeAttribute(PRERENDERED);
  for (const style of document.querySelectorAll(`style[${PRERENDERED}]`)) style.remove();
  document.documentElement.classList.remove(PRERENDERED_STALE);
  const focused = document.activeElement;
  // Focused before the app ran, the element kept its focus but the app never heard of it: told now, MUI
  // marks it as the keyboard's (its ring) as it would have then.
  if (focused instanceof HTMLElement && container.contains(focused))
    focused.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
  // Typed before the hydration (which can leave a box as the app has it) or during it (unheard by the app).
  const boxes = new Map([...typed, ...typedInto(container)].map((each) => [each.box, each]));
  for (const each of boxes.values()) retype(each);
  // A box ticked early ticked itself (the browser's own) unseen by the app: put back as the app has it,
  // then ticked again, with the app told this time.
  const acts = early?.acts ?? [];
  for (const act of acts) {
    if (act instanceof HTMLInputElement) act.checked = act.defaultChecked;
  }
  for (const act of acts) {
    if (!act.isConnected) continue;
    if (act instanceof HTMLFormElement) act.requestSubmit();
    else if (!(act as HTMLButtonElement).disabled) act.click();
  }
}
