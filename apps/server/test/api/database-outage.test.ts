import { createServer, type Server, type Socket } from 'node:net';
import { SERVER_TEXT } from '@parley/domain/messages';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { parseConfig } from '../../src/config';
import { type Db, openDatabase } from '../../src/db/database';
import { MemoryStore } from '../../src/lib/rate-limiter';
import { bearer, PASSWORD } from '../factories';
import { TEST_APP_URL } from '../test-app';

const unavailable = { message: SERVER_TEXT.unavailable, retry: true };

/** The real app on a PostgreSQL URL that does not answer the way a database should. */
async function appOn(databaseUrl: string, connectionTimeoutMs?: number) {
  const db = openDatabase({ databaseUrl, ...(connectionTimeoutMs && { connectionTimeoutMs }) });
  const config = parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', APP_URL: TEST_APP_URL });
  const app = await buildApp({ db, config, logger: false, rateLimitStore: new MemoryStore() });
  return { app, db };
}

/** Every request that needs the database answers 503 { retry: true }; the rest keeps working. */
async function expectOutage(app: FastifyInstance) {
  const requests = [
    {
      method: 'POST' as const,
      url: '/api/user/login',
      payload: { email: 'a@example.org', password: PASSWORD },
    },
    {
      method: 'POST' as const,
      url: '/api/site/signup',
      payload: {
        subscriberName: 'Down',
        firstName: 'An',
        lastName: 'Bo',
        email: 'b@example.org',
        password: PASSWORD,
      },
    },
    { method: 'GET' as const, url: '/api/users/data', headers: bearer('some-token') },
    { method: 'GET' as const, url: '/api/site/verify-school?token=abc' },
    { method: 'POST' as const, url: '/api/user/request-password-reset', payload: { email: 'a@example.org' } },
    { method: 'GET' as const, url: '/api/ready' },
  ];
  for (const request of requests) {
    const response = await app.inject(request);
    expect(response.statusCode, request.url).toBe(503);
    expect(response.headers['retry-after']).toBe('1');
    expect(response.json()).toEqual({ ...unavailable, requestId: response.headers['x-request-id'] });
  }
  const config = await app.inject({ method: 'GET', url: '/api/site/config' });
  expect(config.statusCode).toBe(200);
  // Liveness says the process is up; readiness (above) that it cannot serve.
  const health = await app.inject({ method: 'GET', url: '/api/health' });
  expect(health.json()).toEqual({ status: 'ok' });
}

describe('database outage → 503 { retry: true }', () => {
  describe('nothing listens on the database port (connection refused)', () => {
    let t: { app: FastifyInstance; db: Db };
    beforeAll(async () => {
      t = await appOn('postgres://parley@127.0.0.1:1/parley');
    });
    afterAll(async () => {
      await t.app.close();
      await t.db.destroy();
    });

    it('answers 503 with retry on every database-backed endpoint', () => expectOutage(t.app));
  });

  describe('the database accepts connections but never answers', () => {
    let server: Server;
    const sockets = new Set<Socket>();
    let t: { app: FastifyInstance; db: Db };
    beforeAll(async () => {
      server = createServer((socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      t = await appOn(`postgres://parley@127.0.0.1:${port}/parley`, 300);
    });
    afterAll(async () => {
      await t.app.close();
      await t.db.destroy();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    });

    it('gives up after the connection timeout and answers 503 with retry (no hanging request)', () =>
      expectOutage(t.app));
  });
});
