import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { PGlite, type PGliteInterface } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PGliteDialect, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema';
import { type Checkouts, scopedDialect } from './scope';
import { namedStatementPool, type StatementHook } from './statement-pool';

export type Db = Kysely<Database>;

/** Connections of a database handle, for /api/metrics: its ceiling, those open, idle, and callers waiting. */
export type PoolUsage = { max: number; total: number; idle: number; waiting: number };
const poolUsages = new WeakMap<Db, () => PoolUsage>();

/** The pool's figures now; undefined for a handle not opened here. */
export const poolUsage = (db: Db): PoolUsage | undefined => poolUsages.get(db)?.();

// bigint counts come back as strings from pg; ids are int4, so nothing else needs parsing.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

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
  /** Sees every statement sent to PostgreSQL and its result (the benches count them; tests record them). */
  onStatement?: StatementHook;
  /** The listener's heartbeat (HEARTBEAT); false only for a test's negative control. */
  heartbeat?: Heartbeat | false;
}): Db {
  if (options.databaseUrl) {
    const max = options.poolSize ?? DEFAULT_POOL_SIZE;
    const connection: pg.ClientConfig = {
      connectionString: options.databaseUrl,
      // Without it a request waits forever for an unresponsive server or a drained pool; with it, 503 and
      // a retry.
      connectionTimeoutMillis: options.connectionTimeoutMs ?? 5000,
      // Every request stays bounded: a lock or a slow statement gives up instead of piling up. A school's
      // data is read from memory, so a random page costs about what a sequential one does (decision 030):
      // the plans PostgreSQL keeps for the prepared statements then look rows up by their indexes.
      options: '-c lock_timeout=3000 -c statement_timeout=10000 -c random_page_cost=1.1',
    };
    const pool = new pg.Pool({ ...connection, max });
    // A connection the server drops (restart, failover, pg_terminate_backend) emits 'error'; unhandled it
    // ends the process. The pool listens only while a connection is idle, so every connection gets its own
    // listener for when it is checked out too: the query in flight fails (503 + retry), the pool discards
    // the broken connection and opens a new one for the next request.
    const lost = (error: Error) => console.warn(`PostgreSQL connection lost: ${error.message}`);
    pool.on('connect', (client) => client.on('error', lost));
    pool.on('error', () => {}); // the same idle error, already logged by the connection's own listener
    const heard = announcements(options.databaseUrl, pool, options.heartbeat ?? HEARTBEAT);
    // Each data statement goes as a named prepared statement (statement-pool.ts, decision 009).
    const statements = namedStatementPool(pool, {
      connection,
      onStatement: options.onStatement,
      beforeEnd: heard.close,
    });
    const db = new Kysely<Database>({
      dialect: scopedDialect(new PostgresDialect({ pool: statements })),
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

/** The channel on which a teacher's saved lateness is announced, its row's id (modules/live/). */
export const TIMING_CHANNEL = 'parley_timing';

/** The channel on which a video call's signalling message is announced, its row's id (modules/live/). */
export const CALL_CHANNEL = 'parley_calls';

const CHANNELS = [SESSION_CHANNEL, SLOT_CHANNEL, SLOT_LABEL_CHANNEL, TIMING_CHANNEL, CALL_CHANNEL] as const;
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

/** Hears each teacher's lateness saved, by any process (the live channel's news; nothing depends on it). */
export const watchTimings = (db: Db, saved: (timingId: number) => void): void =>
  announcementsOf.get(db)?.watch(TIMING_CHANNEL, { changed: saved, hearing: () => {} });

/** Hears each video call's signalling message saved, by any process (modules/live/live-hub.ts). */
export const watchCallSignals = (db: Db, saved: (signalId: number) => void): void =>
  announcementsOf.get(db)?.watch(CALL_CHANNEL, { changed: saved, hearing: () => {} });

/** Whether the database announces its changes (PostgreSQL); PGlite, one connection in one process, does not. */
export const announces = (db: Db): boolean => announcementsOf.has(db);

const LISTEN_RETRY_MS = [500, 1000, 2000, 5000, 10_000];
const LISTEN = CHANNELS.map((channel) => `listen ${channel}`).join('; ');

/** The listener's own channel: it announces to itself there, to know that it still hears. */
const HEARTBEAT_CHANNEL = 'parley_heartbeat';

/**
 * How often the listener announces to itself, and how long it waits to hear it. A connection that went
 * silent without closing (a proxy or a network between that stopped passing data) would leave the process
 * believing it hears every change while it hears none: a revoked session kept, stale labels. When its own
 * announcement does not come back in time, the listener counts as lost (everything kept is forgotten at
 * once) and a new one connects. TCP keepalive catches the same later, and a dead peer too.
 */
export type Heartbeat = { everyMs: number; echoWithinMs: number };
export const HEARTBEAT: Heartbeat = { everyMs: 250, echoWithinMs: 1000 };

/**
 * The announcements of a PostgreSQL database. Every pooled connection listens, so a change this process
 * commits is heard on its own connection before the COMMIT returns (PostgreSQL delivers a session's own
 * notifications ahead of its ReadyForQuery). One connection of its own, opened at the first watch, hears
 * the other processes' changes; while it is down nothing is heard from them (hearing(false)), and it
 * reconnects with a growing pause. Each announcement reaches every listening connection, yet is acted on
 * once: by the pooled connection whose own change it is, or by the listener when no pooled connection of
 * this process made it. (Acted on by each, a late copy would forget again what was read since.)
 */
function announcements(connectionString: string, pool: pg.Pool, heartbeat: Heartbeat | false) {
  const watches = new Map<Channel, Set<AnnouncementWatch>>(CHANNELS.map((channel) => [channel, new Set()]));
  const everyWatch = () => [...watches.values()].flatMap((set) => [...set]);
  const announce = (message: pg.Notification) => {
    const id = Number(message.payload);
    if (!Number.isInteger(id)) return;
    for (const watch of watches.get(message.channel as Channel) ?? []) watch.changed(id);
  };
  // The backends of this process's pooled connections, whose announcements they hear themselves. Each
  // connection asks for its backend's pid as it starts listening, before anything it runs can announce a
  // change.
  const ownBackends = new Set<number>();
  const backends = new WeakMap<pg.PoolClient, number>();
  pool.on('connect', (client) => {
    let backend: number | undefined;
    client.on('notification', (message) => {
      if (backend !== undefined && message.processId === backend) announce(message);
    });
    // One query of several statements, which pg answers with a result for each (its pid, then the LISTENs).
    client
      .query(`select pg_backend_pid() as pid; ${LISTEN}`)
      .then((results) => {
        const [own] = results as unknown as Array<pg.QueryResult<{ pid: number }>>;
        backend = own?.rows[0]?.pid;
        if (backend === undefined) return;
        ownBackends.add(backend);
        backends.set(client, backend);
      })
      .catch(() => {});
  });
  pool.on('remove', (client) => {
    const backend = backends.get(client);
    if (backend !== undefined) ownBackends.delete(backend);
  });
  let listener: pg.Client | null = null;
  let hearing = false;
  let closed = false;
  let failures = 0;
  let retry: NodeJS.Timeout | undefined;
  let beat: NodeJS.Timeout | undefined;
  // Each heartbeat's payload: this process's own marker (other processes' listeners hear it too) and a count.
  const marker = randomUUID();
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
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    listener = client;
    const lost = (error?: Error) => {
      if (listener !== client) return;
      if (error) console.warn(`PostgreSQL announcements lost: ${error.message}`);
      clearInterval(beat);
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
    // The heartbeats sent, and when the last one went while it has not come back.
    let beats = 0;
    let awaitedSince: number | undefined;
    client.on('notification', (message) => {
      if (message.channel === HEARTBEAT_CHANNEL) {
        const [from, count] = (message.payload ?? '').split(':');
        if (from === marker && Number(count) === beats) awaitedSince = undefined;
      } else if (!ownBackends.has(message.processId)) announce(message);
    });
    try {
      await client.connect();
      await client.query(`${LISTEN}; listen ${HEARTBEAT_CHANNEL}`);
      if (listener !== client) return;
      failures = 0;
      setHearing(true);
      if (!heartbeat) return;
      beat = setInterval(() => {
        if (awaitedSince !== undefined) {
          if (Date.now() - awaitedSince > heartbeat.echoWithinMs)
            lost(new Error(`its own announcement did not come back within ${heartbeat.echoWithinMs} ms`));
          return;
        }
        beats += 1;
        awaitedSince = Date.now();
        client.query('select pg_notify($1, $2)', [HEARTBEAT_CHANNEL, `${marker}:${beats}`]).catch(() => {});
      }, heartbeat.everyMs);
      beat.unref();
    } catch (error) {
      lost(error as Error);
    }
  };
  return {
    watch(channel: Channel, watch: AnnouncementWatch) {
      watches.get(channel)?.add(watch);
      if (hearing) watch.hearing(true);
      else void listen();
    },
    /** Stops hearing, as the database handle closes (before its pool ends). */
    close() {
      closed = true;
      clearTimeout(retry);
      clearInterval(beat);
      const client = listener;
      listener = null;
      if (hearing) setHearing(false);
      // Not awaited: a connection still being opened to an unresponsive server ends when its attempt does.
      client?.end().catch(() => {});
    },
  };
}

/** The contrib extensions the migrations create (booking exclusion constraints, people search). */
export const pgliteOptions = { extensions: { btree_gist, pg_trgm } };

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
