import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../src/app';
import { type Config, parseConfig } from '../src/config';
import type { Db } from '../src/db/database';
import type { StatementHook } from '../src/db/statement-pool';
import { Background } from '../src/lib/background';
import type { BotCheck } from '../src/lib/bot-check';
import { MemoryStore, type RateLimitStore } from '../src/lib/rate-limiter';
import type { LiveClock } from '../src/modules/live/live-hub';
import type { PushGuard } from '../src/push/push-guard';
import { createTestDb } from './test-db';

export const TEST_APP_URL = 'http://parley.test';

export type TestApp = {
  app: FastifyInstance;
  db: Db;
  config: Config;
  /** Resolves once the work left running after the answers (reset and resend mails) is done. */
  settled(): Promise<void>;
  /**
   * That work as it is handed over: named in order, and held back (queued, not started) between hold()
   * and release(), so a test sees what an answer left to do without timing it. Release before settled().
   */
  afterAnswers: { hold(): void; release(): void; handedOver(): string[] };
  close(): Promise<void>;
};

/**
 * A background whose failures fail the test that waits for it, instead of going to a silent log.
 * Every live one is known, so the mailbox helpers can wait for mail still being written.
 */
class TestBackground extends Background {
  readonly failures: unknown[] = [];
  readonly handedOver: string[] = [];
  #held: { released: Promise<void>; release(): void } | undefined;
  constructor() {
    const fail = (details: object) => this.failures.push((details as { err?: unknown }).err);
    super({ error: fail, warn: fail });
  }
  override run(name: string, task: () => Promise<unknown>): void {
    this.handedOver.push(name);
    const held = this.#held?.released;
    super.run(name, held ? () => held.then(task) : task);
  }
  hold(): void {
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.#held ??= { released, release };
  }
  release(): void {
    this.#held?.release();
    this.#held = undefined;
  }
  async settled(): Promise<void> {
    await this.idle();
    const failure = this.failures.shift();
    if (failure) throw failure;
  }
}

const liveBackgrounds = new Set<TestBackground>();

/** Waits for the background work of every live test app (mailbox.ts calls it before reading mail). */
export async function settleBackgroundWork(): Promise<void> {
  await Promise.all([...liveBackgrounds].map((background) => background.settled()));
}

/** The real app on a fresh database, with an in-memory rate limit store and no logging. */
export async function createTestApp(
  options: {
    env?: Record<string, string>;
    botCheck?: BotCheck;
    rateLimitStore?: RateLimitStore;
    /** The push test seam (buildApp's pushGuard): otherwise the server's own, from the configuration. */
    pushGuard?: PushGuard;
    /** On PostgreSQL, sees every statement the app's database handle sends. */
    onStatement?: StatementHook;
    /** The live channel's clock (buildApp's liveClock). */
    liveClock?: LiveClock;
  } = {},
): Promise<TestApp> {
  const testDb = await createTestDb(options.onStatement ? { onStatement: options.onStatement } : {});
  const config = parseConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    APP_URL: TEST_APP_URL,
    // No page renderer (a worker with jsdom) per test app; the browser journeys run the real one.
    PAGE_RENDER_WAIT_MS: '0',
    ...options.env,
  });
  const background = new TestBackground();
  const app = await buildApp({
    db: testDb.db,
    config,
    logger: false,
    rateLimitStore: options.rateLimitStore ?? new MemoryStore(),
    background,
    ...(options.botCheck && { botCheck: options.botCheck }),
    ...(options.pushGuard && { pushGuard: options.pushGuard }),
    ...(options.liveClock && { liveClock: options.liveClock }),
  });
  liveBackgrounds.add(background);
  return {
    app,
    db: testDb.db,
    config,
    settled: () => background.settled(),
    afterAnswers: {
      hold: () => background.hold(),
      release: () => background.release(),
      handedOver: () => [...background.handedOver],
    },
    async close() {
      await app.close();
      liveBackgrounds.delete(background);
      await testDb.close();
      const failure = background.failures.shift();
      if (failure) throw failure;
    },
  };
}

/** The body of an inject() answer as JSON. */
export function json<T = Record<string, unknown>>(response: LightMyRequestResponse): T {
  return response.json() as T;
}
