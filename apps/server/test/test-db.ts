import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import pg from 'pg';
import { inject } from 'vitest';
import { type Db, openDatabase, pgliteDatabase, pgliteOptions } from '../src/db/database';
import { migrateToLatest } from '../src/db/migrate';
import type { StatementHook } from '../src/db/statement-pool';
import { withDatabase } from './global-setup';

export type TestDb = { db: Db; kind: 'pglite' | 'pg'; close(): Promise<void> };

// A migrated PGlite is built once per worker (about 2 s) and cloned for every test database.
let template: Promise<PGlite> | undefined;

async function migratedTemplate(): Promise<PGlite> {
  const pglite = new PGlite(pgliteOptions);
  const db = pgliteDatabase(pglite);
  await migrateToLatest(db);
  return pglite;
}

/**
 * A fresh, migrated, empty database: PGlite by default, PostgreSQL when TEST_DB=pg (where `onStatement`
 * sees every statement the handle sends).
 */
export async function createTestDb(options: { onStatement?: StatementHook } = {}): Promise<TestDb> {
  if (process.env.TEST_DB === 'pg') {
    const adminUrl = inject('pgAdminUrl');
    const name = `${inject('pgTemplate').replace(/_tpl$/, '')}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('pgTemplate')}`);
    await admin.end();
    const db = openDatabase({ databaseUrl: withDatabase(adminUrl, name), ...options });
    return {
      db,
      kind: 'pg',
      async close() {
        await db.destroy();
        const client = new pg.Client({ connectionString: adminUrl });
        await client.connect();
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await client.end();
      },
    };
  }
  template ??= migratedTemplate();
  const pglite = await (await template).clone();
  const db = pgliteDatabase(pglite);
  return { db, kind: 'pglite', close: () => db.destroy() };
}

/**
 * On PostgreSQL, a connection of its own to a test database, as its owner: what another process of the app
 * would change. Undefined on PGlite (one process, one connection).
 */
export async function connectElsewhere(db: Db): Promise<pg.Client | undefined> {
  if (process.env.TEST_DB !== 'pg') return undefined;
  const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(db);
  const client = new pg.Client({ connectionString: withDatabase(inject('pgAdminUrl'), rows[0]?.name ?? '') });
  await client.connect();
  return client;
}

/**
 * On PostgreSQL, a second database handle of the app on a test database (its own pool and listener): what
 * another server process would hold. Undefined on PGlite.
 */
export async function openElsewhere(db: Db): Promise<Db | undefined> {
  if (process.env.TEST_DB !== 'pg') return undefined;
  const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(db);
  return openDatabase({ databaseUrl: withDatabase(inject('pgAdminUrl'), rows[0]?.name ?? '') });
}
