import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { PGlite, type PGliteInterface } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { Kysely, PGliteDialect, PostgresDialect } from 'kysely';
import pg from 'pg';
import { useFastRowTemplates } from './result-rows';
import type { Database } from './schema';
import { type Checkouts, scopedDialect } from './scope';

export type Db = Kysely<Database>;

/** Connections of a database handle, for /api/metrics: its ceiling, those open, idle, and callers waiting. */
export type PoolUsage = { max: number; total: number; idle: number; waiting: number };
const poolUsages = new WeakMap<Db, () => PoolUsage>();

/** The pool's figures now; undefined for a handle not opened here. */
export const poolUsage = (db: Db): PoolUsage | undefined => poolUsages.get(db)?.();

// bigint counts come back as strings from pg; ids are int4, so nothing else needs parsing.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
useFastRowTemplates();

/**
 * Connections per process to PostgreSQL (decision 027): few, because each busy backend competes for the
 * database server's CPUs. PostgreSQL's guidance (twice the cores, plus one) for the 2-CPU reference
 * machine, where 5 cost PostgreSQL a sixth less CPU per booking than 10, and 10 a fifth less than 20.
 * Requests wait their turn in the pool (at most connectionTimeoutMs).
 */
export const DEFAULT_POOL_SIZE = 5;

/** PostgreSQL when a URL is given, else embedded PGlite in dataDir (or in memory for ':memory:'). */
export function openDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir?: string;
  /** PostgreSQL connections in the pool (DATABASE_POOL_SIZE). */
  poolSize?: number;
  /** How long a request waits for a pooled connection before answering 503 (default 5 s). */
  connectionTimeoutMs?: number;
}): Db {
  if (options.databaseUrl) {
    const max = options.poolSize ?? DEFAULT_POOL_SIZE;
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max,
      // Without it a request waits forever for an unresponsive server or a drained pool; with it, 503 + retry.
      connectionTimeoutMillis: options.connectionTimeoutMs ?? 5000,
      // Every request stays bounded: a lock or a slow statement gives up instead of piling up. A school's
      // data is read from memory, so a random page costs about what a sequential one does (decision 030):
      // the plans PostgreSQL keeps for the prepared statements then look rows up by their indexes.
      options: '-c lock_timeout=3000 -c statement_timeout=10000 -c random_page_cost=1.1',
    });
    // A connection the server drops (restart, failover, pg_terminate_backend) emits 'error'; unhandled it
    // ends the process. The pool listens only while a connection is idle, so every connection gets its own
    // listener for when it is checked out too: the query in flight fails (503 + retry), the pool discards
    // the broken connection and opens a new one for the next request.
    const lost = (error: Error) => console.warn(`PostgreSQL connection lost: ${error.message}`);
    pool.on('connect', (client) => client.on('error', lost));
    pool.on('error', () => {}); // the same idle error, already logged by the connection's own listener
    const heard = announcements(options.databaseUrl, pool);
    const db = new Kysely<Database>({
      dialect: scopedDialect(new PostgresDialect({ pool: withPreparedStatements(pool) })),
    });
    announcementsOf.set(db, heard);
    poolUsages.set(db, () => ({
      max,
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }));
    return db;
  }
  const dataDir = options.dataDir ?? './data';
  if (dataDir !== ':memory:') mkdirSync(dataDir, { recursive: true });
  const pglite = new PGlite({ ...pgliteOptions, ...(dataDir === ':memory:' ? {} : { dataDir }) });
  return pgliteDatabase(pglite);
}

/** The channel on which the database announces a user whose sessions changed (migration 018). */
export const SESSION_CHANNEL = 'parley_sessions';

/** The channel on which the database announces a slot that may have room again (migration 019). */
export const SLOT_CHANNEL = 'parley_slots';

/** The channel on which the database announces an event whose slots' labels changed, 0 for all (migration 020). */
export const SLOT_LABEL_CHANNEL = 'parley_slot_labels';

const CHANNELS = [SESSION_CHANNEL, SLOT_CHANNEL, SLOT_LABEL_CHANNEL] as const;
type Channel = (typeof CHANNELS)[number];

/** What hears a channel's announcements: each id, and whether every process's changes are being heard. */
export type AnnouncementWatch = {
  changed(id: number): void;
  hearing(all: boolean): void;
};

/** The listening connection's name in pg_stat_activity. */
export const LISTENER = 'parley-listener';

type Announcements = ReturnType<typeof announcements>;
const announcementsOf = new WeakMap<Db, Announcements>();

/**
 * Hears the database's session announcements for as long as the database is open. PGlite (one connection
 * in one process) announces nothing: its watch never hears.
 */
export const watchSessions = (db: Db, watch: AnnouncementWatch): void =>
  announcementsOf.get(db)?.watch(SESSION_CHANNEL, watch);

/** Hears each slot the database says may have room again (a hint's end: nothing depends on hearing it). */
export const watchFreedSlots = (db: Db, freed: (slotId: number) => void): void =>
  announcementsOf.get(db)?.watch(SLOT_CHANNEL, { changed: freed, hearing: () => {} });

/** Hears each event whose slots' labels changed (0: every event's), like watchSessions. */
export const watchSlotLabels = (db: Db, watch: AnnouncementWatch): void =>
  announcementsOf.get(db)?.watch(SLOT_LABEL_CHANNEL, watch);

const LISTEN_RETRY_MS = [500, 1000, 2000, 5000, 10_000];
const LISTEN = CHANNELS.map((channel) => `listen ${channel}`).join('; ');

/**
 * The announcements of a PostgreSQL database. Every pooled connection listens, so a change this process
 * commits is heard on its own connection before the COMMIT returns (PostgreSQL delivers a session's own
 * notifications ahead of its ReadyForQuery). One connection of its own, opened at the first watch, hears
 * the other processes' changes; while it is down nothing is heard from them (hearing(false)), and it
 * reconnects with a growing pause. Each announcement reaches every listening connection, yet is acted on
 * once: by the pooled connection whose own change it is, or by the listener when no pooled connection of
 * this process made it. (Acted on by each, a late copy would forget again what was read since.)
 */
function announcements(connectionString: string, pool: pg.Pool) {
  const watches = new Map<Channel, Set<AnnouncementWatch>>(CHANNELS.map((channel) => [channel, new Set()]));
  const everyWatch = () => [...watches.values()].flatMap((set) => [...set]);
  const announce = (message: pg.Notification) => {
    const id = Number(message.payload);
    if (!Number.isInteger(id)) return;
    for (const watch of watches.get(message.channel as Channel) ?? []) watch.changed(id);
  };
  // The backends of this process's pooled connections, whose announcements they hear themselves.
  const ownBackends = new Set<number>();
  const backendOf = (client: pg.PoolClient) => (client as unknown as { processID: number | null }).processID;
  pool.on('connect', (client) => {
    const backend = backendOf(client);
    if (backend !== null) ownBackends.add(backend);
    client.on('notification', (message) => {
      if (message.processId === backend) announce(message);
    });
    client.query(LISTEN).catch(() => {});
  });
  pool.on('remove', (client) => {
    const backend = backendOf(client);
    if (backend !== null) ownBackends.delete(backend);
  });
  let listener: pg.Client | null = null;
  let hearing = false;
  let closed = false;
  let failures = 0;
  let retry: NodeJS.Timeout | undefined;
  const setHearing = (value: boolean) => {
    hearing = value;
    for (const watch of everyWatch()) watch.hearing(value);
  };
  const listen = async () => {
    if (closed || listener) return;
    const client = new pg.Client({
      connectionString,
      connectionTimeoutMillis: 5000,
      application_name: LISTENER,
    });
    listener = client;
    const lost = (error?: Error) => {
      if (listener !== client) return;
      if (error) console.warn(`PostgreSQL announcements lost: ${error.message}`);
      listener = null;
      setHearing(false);
      client.end().catch(() => {});
      if (closed) return;
      const pause = LISTEN_RETRY_MS[Math.min(failures, LISTEN_RETRY_MS.length - 1)];
      failures += 1;
      retry = setTimeout(() => void listen(), pause);
      retry.unref();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (message) => {
      if (!ownBackends.has(message.processId)) announce(message);
    });
    try {
      await client.connect();
      await client.query(LISTEN);
      if (listener !== client) return;
      failures = 0;
      setHearing(true);
    } catch (error) {
      lost(error as Error);
    }
  };
  const end = pool.end.bind(pool);
  pool.end = (async () => {
    closed = true;
    clearTimeout(retry);
    const client = listener;
    listener = null;
    if (hearing) setHearing(false);
    // Not awaited: a connection still being opened to an unresponsive server ends when its attempt does.
    client?.end().catch(() => {});
    return end();
  }) as typeof pool.end;
  return {
    watch(channel: Channel, watch: AnnouncementWatch) {
      watches.get(channel)?.add(watch);
      if (hearing) watch.hearing(true);
      else void listen();
    },
  };
}

/** The contrib extensions the migrations create (booking exclusion constraints). */
export const pgliteOptions = { extensions: { btree_gist } };

const PREPARED_MAX = 2000;
const prepared = new Map<string, string>();
const DATA_STATEMENT = /^\s*(select|insert|update|delete|with)\b/i;

/**
 * Marks a transaction's last statement (a leading comment, so any database runs it as it is): against
 * PostgreSQL its COMMIT goes with it, in the same write and before the same Sync, one round trip instead of
 * two (issue 14). The statement must fail by itself when the change must not commit (the places were counted
 * by the statements before it, migration 023), and nothing after it may fail: the transaction's own COMMIT,
 * or a ROLLBACK, is then not sent. Should the statement fail, the COMMIT is skipped with it and the
 * transaction rolls back as usual.
 */
export const AND_COMMIT = '/* and commit */ ';

/** What pg's Connection offers a query being submitted (not in @types/pg). */
type WireConnection = {
  parse(message: { text: string; name: string; types: unknown[] }): void;
  bind(message: { portal: string; statement: string; values: unknown[] }): void;
  execute(message: { portal: string; rows: number | undefined }): void;
  sync(): void;
};
/** The statements pg's Connection knows to be parsed, or sent to be (not in @types/pg either). */
type PgParsed = {
  parsedStatements: Record<string, string>;
  submittedNamedStatements: Record<string, string>;
};
type CommandHandler = (message: unknown, connection: WireConnection) => void;
type PgQueryInternals = {
  prepare(connection: WireConnection): void;
  _getRows(connection: WireConnection, rows: number | undefined): void;
  handleCommandComplete: CommandHandler;
};
const pgQuery = pg.Query.prototype as unknown as PgQueryInternals;

/** An unnamed statement without parameters or rows (BEGIN, COMMIT), its messages only. */
function sendBare(connection: WireConnection, text: string): void {
  connection.parse({ text, name: '', types: [] });
  connection.bind({ portal: '', statement: '', values: [] });
  connection.execute({ portal: '', rows: 0 });
}

/**
 * A named statement sent in one write with the transaction's BEGIN before it, its COMMIT after it, or
 * both, before a single Sync: their completions are not the statement's result, so they are passed over.
 * Should a statement fail, PostgreSQL skips what follows it up to the Sync.
 */
class PipelinedQuery extends pg.Query {
  #begin = false;
  #commit = false;
  #completes = 0;
  static of(
    config: { name: string; text: string; values: unknown[] },
    around: { begin: boolean; commit: boolean },
    callback: (error: Error | undefined, result: unknown) => void,
  ): PipelinedQuery {
    const query = named(new PipelinedQuery(config.text, config.values, callback), config.name);
    query.#begin = around.begin;
    query.#commit = around.commit;
    return query;
  }
  prepare(connection: WireConnection & PgParsed): void {
    if (this.#begin) {
      // The statement's own Parse goes first: pg takes any ParseComplete while this query runs (BEGIN's
      // too) to mean the named statement is parsed, so a Parse that then failed would leave the connection
      // believing in a statement PostgreSQL never made.
      const { name, text } = this as unknown as { name: string; text: string };
      if (connection.parsedStatements[name] === undefined) {
        connection.parse({ text, name, types: [] });
        connection.submittedNamedStatements[name] = text;
      }
      sendBare(connection, 'begin');
    }
    pgQuery.prepare.call(this, connection);
  }
  // Called once, at the end of prepare (these queries never page through rows).
  _getRows(connection: WireConnection, rows: number | undefined): void {
    if (!this.#commit) {
      pgQuery._getRows.call(this, connection, rows);
      return;
    }
    connection.execute({ portal: (this as unknown as { portal: string }).portal, rows: undefined });
    sendBare(connection, 'commit');
    connection.sync();
  }
  handleCommandComplete(message: unknown, connection: WireConnection): void {
    const index = this.#completes++;
    if (index === (this.#begin ? 1 : 0)) pgQuery.handleCommandComplete.call(this, message, connection);
  }
}

/**
 * A query made from its text and named afterwards: pg copies a config object property by property through
 * its descriptors (cloneQueryConfig, 2 % of the server's CPU in a booking rush), where a text is taken as
 * it is.
 */
function named<Q extends pg.Query>(query: Q, name: string): Q {
  (query as unknown as { name: string }).name = name;
  return query;
}

/**
 * A named statement as a promise of its result. (pg's own promise takes a failure's stack again where it is
 * awaited; Kysely, every caller here, adds its caller's frames to the error itself.)
 */
function sendNamed(
  query: (submittable: pg.Query) => unknown,
  name: string,
  text: string,
  values: unknown,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    query(
      named(
        new pg.Query(text, values as unknown[], (error: Error | undefined, result: unknown) =>
          error ? reject(error) : resolve(result),
        ),
        name,
      ),
    );
  });
}

/** The answer of a statement that was never sent (an empty transaction's BEGIN, COMMIT or ROLLBACK). */
const unsent = (command: string) => Promise.resolve({ command, rowCount: null, rows: [], fields: [] });

/**
 * Sends each data statement as a named prepared statement, so PostgreSQL plans it once per connection
 * instead of on every request: the booking path's joins cost more to plan than to run (bench:booking-rush
 * measured half the database CPU). Bounded: past PREPARED_MAX distinct texts (lists of varying length
 * make new ones), statements go unnamed. Migrations run before any request, so no cached plan outlives
 * a schema change within a process.
 *
 * A transaction's BEGIN is held back and sent with its first statement, and its COMMIT goes with the
 * statement marked AND_COMMIT (PipelinedQuery): each saves a round trip, which costs both processes CPU
 * (issue 14). A transaction that sends nothing before its COMMIT or ROLLBACK sends nothing at all.
 */
function withPreparedStatements(pool: pg.Pool): pg.Pool {
  const nameOf = (text: string): string | undefined => {
    let name = prepared.get(text);
    if (!name && prepared.size < PREPARED_MAX && DATA_STATEMENT.test(text.replace(AND_COMMIT, ''))) {
      name = `k${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
      prepared.set(text, name);
    }
    return name;
  };
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
    // No transaction (or one this wrapper did not begin); its BEGIN held back; begun; its last statement
    // sent with its COMMIT; or ended by that COMMIT.
    let transaction: 'none' | 'held' | 'open' | 'committing' | 'committed' = 'none';
    const send = (text: unknown, rest: unknown[]) => {
      const name = typeof text === 'string' ? nameOf(text) : undefined;
      if (!name) return query(text, ...rest);
      // A caller's callback, with or without values (none of the app's), keeps pg's own way.
      if (typeof rest[0] === 'function') return query({ name, text }, ...rest);
      if (rest.length > 1) return query({ name, text, values: rest[0] }, ...rest.slice(1));
      return sendNamed(query, name, text as string, rest[0]);
    };
    Object.assign(client, {
      query: (text: unknown, ...rest: unknown[]) => {
        if (text === 'begin' && transaction === 'none') {
          transaction = 'held';
          return unsent('BEGIN');
        }
        if (text === 'commit' || text === 'rollback') {
          // Not sent for a transaction that never began, or that its last statement committed. Sent while
          // that statement is in flight (a caller that did not wait for it): pg sends it after, harmless
          // when the COMMIT went through and needed when the statement failed.
          const sent = transaction !== 'held' && transaction !== 'committed';
          transaction = 'none';
          return sent ? send(text, rest) : unsent(text.toUpperCase());
        }
        if (transaction === 'committing' || transaction === 'committed')
          return Promise.reject(new Error('A statement after the one its transaction committed with.'));
        if (transaction === 'none') return send(text, rest);
        const name = typeof text === 'string' ? nameOf(text) : undefined;
        const begin = transaction === 'held';
        transaction = 'open';
        if (!name) return begin ? query('begin').then(() => send(text, rest)) : send(text, rest);
        const commit = (text as string).startsWith(AND_COMMIT);
        if (!begin && !commit) return send(text, rest);
        const values = Array.isArray(rest[0]) ? rest[0] : [];
        if (commit) transaction = 'committing';
        return new Promise((resolve, reject) => {
          query(
            PipelinedQuery.of({ name, text: text as string, values }, { begin, commit }, (error, result) => {
              // Failed, the statement or its COMMIT: the transaction is rolled back as usual. (Unless the
              // transaction has ended meanwhile: its ROLLBACK was sent.)
              const ended = transaction !== 'committing';
              if (error) {
                if (commit && !ended) transaction = 'open';
                return reject(error);
              }
              if (commit && !ended) transaction = 'committed';
              resolve(result);
            }),
          );
        });
      },
    });
  });
  return pool;
}

export function pgliteDatabase(pglite: PGliteInterface): Db {
  const checkouts: Checkouts = { held: 0 };
  const db = new Kysely<Database>({ dialect: scopedDialect(new PGliteDialect({ pglite }), checkouts) });
  // PGlite is one connection shared by everything in the process, which queues inside PGlite: the work
  // holding it beyond the first is the work waiting for it.
  poolUsages.set(db, () => ({
    max: 1,
    total: 1,
    idle: checkouts.held === 0 ? 1 : 0,
    waiting: Math.max(checkouts.held - 1, 0),
  }));
  return db;
}
