import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import { SERVER_TEXT } from '@parley/domain/messages';
import type { FastifyInstance, FastifyReply } from 'fastify';

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
  await app.register(fastifyStatic, { root, wildcard: true, index: false, maxAge: '1h' });
  const page = (reply: FastifyReply) => {
    if (!hasApp())
      return reply
        .code(503)
        .header('retry-after', '5')
        .send({ message: 'The app is being built. Reload in a few seconds.', retry: true });
    // index.html must never be cached: it names the hashed bundles of the current build.
    return reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
  };
  app.get('/', (_request, reply) => page(reply));
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    // An app route, not a missing file (assets have an extension) nor an API path.
    const isPage =
      request.method === 'GET' && !path.startsWith('/api/') && path !== '/api' && !/\.[a-z0-9]+$/i.test(path);
    if (!isPage) return reply.code(404).send({ message: SERVER_TEXT.notFound });
    return page(reply);
  });
}
