import { randomBytes } from 'node:crypto';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrateToLatest } from '../src/db/migrate';

declare module 'vitest' {
  export interface ProvidedContext {
    pgTemplate: string;
    pgAdminUrl: string;
  }
}

/** Swaps the database name in a PostgreSQL URL. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** How long a connection to TEST_DATABASE_URL may take before the run fails (a server that never answers). */
const CONNECT_TIMEOUT_MS = 10_000;

/** A PostgreSQL URL fit for a message: its password hidden. */
function withoutPassword(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

/** Runs one statement on a server's maintenance connection (CREATE/DROP DATABASE). */
export async function adminQuery(url: string, query: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

/**
 * On PostgreSQL (TEST_DB=pg): one migrated template database per run; every test file copies it
 * (CREATE DATABASE … TEMPLATE) and drops its copy. Teardown drops the template and any leftovers.
 */
export default async function setup(project: TestProject) {
  if (project.config.env?.TEST_DB !== 'pg') return;
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is required for the api-pg project');
  const prefix = `parley_t_${randomBytes(4).toString('hex')}`;
  const template = `${prefix}_tpl`;
  // A PostgreSQL that was asked for and cannot be reached fails the run, loudly: never a skip, or a
  // green run that tested PGlite only (scripts/test-database-url.test.mjs checks it).
  await adminQuery(adminUrl, `CREATE DATABASE ${template}`).catch((error: unknown) => {
    throw new Error(
      `TEST_DATABASE_URL is set, but PostgreSQL at ${withoutPassword(adminUrl)} cannot be reached (${
        error instanceof Error ? error.message : String(error)
      }): start it, or unset TEST_DATABASE_URL to run the API suite on PGlite only`,
    );
  });
  const db = new Kysely<unknown>({
    dialect: new PostgresDialect({
      pool: new pg.Pool({ connectionString: withDatabase(adminUrl, template) }),
    }),
  });
  await migrateToLatest(db);
  await db.destroy();
  project.provide('pgTemplate', template);
  project.provide('pgAdminUrl', adminUrl);

  return async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    const { rows } = await client.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE datname LIKE $1',
      [`${prefix}%`],
    );
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    await client.end();
  };
}
