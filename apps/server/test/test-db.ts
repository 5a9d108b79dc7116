import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { inject } from 'vitest';
import { type Db, pgliteDatabase } from '../src/db/database';
import { migrateToLatest } from '../src/db/migrate';
import type { Database } from '../src/db/schema';
import { withDatabase } from './global-setup';

export type TestDb = { db: Db; kind: 'pglite' | 'pg'; close(): Promise<void> };

// A migrated PGlite is built once per worker (about 2 s) and cloned for every test database.
let template: Promise<PGlite> | undefined;

async function migratedTemplate(): Promise<PGlite> {
  const pglite = new PGlite();
  const db = pgliteDatabase(pglite);
  await migrateToLatest(db);
  return pglite;
}

/** A fresh, migrated, empty database: PGlite by default, PostgreSQL when TEST_DB=pg. */
export async function createTestDb(): Promise<TestDb> {
  if (process.env.TEST_DB === 'pg') {
    const adminUrl = inject('pgAdminUrl');
    const name = `${inject('pgTemplate').replace(/_tpl$/, '')}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('pgTemplate')}`);
    await admin.end();
    const pool = new pg.Pool({ connectionString: withDatabase(adminUrl, name), max: 20 });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
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
