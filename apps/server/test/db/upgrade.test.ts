import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { Kysely } from 'kysely';
import { type Migration, Migrator } from 'kysely/migration';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { type Db, openDatabase, pgliteDatabase, pgliteOptions } from '../../src/db/database';
import { migrateToLatest } from '../../src/db/migrate';
import { asOwner } from '../../src/db/scope';
import { withDatabase } from '../global-setup';
import { createTestDb } from '../test-db';
import { schemaSnapshot } from './schema-snapshot';

// An upgrade reaches the same schema as a fresh install (issue 16): a database migrated with the
// migrations as they were at an older commit, then with today's, must describe itself exactly as a
// database migrated with today's alone. The commits are where a migration was later edited in place,
// before migrations were frozen (migration 015 brings such databases level).

const OLDER_COMMITS = [
  ['54c0ffe', 'events as first landed (a family’s bookings cascaded with it)'],
  ['8b9203d', 'booking as first landed (no per-child teacher rule, the first idempotency key)'],
  ['b7f5604', 'tickets as first landed (no offline duplicate scans)'],
] as const;

const MIGRATIONS = 'apps/server/src/db/migrations';
const WORK = join(import.meta.dirname, '.upgrade');

const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' });

/** The migrations as they were at `commit`, written out and loaded. */
async function migrationsAt(commit: string): Promise<Record<string, Migration>> {
  const dir = join(WORK, commit);
  mkdirSync(dir, { recursive: true });
  const files = git('ls-tree', '--name-only', `${commit}:${MIGRATIONS}`)
    .split('\n')
    .filter((file) => /^\d{3}-.+\.ts$/.test(file));
  const loaded: Record<string, Migration> = {};
  for (const file of files) {
    writeFileSync(join(dir, file), git('show', `${commit}:${MIGRATIONS}/${file}`));
    loaded[file.replace(/\.ts$/, '')] = (await import(pathToFileURL(join(dir, file)).href)) as Migration;
  }
  return loaded;
}

/** An empty database of the engine under test, and how to drop it. */
async function emptyDatabase(): Promise<{ db: Db; close(): Promise<void> }> {
  if (process.env.TEST_DB !== 'pg') {
    const db = pgliteDatabase(new PGlite(pgliteOptions));
    return { db, close: () => db.destroy() };
  }
  const adminUrl = inject('pgAdminUrl');
  const name = `parley_upgrade_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const db = openDatabase({ databaseUrl: withDatabase(adminUrl, name) });
  return {
    db,
    async close() {
      await db.destroy();
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

describe('upgrading an older database', () => {
  afterAll(() => rmSync(WORK, { recursive: true, force: true }));

  it.each(OLDER_COMMITS)(
    'from %s (%s) reaches the schema of a fresh install',
    async (commit) => {
      const old = await migrationsAt(commit);
      const fresh = await createTestDb();
      const upgraded = await emptyDatabase();
      try {
        const migrator = new Migrator({
          db: upgraded.db as unknown as Kysely<unknown>,
          provider: { getMigrations: async () => old },
        });
        const { error } = await asOwner(() => migrator.migrateToLatest());
        expect(error).toBeUndefined();
        await migrateToLatest(upgraded.db);
        expect(await schemaSnapshot(upgraded.db)).toEqual(await schemaSnapshot(fresh.db));
      } finally {
        await upgraded.close();
        await fresh.close();
      }
    },
    120_000,
  );
});
