// Renders a page of the app into HTML: the prerender bundle (apps/web/src/prerender.tsx, built by
// scripts/prerender.mjs into the build's .prerendered/render.js) run at the page's address in a fresh jsdom
// window, its own context for the bundle's module state, so nothing of one page (a family's answers) can
// reach another and all of it is garbage once the page is written. The build runs it for the login page and
// the booking shells; the server, as a worker thread (apps/server/src/plugins/page-renderer.ts), for each
// booking link and each signed-in home with its first answers (decisions 019 and 028). Plain JavaScript:
// the build copies it beside the bundle it runs.
import { readFileSync, statSync } from 'node:fs';
import vm from 'node:vm';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';

/** The window's width per layout (the app's useIsMobile switches at 540 px). */
const WIDTHS = { phone: 390, desktop: 1280 };

/** matchMedia for a window `width` pixels wide: widths are answered, no other feature (motion, colours) is preferred. */
function matchMediaAt(width) {
  const holds = (part) => {
    const feature = /\(\s*(min|max)-width\s*:\s*([\d.]+)px\s*\)/.exec(part);
    if (!feature) return false;
    return feature[1] === 'min' ? width >= Number(feature[2]) : width <= Number(feature[2]);
  };
  return (media) => ({
    media,
    matches: media.split(/\s+and\s+/).every(holds),
    onchange: null,
    addListener() {},
    removeListener() {},
    addEventListener() {},
    removeEventListener() {},
    dispatchEvent: () => false,
  });
}

/** A MessageChannel whose messages are the window's timers. */
function WindowChannel(window) {
  return class {
    port1 = { onmessage: null };
    port2 = { postMessage: (data) => window.setTimeout(() => this.port1.onmessage?.({ data }), 0) };
  };
}

/** The bundle, compiled once per build (a new build has a new file time). */
let compiled = null;
function bundleScript(path) {
  const { mtimeMs } = statSync(path);
  if (compiled?.path !== path || compiled.mtimeMs !== mtimeMs) {
    const code = `${readFileSync(path, 'utf8')}\n;parleyPrerender`;
    compiled = { path, mtimeMs, script: new vm.Script(code, { filename: path }) };
  }
  return compiled.script;
}

/**
 * One page: `template` (the built index.html, with a page's first answers in it) rendered at `url`, taken
 * over as `takeOver` says, in the layout of `viewport` where it has one per viewport, with `storage` in the
 * window's local storage (a signed-in visitor's page).
 */
export async function renderPage(JSDOM, { bundle, template, url, takeOver, viewport, storage }) {
  const script = bundleScript(bundle);
  const dom = new JSDOM(template, { url, pretendToBeVisual: true, runScripts: 'outside-only' });
  const { window } = dom;
  try {
    window.matchMedia = matchMediaAt(WIDTHS[viewport ?? 'desktop']);
    // A request the page would make is never answered here: what its first render needs came with it.
    window.fetch = () => new Promise(() => {});
    // What React's server renderer takes from a browser as it loads, which jsdom does not have. Only its
    // streaming half uses them (not renderToString): a channel on the window's own timers, which end with
    // the window (Node's would keep the process alive), and Node's TextEncoder.
    window.MessageChannel ??= WindowChannel(window);
    window.TextEncoder ??= TextEncoder;
    // What the visitor's browser keeps (a signed-in page's user), read by the app as it starts.
    for (const [key, value] of Object.entries(storage ?? {})) window.localStorage.setItem(key, value);
    const { renderDocument } = script.runInContext(dom.getInternalVMContext());
    return await renderDocument(template, takeOver, viewport ? { viewport } : undefined);
  } finally {
    window.close();
  }
}

// As the server's worker thread: a page per message, answered with its HTML or why not. The bundle is
// compiled at once, so the first visitor does not wait for it.
if (!isMainThread && workerData?.pageRenderer) {
  const { JSDOM } = await import(workerData.jsdom);
  bundleScript(workerData.bundle);
  parentPort.on('message', async ({ id, page }) => {
    try {
      parentPort.postMessage({ id, html: await renderPage(JSDOM, page) });
    } catch (error) {
      parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
    }
  });
}
