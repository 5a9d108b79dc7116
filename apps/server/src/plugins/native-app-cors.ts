import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';

// The Capacitor app loads its pages from the device (capacitor://localhost, https://localhost) and calls
// this server's API across origins (decision 017). The API authenticates with a bearer token, never a
// cookie, so allowing those origins lends them nothing they do not already hold: no credentials mode.

/** Request headers the web client sends (lib/api-client.ts) and the booking page's personal link. */
const ALLOWED_HEADERS = 'Authorization, Content-Type, Accept, X-Requested-With, X-Booking-Link';
/** Downloads read their file name from it (lib/download.ts). */
const EXPOSED_HEADERS = 'Content-Disposition';
const PREFLIGHT_MAX_AGE_SECONDS = 600;

export function registerNativeAppCors(app: FastifyInstance, config: Pick<Config, 'nativeAppOrigins'>): void {
  const allowed = new Set(config.nativeAppOrigins);
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/api/')) return;
    reply.header('Vary', 'Origin');
    const origin = request.headers.origin;
    if (!origin || !allowed.has(origin)) return;
    reply.header('Access-Control-Allow-Origin', origin);
    reply.header('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method']) {
      reply
        .header('Access-Control-Allow-Methods', 'GET, POST')
        .header('Access-Control-Allow-Headers', ALLOWED_HEADERS)
        .header('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE_SECONDS))
        .code(204)
        .send();
    }
  });
}
