import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../src/app';
import { type Config, parseConfig } from '../src/config';
import type { Db } from '../src/db/database';
import type { BotCheck } from '../src/lib/bot-check';
import { MemoryStore } from '../src/lib/rate-limiter';
import { createTestDb } from './test-db';

export const TEST_APP_URL = 'http://parley.test';

export type TestApp = {
  app: FastifyInstance;
  db: Db;
  config: Config;
  close(): Promise<void>;
};

/** The real app on a fresh database, with an in-memory rate limit store and no logging. */
export async function createTestApp(
  options: { env?: Record<string, string>; botCheck?: BotCheck } = {},
): Promise<TestApp> {
  const testDb = await createTestDb();
  const config = parseConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    APP_URL: TEST_APP_URL,
    ...options.env,
  });
  const app = await buildApp({
    db: testDb.db,
    config,
    logger: false,
    rateLimitStore: new MemoryStore(),
    ...(options.botCheck && { botCheck: options.botCheck }),
  });
  return {
    app,
    db: testDb.db,
    config,
    async close() {
      await app.close();
      await testDb.close();
    },
  };
}

/** The body of an inject() answer as JSON. */
export function json<T = Record<string, unknown>>(response: LightMyRequestResponse): T {
  return response.json() as T;
}
