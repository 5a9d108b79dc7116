import { configDefaults, defineConfig } from 'vitest/config';

// One runner, several projects: pure rules, the web app, the API on PGlite and on PostgreSQL, the API's
// soak tests, and the browser journeys. `npm test` (scripts/test.sh) picks which run.
/** The API tests that take real time on purpose (a server killed, an outage, a rush against it): api-soak. */
const SOAK = ['apps/server/test/faults/**/*.test.ts', 'apps/server/test/concurrency/connection-kill.test.ts'];
const apiProject = (name: string, db: 'pglite' | 'pg', soak = false) => ({
  test: {
    name,
    environment: 'node',
    include: soak ? SOAK : ['apps/server/src/**/*.test.ts', 'apps/server/test/**/*.test.ts'],
    exclude: soak ? [] : [...SOAK, ...(db === 'pglite' ? ['apps/server/test/concurrency/**'] : [])],
    env: { TEST_DB: db, TZ: 'UTC' },
    globalSetup: ['apps/server/test/global-setup.ts'],
    // Shares the migrated PGlite template between the files of a worker; every file still gets its own db.
    isolate: false,
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});

/** Browser journeys whose assertions are timings (the first tap painted within 200 ms). */
const TIMED_JOURNEYS = ['e2e/react-first-tap.test.ts'];
/**
 * The browser journeys against one real server (e2e/global-setup.ts). Each journey makes its own school,
 * so files may run side by side (scripts/test.sh gives them two workers); the timed ones run alone.
 */
const e2eProject = (name: string, files: { include?: string[]; exclude?: string[] }) => ({
  test: {
    name,
    environment: 'node',
    include: files.include ?? ['e2e/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...(files.exclude ?? [])],
    // Guards against a hang, not a speed limit: the longest journey takes a minute on a quiet machine and
    // over two on a loaded one with two files side by side (CI, 7 Dec).
    testTimeout: 360_000,
    hookTimeout: 360_000,
    // A page's first text can take seconds on a busy CI machine: expect.poll's 1 s default failed there.
    expect: { poll: { timeout: 15_000 } },
    globalSetup: ['e2e/global-setup.ts'],
  },
});

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'domain',
          environment: 'node',
          include: ['packages/domain/src/**/*.test.ts'],
          env: { TZ: 'UTC' },
        },
      },
      {
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          env: { TZ: 'UTC' },
          // Testing Library's waits, long enough for a busy CI machine.
          setupFiles: ['apps/web/src/test-support/setup.ts'],
          // A screen test clicks through several requests: a busy 2-CPU machine needs more than 5 s.
          testTimeout: 20_000,
        },
      },
      apiProject('api-pglite', 'pglite'),
      apiProject('api-pg', 'pg'),
      // Once, on PostgreSQL when TEST_DATABASE_URL is set (CI), else on PGlite.
      apiProject('api-soak', process.env.TEST_DATABASE_URL ? 'pg' : 'pglite', true),
      e2eProject('e2e', { exclude: TIMED_JOURNEYS }),
      // Journeys that time what the page does: alone, with nothing else on the machine's CPUs.
      e2eProject('e2e-timed', { include: TIMED_JOURNEYS }),
    ],
  },
});
