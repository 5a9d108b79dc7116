import type { Config } from './config';
import type { Db } from './db/database';
import type { Background } from './lib/background';
import type { BotCheck } from './lib/bot-check';
import type { Metrics } from './lib/metrics';
import type { RateLimiter } from './lib/rate-limiter';
import type { LiveHub } from './modules/live/live-hub';

/** What services need from the running app; built once by buildApp. */
export type AppContext = {
  db: Db;
  config: Config;
  rateLimiter: RateLimiter;
  botCheck: BotCheck;
  /** Work that runs after the answer (app.close() waits for it). */
  background: Background;
  /** The counters /api/metrics serves, kept as requests go by (plugins/metrics.ts). */
  metrics: Metrics;
  /** Whether the database has opened and migrated (main.ts starts listening before it has). */
  databaseStarted: () => boolean;
  /** This process's open pages on the live channel (modules/live/). */
  live: LiveHub;
};
