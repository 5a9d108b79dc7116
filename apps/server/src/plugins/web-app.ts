import { existsSync, mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import { SERVER_TEXT } from '@parley/domain/messages';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { CSP_NONCE_PLACEHOLDER, cspNonce } from './security-headers';

const YEAR_S = 365 * 24 * 3600;

/**
 * How long a browser may keep a file of the build. The service worker script and the manifest are asked
 * for again every time (a cached service worker would keep an old build alive), the hashed bundles never
 * change, the icons hardly ever.
 */
export function cacheControlFor(file: string): string {
  const path = file.replaceAll('\\', '/');
  if (path === '/service-worker.js' || path === '/manifest.webmanifest') return 'no-cache';
  if (path.startsWith('/assets/')) return `public, max-age=${YEAR_S}, immutable`;
  if (path.startsWith('/icons/')) return 'public, max-age=2592000'; // 30 days: their names carry no hash
  return 'public, max-age=3600';
}

/**
 * Serves the built web app at / with a fallback to index.html for the app's own routes. The build may
 * land after the server starts (npm start builds and starts in parallel), so its presence is checked lazily.
 */
export async function registerWebApp(app: FastifyInstance, webDist: string | undefined): Promise<void> {
  const root = resolve(webDist ?? 'apps/web/dist');
  mkdirSync(root, { recursive: true });
  let built = false;
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
    setHeaders: (reply, path) => reply.header('cache-control', cacheControlFor(path.slice(root.length))),
  });
  const building = (reply: FastifyReply) =>
    reply
      .code(503)
      .header('retry-after', '5')
      .send({ message: 'The app is being built. Reload in a few seconds.', retry: true });
  const page = async (reply: FastifyReply) => {
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
    // index.html must never be cached: it names the hashed bundles of the current build (and the nonce).
    return reply
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(html.replaceAll(CSP_NONCE_PLACEHOLDER, cspNonce(reply)));
  };
  app.get('/', (_request, reply) => page(reply));
  // The file itself is a page too (never the placeholder without its nonce).
  app.get('/index.html', (_request, reply) => page(reply));
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    // An app route, not a missing file (assets have an extension) nor an API path.
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !path.startsWith('/api/') &&
      path !== '/api' &&
      !/\.[a-z0-9]+$/i.test(path);
    if (!isPage) return reply.code(404).send({ message: SERVER_TEXT.notFound });
    return page(reply);
  });
}
