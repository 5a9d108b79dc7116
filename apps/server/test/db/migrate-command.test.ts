import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// `npm run migrate` (the deploy step) on an empty embedded database: it migrates, then finds nothing to do.

const run = promisify(execFile);
/** What `npm run migrate` runs (from TypeScript here; the production check runs it on the build). */
const MIGRATE = ['scripts/start.mjs', 'migrate'];
const migrate = (dataDir: string) =>
  run(process.execPath, MIGRATE, {
    env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, NODE_ENV: 'test' },
  });

describe.runIf(process.env.TEST_DB !== 'pg')('the migrate command', () => {
  it('brings an empty database to this build’s schema, then reports it up to date', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'parley-migrate-'));
    try {
      const first = await migrate(dataDir);
      expect(first.stdout).toMatch(/^Migrated: 001-accounts, .*\.\n$/);
      const second = await migrate(dataDir);
      expect(second.stdout).toBe('The database is up to date.\n');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('fails with the reason on a bad configuration', async () => {
    await expect(
      run(process.execPath, MIGRATE, {
        env: { ...process.env, DATABASE_URL: 'mysql://nope', NODE_ENV: 'test' },
      }),
    ).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('DATABASE_URL') });
  });
});
