// A page prerendered at build time (scripts/prerender.mjs, decision 019): the login page and the booking
// link arrive as HTML with their styles, so a phone paints them before any JavaScript has run. The app
// then renders over that markup (Preact reuses the elements it finds, so nothing is drawn twice) and takes
// over what the visitor did meanwhile: the text typed, the field in focus.
import { BREAKPOINTS, PAGE_ELEMENT_IDS, STORAGE_KEYS, type Viewport } from '@parley/domain/constants';
import { type ComponentChild, render } from 'preact';
import type { ReactNode } from 'react';
import { onFirstGesture } from '../lib/first-gesture';

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
  /** Set at the first gesture on a page that waits for one: the gesture that started the app. */
  gesture?: 1;
  /** The listener that waits for that gesture (on each of TAKE_OVER_GESTURES), removed at the takeover. */
  go?: () => void;
};
const EARLY = '__parleyPrerendered';

/**
 * When the app takes a prerendered page over: at once (a page whose content comes from the API), or at the
 * visitor's first gesture on the page (the login form and a booking link, complete as they are). Running
 * the app costs a slow phone a second of work (its modules' evaluation, then the takeover); on a page that
 * needs nothing until it is used, that second is better spent when it is: its files are fetched after the
 * first paint, but not run until the first gesture, and the page shows and scrolls meanwhile.
 */
export type TakeOver = 'at-once' | 'on-gesture';
/**
 * The gestures that start a page's takeover: a tap, a key, a field typed into (autofill, a script). Not a
 * focus alone: a window given the focus back can move it without the visitor.
 */
const TAKE_OVER_GESTURES = ['pointerdown', 'keydown', 'input'] as const;

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
   * store at once, as the app would (lib/url-token.ts): a page that waits for a gesture keeps it out of
   * the address bar meanwhile too. An address without it, in a tab that keeps one, is a page rendered for
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
 * the app for its content; one that waits for a gesture fetches them then, and runs them at the first
 * gesture, or at once when the page is stale). The script hides the page from a visitor who will see
 * another one (a stored session on a signed-out page, another user's or none on a signed-in one, the light
 * theme, another viewport's layout), and until the app takes over
 * it keeps what the markup alone would do wrong: a tap on a button (held back) or a checkbox or radio
 * (let through, as the app is told of it afterwards), or Enter in a form's field (held back), each given to
 * the app once it runs (a theme toggle tapped early still toggles, a teacher ticked early is ticked, an
 * Enter still signs in), and it blocks the browser's
 * own submit (which would put the typed email and password into the address). Links work as plain links.
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
if(${page.takeOver === 'at-once'}||d.documentElement.classList.contains(${text(PRERENDERED_STALE)}))start();else{requestAnimationFrame(function(){setTimeout(preload,0)});setTimeout(preload,1000);q.go=function(){q.gesture=1;start()};${text(TAKE_OVER_GESTURES)}.forEach(function(k){d.addEventListener(k,q.go,true)})}
function early(e){var r=d.getElementById("root");return r&&r.hasAttribute(${text(PRERENDERED)})&&r.contains(e.target)}
l.click=function(e){var b=e.target.closest&&e.target.closest("button,input[type=checkbox],input[type=radio]");if(b&&early(e)){if(b.tagName==="BUTTON")e.preventDefault();q.acts.push(b)}};
l.keydown=function(e){var t=e.target;if(e.key==="Enter"&&t.tagName==="INPUT"&&t.form&&early(e)){e.preventDefault();q.acts.push(t.form)}};
l.submit=function(e){if(early(e))e.preventDefault()};
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

/** What the visitor typed into the prerendered fields (a slow phone may take seconds to run the app). */
function typedInto(container: HTMLElement): Typed[] {
  const boxes = [...container.querySelectorAll<TextBox>('input, textarea')].filter(
    (box) => box instanceof HTMLTextAreaElement || TEXT_TYPES.has(box.type),
  );
  return boxes
    .filter((box) => box.value !== box.defaultValue)
    .map((box) => ({ box, value: box.value, selection: [box.selectionStart, box.selectionEnd] }));
}

function afterNextPaint(run: () => void) {
  requestAnimationFrame(() => setTimeout(run, 0));
}

export function isPrerendered(container: HTMLElement): boolean {
  return container.hasAttribute(PRERENDERED);
}

/**
 * Renders the app over the prerendered markup once the page's own chunks are in (a first render without
 * them would replace the page by its loading state), then drops the prerendered styles (the app's own are
 * in by then: they are written as it renders) and gives each typed value back to its field, as if typed
 * now, so the form's state has it. Preact's own render, not compat's createRoot: that one empties the
 * container first, as React does; this one keeps each element it can use and corrects its attributes and
 * text, so a first render that differs (another theme, reduced motion) still comes out right.
 */
export async function takeOverPrerendered(
  container: HTMLElement,
  pageLoaded: Promise<unknown>,
  app: ReactNode,
): Promise<void> {
  const early = (window as { [EARLY]?: Early })[EARLY];
  const used =
    container.contains(document.activeElement) ||
    typedInto(container).length > 0 ||
    Boolean(early?.acts.length || early?.gesture);
  const onGesture =
    container.getAttribute(PRERENDERED) === 'on-gesture' &&
    !document.documentElement.classList.contains(PRERENDERED_STALE) &&
    !used;
  await Promise.all([
    // A chunk that failed to load: the app renders anyway and shows its own error.
    pageLoaded.catch(() => undefined),
    // After the gesture's own response is painted (the focus, the caret), not in its way.
    onGesture &&
      new Promise<void>((resolve) => onFirstGesture(() => afterNextPaint(resolve), TAKE_OVER_GESTURES)),
  ]);
  for (const [name, listener] of Object.entries(early?.listeners ?? {})) {
    document.removeEventListener(name, listener, true);
  }
  const go = early?.go;
  if (go) for (const name of TAKE_OVER_GESTURES) document.removeEventListener(name, go, true);
  const typed = typedInto(container);
  const focused = document.activeElement;
  // A page hidden as not this visitor's (another theme, signed in) is drawn afresh: corrected in place,
  // its colours would fade from the prerendered theme's through their CSS transitions.
  if (document.documentElement.classList.contains(PRERENDERED_STALE)) container.replaceChildren();
  // compat's elements are Preact's: only their TypeScript types are React's.
  render(app as ComponentChild, container);
  container.removeAttribute(PRERENDERED);
  // The global styles: the app has written its own (the components' are emotion's now, and stay).
  for (const style of document.querySelectorAll(`style[${PRERENDERED}]`)) style.remove();
  document.documentElement.classList.remove(PRERENDERED_STALE);
  if (focused instanceof HTMLElement && focused.isConnected) {
    if (document.activeElement !== focused) focused.focus();
    // Focused before the app ran, the element kept its focus but the app never heard of it: told now, MUI
    // marks it as the keyboard's (its ring) as it would have then.
    else if (container.contains(focused)) focused.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
  }
  for (const { box, value, selection } of typed) {
    if (!box.isConnected) continue;
    box.value = value;
    box.dispatchEvent(new Event('input', { bubbles: true }));
    // Typed into and left: the app is told it was left (a form checks a field when it is left).
    if (box !== document.activeElement) {
      box.dispatchEvent(new FocusEvent('focusout', { bubbles: true }));
      continue;
    }
    try {
      box.setSelectionRange(selection[0], selection[1]);
    } catch {
      // an email or number field has no selection to put back
    }
  }
  // A box ticked early toggled itself (the browser's own), and the render has just put it back as the app
  // has it: clicked again now, the app ticks it.
  for (const act of early?.acts ?? []) {
    if (!act.isConnected) continue;
    if (act instanceof HTMLFormElement) act.requestSubmit();
    else if (!(act as HTMLButtonElement).disabled) act.click();
  }
}
