import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import { SERVER_TEXT } from '@parley/domain/messages';
import type { FastifyInstance } from 'fastify';

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
  await app.register(fastifyStatic, { root, wildcard: false, index: false, maxAge: '1h' });
  app.setNotFoundHandler((request, reply) => {
    const isPage = request.method === 'GET' && !request.url.startsWith('/api/') && request.url !== '/api';
    if (!isPage) return reply.code(404).send({ message: SERVER_TEXT.notFound });
    if (!hasApp())
      return reply
        .code(503)
        .header('retry-after', '5')
        .send({ message: 'The app is being built. Reload in a few seconds.', retry: true });
    // index.html must never be cached: it names the hashed bundles of the current build.
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
