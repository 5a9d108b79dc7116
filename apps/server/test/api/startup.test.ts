import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { parseConfig } from '../../src/config';
import { MemoryStore } from '../../src/lib/rate-limiter';
import { createTestDb, type TestDb } from '../test-db';

describe('start-up while the database is still getting ready', () => {
  let testDb: TestDb;
  beforeAll(async () => {
    testDb = await createTestDb();
  });
  afterAll(() => testDb.close());

  /** The app as main.ts builds it while the database is still opening: ready when the test says so. */
  async function startingApp() {
    let markReady = () => {};
    const databaseReady = new Promise<void>((resolve) => {
      markReady = resolve;
    });
    const app = await buildApp({
      db: testDb.db,
      config: parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
      logger: false,
      rateLimitStore: new MemoryStore(),
      databaseReady,
    });
    return { app, markReady, databaseReady };
  }

  it('holds API requests until the database is ready, then answers them', async () => {
    const { app, markReady } = await startingApp();
    try {
      let answered = false;
      const pending = app.inject({ method: 'GET', url: '/api/site/config' }).then((response) => {
        answered = true;
        return response;
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(answered).toBe(false);
      markReady();
      const response = await pending;
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ appName: 'Parley' });
    } finally {
      await app.close();
    }
  });

  it('answers readiness at once while the database starts: 503, then ready; liveness all along', async () => {
    const { app, markReady, databaseReady } = await startingApp();
    try {
      const starting = await app.inject({ method: 'GET', url: '/api/ready' });
      expect(starting.statusCode).toBe(503);
      expect(starting.headers['retry-after']).toBe('1');
      expect((await app.inject({ method: 'GET', url: '/api/health' })).json()).toEqual({ status: 'ok' });
      markReady();
      await databaseReady;
      const ready = await app.inject({ method: 'GET', url: '/api/ready' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ status: 'ready' });
    } finally {
      await app.close();
    }
  });
});
