import { existsSync, mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { CurrentUser } from '@parley/domain/auth';
import { PAGE_ELEMENT_IDS, STORAGE_KEYS } from '@parley/domain/constants';
import { SERVER_TEXT } from '@parley/domain/messages';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { endedPageSessionCookie, pageSessionToken } from '../lib/page-session';
import { PageRenderer, viewportOf } from './page-renderer';
import { CSP_NONCE_PLACEHOLDER, cspNonce } from './security-headers';

const YEAR_S = 365 * 24 * 3600;

/** A file name carrying the build's content hash (`index-Bs4e88wT.js`): its content never changes. */
const HASHED = /-[\w-]{8}\.[a-z0-9]+$/i;

/**
 * How long a browser may keep a file of the build. The service worker script and the manifest are asked
 * for again every time (a cached service worker would keep an old build alive), the hashed bundles never
 * change, the icons hardly ever. A precompressed variant (`.br`, `.gz`) is the same file.
 */
export function cacheControlFor(file: string): string {
  const path = file.replaceAll('\\', '/').replace(/\.(br|gz)$/, '');
  if (path === '/service-worker.js' || path === '/manifest.webmanifest') return 'no-cache';
  if (path.startsWith('/assets/') && HASHED.test(path)) return `public, max-age=${YEAR_S}, immutable`;
  if (path.startsWith('/icons/')) return 'public, max-age=2592000'; // 30 days: their names carry no hash
  return 'public, max-age=3600';
}

type Manifest = Record<string, { file: string; imports?: string[]; isEntry?: boolean }>;

/** A page's first answers: the JSON block, and for a signed-in page what its renderer stores first. */
type FirstAnswers = {
  block: string;
  /** Local storage as the visitor's browser holds it, for the page's render (the signed-in user). */
  storage?: Record<string, string>;
};

/**
 * The answers as a JSON data block, never run: `<` is escaped so no text in it (an event's name typed as
 * `</script>…`) can close the element.
 */
const answersBlock = (answers: Record<string, unknown>) =>
  `<script type="application/json" id="${PAGE_ELEMENT_IDS.firstAnswers}">${JSON.stringify({ at: Date.now(), ...answers }).replaceAll('<', '\\u003c')}</script>`;

/**
 * A booking page's first API answers, asked of the app itself as the page would ask for them on opening
 * (the site's settings, and the page for its code with the personal link of the address), so a phone
 * renders the page at once instead of a round trip after its scripts have run (decision 019). The answers
 * are those the link's holder gets from the API; none when the page would not load (the app then asks,
 * and shows why).
 */
async function bookingAnswers(
  app: FastifyInstance,
  url: URL,
  segment: string | undefined,
): Promise<FirstAnswers | null> {
  if (!segment) return null;
  let code: string;
  try {
    code = decodeURIComponent(segment);
  } catch {
    return null; // not an address the app would open either
  }
  // A link as the app makes them (base64url); anything else is no link here, and the app asks itself.
  const given = url.searchParams.get('link');
  const link = given && /^[\w-]{1,199}$/.test(given) ? given : null;
  const [config, booking] = await Promise.all([
    app.inject({ url: '/api/site/config' }),
    app.inject({
      url: `/api/events/book-event?code=${encodeURIComponent(code)}`,
      headers: link ? { 'x-booking-link': link } : {},
    }),
  ]);
  if (config.statusCode !== 200 || booking.statusCode !== 200) return null;
  return {
    block: answersBlock({ siteConfig: config.json(), bookingPage: { code, link, answer: booking.json() } }),
  };
}

/**
 * Home's first answers for the visitor of the page cookie (lib/page-session.ts, decision 028): the API
 * asked with that session, as the app asks at start. `visitor` names whose they are: the page is taken
 * for another visitor's (hidden, the app takes over at once) unless the browser's own session is this
 * user's. The renderer signs in as the user (their stored profile, not their token: nothing it renders
 * could show it). A session that has ended is forgotten (its cookie cleared).
 */
async function homeAnswers(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FirstAnswers | null> {
  const token = pageSessionToken(request);
  if (!token) return null;
  const headers = { authorization: `Bearer ${token}` };
  const [config, user, home] = await Promise.all([
    app.inject({ url: '/api/site/config' }),
    app.inject({ url: '/api/users/data', headers }),
    app.inject({ url: '/api/site/index', headers }),
  ]);
  if (user.statusCode === 401) reply.header('set-cookie', endedPageSessionCookie(request));
  if (config.statusCode !== 200 || user.statusCode !== 200 || home.statusCode !== 200) return null;
  const visitor = user.json() as CurrentUser;
  if (!visitor.role) return null; // logged out by the app at start (spec §4): nothing to show first
  return {
    block: answersBlock({ visitor: visitor.id, siteConfig: config.json(), home: home.json() }),
    storage: {
      [STORAGE_KEYS.accessToken]: RENDERED_PAGE_TOKEN,
      [STORAGE_KEYS.currentUser]: JSON.stringify({ ...visitor, accessToken: null }),
      [STORAGE_KEYS.subscriberName]: visitor.subscriberName,
    },
  };
}

/** The stored token of a signed-in page's render: never sent (the renderer answers no request). */
const RENDERED_PAGE_TOKEN = 'rendered-page';

/** The answers a page arrives with, if it is one that has them. */
async function firstAnswers(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FirstAnswers | null> {
  if (request.method !== 'GET') return null;
  const url = new URL(request.url, 'http://localhost');
  const page = pageAt(url.pathname);
  if (page?.answers === 'booking') return bookingAnswers(app, url, page.path.exec(url.pathname)?.[1]);
  if (page?.answers === 'home') return homeAnswers(app, request, reply);
  return null;
}

/**
 * The pages a parent opens from a mail or a bookmark (the budgeted pages of scripts/check-bundle-budget.mjs):
 * their layout and screen chunks, which the app would find only once its entry has run, are named in the
 * page so they download beside the entry, one round trip sooner; and the login page and booking links are
 * answered with their prerendered document (scripts/prerender.mjs), painted before any script runs
 * (decision 019), as is home for the visitor of the page cookie (decision 028).
 */
const BOOKING = ['src/app/layouts/booking-layout.tsx', 'src/features/booking/components/booking-page.tsx'];
const LOGIN = ['src/app/layouts/auth-layout.tsx', 'src/features/auth/components/login-page.tsx'];
type Page = {
  /** The address; a booking page's captures its code. */
  path: RegExp;
  modules: readonly string[];
  prerendered?: string;
  /** The page arrives with its first answers (firstAnswers), and rendered when it has them. */
  answers?: 'booking' | 'home';
};
const PAGES: readonly Page[] = [
  {
    path: /^\/book\/ptevent\/([^/]+)\/?$/,
    modules: BOOKING,
    prerendered: 'book-ptevent',
    answers: 'booking',
  },
  { path: /^\/book\/event\/([^/]+)\/?$/, modules: BOOKING, prerendered: 'book-event', answers: 'booking' },
  { path: /^\/auth\/login\/?$/, modules: LOGIN, prerendered: 'login' },
  // /login only redirects there: the app, not a prerendered page, must answer it.
  { path: /^\/login\/?$/, modules: LOGIN },
  {
    path: /^\/home\/?$/,
    modules: ['src/app/layouts/main-layout.tsx', 'src/features/home/components/home-page.tsx'],
    answers: 'home',
  },
];

const pageAt = (path: string) => PAGES.find((page) => page.path.test(path));

/** The JavaScript files a page needs beyond the entry's own (which index.html names already). */
export function pagePreloads(manifest: Manifest, path: string): string[] {
  const modules = pageAt(path)?.modules;
  if (!modules) return [];
  const closure = (keys: readonly string[]) => {
    const seen = new Set<string>();
    const visit = (key: string) => {
      if (seen.has(key) || !manifest[key]) return;
      seen.add(key);
      for (const dependency of manifest[key].imports ?? []) visit(dependency);
    };
    for (const key of keys) visit(key);
    return seen;
  };
  const entry = Object.keys(manifest).filter((key) => manifest[key]?.isEntry);
  const initial = closure(entry);
  return [...closure(modules)]
    .filter((key) => !initial.has(key))
    .map((key) => manifest[key]?.file ?? '')
    .filter((file) => file.endsWith('.js'));
}

/**
 * Serves the built web app at / with a fallback to index.html for the app's own routes. The build may
 * land after the server starts (npm start builds and starts in parallel), so its presence is checked lazily.
 */
export async function registerWebApp(
  app: FastifyInstance,
  webDist: string | undefined,
  renderWaitMs = 0,
): Promise<void> {
  const root = resolve(webDist ?? 'apps/web/dist');
  mkdirSync(root, { recursive: true });
  let built = false;
  const renderer = new PageRenderer(root, renderWaitMs, app.log);
  app.addHook('onReady', async () => void renderer.warm());
  app.addHook('onClose', () => renderer.close());
  const hasApp = () => {
    built ||= existsSync(resolve(root, 'index.html'));
    return built;
  };
  // wildcard: files are looked up per request, so a build that lands (or is replaced) after start is served.
  await app.register(fastifyStatic, {
    root,
    wildcard: true,
    index: false,
    cacheControl: false,
    // The build writes a .br and a .gz beside each text file (apps/web/vite.config.ts): the one the
    // browser accepts is sent, with Vary: Accept-Encoding and the original file's type.
    preCompressed: true,
    // Not the build's own bookkeeping (.vite/manifest.json).
    dotfiles: 'ignore',
    setHeaders: (reply, path) => reply.header('cache-control', cacheControlFor(path.slice(root.length))),
  });
  const building = (reply: FastifyReply) =>
    reply
      .code(503)
      .header('retry-after', '5')
      .send({ message: 'The app is being built. Reload in a few seconds.', retry: true });
  // The build's manifest, read again when index.html changes (a new build).
  let manifestFor: { html: string; manifest: Manifest } | undefined;
  const manifest = async (html: string): Promise<Manifest> => {
    if (manifestFor?.html !== html) {
      let read: Manifest = {};
      try {
        read = JSON.parse(await readFile(resolve(root, '.vite', 'manifest.json'), 'utf8')) as Manifest;
      } catch {
        // a build without a manifest: no hints, the app still loads its chunks itself
      }
      manifestFor = { html, manifest: read };
    }
    return manifestFor.manifest;
  };
  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!hasApp()) return building(reply);
    // Read per answer (a new build may land at any time) to give every page its own CSP nonce: the build
    // marks its script, style and csp-nonce meta tags with a placeholder.
    let html: string;
    try {
      html = await readFile(resolve(root, 'index.html'), 'utf8');
    } catch {
      built = false; // a rebuild emptied dist for a moment
      return building(reply);
    }
    const path = request.url.split('?')[0] ?? '';
    const modules = await manifest(html);
    // Never in the way of the page: without its answers the app asks for them itself.
    const answers = await firstAnswers(app, request, reply).catch(() => null);
    const withAnswers = (document: string) =>
      answers ? document.replace('</body>', `${answers.block}</body>`) : document;
    // A page with its answers, rendered; else the page the build prerendered, if any.
    const rendered =
      answers &&
      (await renderer
        .render({
          template: withAnswers(html),
          url: `${request.protocol}://${request.host}${request.url}`,
          viewport: viewportOf(request.headers['user-agent']),
          ...(answers.storage && { storage: answers.storage }),
        })
        .catch(() => null));
    const prerendered = pageAt(path)?.prerendered;
    if (rendered) html = rendered;
    else {
      // Written after the browser build: until then (or without it) the page is index.html.
      if (prerendered)
        html = await readFile(resolve(root, '.prerendered', `${prerendered}.html`), 'utf8').catch(() => html);
      html = withAnswers(html);
    }
    const hints = pagePreloads(modules, path)
      .map(
        (file) => `<link rel="modulepreload" crossorigin href="/${file}" nonce="${CSP_NONCE_PLACEHOLDER}">`,
      )
      .join('');
    // A prerendered page holds its script tags back until it has been painted (apps/web/src/app/prerendered.tsx).
    const held = html.indexOf(`<template id="${PAGE_ELEMENT_IDS.prerenderedScripts}">`);
    const at = held >= 0 ? html.indexOf('</template>', held) : html.indexOf('</head>');
    if (hints && at >= 0) html = `${html.slice(0, at)}${hints}${html.slice(at)}`;
    // index.html must never be cached: it names the hashed bundles of the current build (and the nonce);
    // a page carrying a family's answers (or a user's home) is not even stored.
    return reply
      .header('cache-control', answers ? 'private, no-store' : 'no-cache')
      .type('text/html; charset=utf-8')
      .send(html.replaceAll(CSP_NONCE_PLACEHOLDER, cspNonce(reply)));
  };
  app.get('/', (request, reply) => page(request, reply));
  // The file itself is a page too (never the placeholder without its nonce).
  app.get('/index.html', (request, reply) => page(request, reply));
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    // An app route, not a missing file (assets have an extension) nor an API path.
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !path.startsWith('/api/') &&
      path !== '/api' &&
      !/\.[a-z0-9]+$/i.test(path);
    if (!isPage) return reply.code(404).send({ message: SERVER_TEXT.notFound });
    return page(request, reply);
  });
}
