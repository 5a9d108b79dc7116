import { mkdirSync } from 'node:fs';
import { PGlite, type PGliteInterface } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { Kysely, PGliteDialect, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema';

export type Db = Kysely<Database>;

// bigint counts come back as strings from pg; ids are int4, so nothing else needs parsing.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/** PostgreSQL when a URL is given, else embedded PGlite in dataDir (or in memory for ':memory:'). */
export function openDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir?: string;
  /** How long a request waits for a pooled connection before answering 503 (default 5 s). */
  connectionTimeoutMs?: number;
}): Db {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 20,
      // Without it a request waits forever for an unresponsive server or a drained pool; with it, 503 + retry.
      connectionTimeoutMillis: options.connectionTimeoutMs ?? 5000,
      // Every request stays bounded: a lock or a slow statement gives up instead of piling up.
      options: '-c lock_timeout=3000 -c statement_timeout=10000',
    });
    // An idle connection the server drops (restart, failover) emits here; unhandled it would end the
    // process. The pool replaces it; requests in flight get their own error (503 + retry).
    pool.on('error', (error) => console.warn(`PostgreSQL connection lost: ${error.message}`));
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  const dataDir = options.dataDir ?? './data';
  if (dataDir !== ':memory:') mkdirSync(dataDir, { recursive: true });
  const pglite = new PGlite(dataDir === ':memory:' ? undefined : dataDir, pgliteOptions);
  return new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
}

/** The contrib extensions the migrations create (booking exclusion constraints). */
export const pgliteOptions = { extensions: { btree_gist } };

export function pgliteDatabase(pglite: PGliteInterface): Db {
  return new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
}
