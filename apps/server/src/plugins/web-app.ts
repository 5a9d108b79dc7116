import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import { SERVER_TEXT } from '@parley/domain/messages';
import type { FastifyInstance } from 'fastify';

/** Serves the built web app at / with a fallback to index.html for the app's own routes. */
export async function registerWebApp(app: FastifyInstance, webDist: string | undefined): Promise<void> {
  const root = resolve(webDist ?? 'apps/web/dist');
  const hasApp = existsSync(resolve(root, 'index.html'));
  if (hasApp) {
    await app.register(fastifyStatic, { root, wildcard: false, index: false, maxAge: '1h' });
  }
  app.setNotFoundHandler((request, reply) => {
    const isPage = request.method === 'GET' && !request.url.startsWith('/api/') && request.url !== '/api';
    if (hasApp && isPage) {
      // index.html must never be cached: it names the hashed bundles of the current build.
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.code(404).send({ message: SERVER_TEXT.notFound });
  });
}
