import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../apps/server/src/app';
import { parseConfig } from '../apps/server/src/config';
import { type Db, DEFAULT_POOL_SIZE, openDatabase } from '../apps/server/src/db/database';
import { migrateToLatest } from '../apps/server/src/db/migrate';
import { APP_ROLE } from '../apps/server/src/db/scope';
import type { StatementHook } from '../apps/server/src/db/statement-pool';
import { MemoryStore } from '../apps/server/src/lib/rate-limiter';
import { adminQuery, withDatabase } from '../apps/server/test/global-setup';

// What the benchmarks share: they set up through the real app's inject(), on their own databases, and
// read what a run cost from /proc.

export const PASSWORD = 'benchmark password';

/** Signs a school up, opens its verify link and logs its admin in, all through the API. */
export async function adminToken(app: FastifyInstance, db: Db, email: string): Promise<string> {
  const signup = await app.inject({
    method: 'POST',
    url: '/api/site/signup',
    payload: {
      subscriberName: 'Bench Academy',
      firstName: 'Ben',
      lastName: 'Marks',
      email,
      password: PASSWORD,
    },
  });
  if (signup.statusCode !== 200) throw new Error(`signup failed: ${signup.body}`);
  const mail = await db
    .selectFrom('mail_outbox')
    .select('links')
    .where('to_address', '=', email)
    .executeTakeFirstOrThrow();
  const token = new URL(mail.links[0] ?? '').searchParams.get('token');
  const verify = await app.inject({ method: 'GET', url: `/api/site/verify-school?token=${token}` });
  if (verify.statusCode !== 200) throw new Error(`verify failed: ${verify.body}`);
  const login = await app.inject({
    method: 'POST',
    url: '/api/user/login',
    payload: { email, password: PASSWORD },
  });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  return (login.json() as { accessToken: string }).accessToken;
}

/** The API's answer to a bench's setup call, as `token`'s owner; anything but 200 ends the bench. */
export async function apiCall<T>(
  app: FastifyInstance,
  token: string,
  method: 'GET' | 'POST',
  url: string,
  body?: object,
): Promise<T> {
  const res = await app.inject({
    method,
    url: `/api/${url}`,
    headers: { authorization: `Bearer ${token}` },
    ...(body && { payload: body as Record<string, unknown> }),
  });
  if (res.statusCode !== 200)
    throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  return res.json() as T;
}

/** A bench's database: its name, its URL, and a pool on it (the bench's own, for its setup and checks). */
export type BenchDatabase = { db: Db; name: string; databaseUrl: string };

/**
 * Runs `work` on a migrated database of its own, parley_bench_<random>, made from BENCH_DATABASE_URL or
 * TEST_DATABASE_URL (an admin URL; the local postgres without either), and drops it afterwards, also on
 * failure (BENCH_KEEP_DB=1 keeps it). Servers that work starts must be stopped before it returns.
 */
export async function onBenchDatabase<T>(work: (bench: BenchDatabase) => Promise<T>): Promise<T> {
  const adminUrl =
    process.env.BENCH_DATABASE_URL ??
    process.env.TEST_DATABASE_URL ??
    'postgres://postgres@127.0.0.1:5432/test';
  const name = `parley_bench_${randomBytes(4).toString('hex')}`;
  const databaseUrl = withDatabase(adminUrl, name);
  await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
  const db = openDatabase({ databaseUrl });
  try {
    await migrateToLatest(db);
    return await work({ db, name, databaseUrl });
  } finally {
    await db.destroy();
    if (process.env.BENCH_KEEP_DB === '1') console.log(`kept the database ${name}`);
    else await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

/** CPU time (ms) of each PostgreSQL backend serving one database, by pid, from /proc (empty where none). */
export function postgresBackendsCpu(database: string): Map<number, number> {
  const backends = new Map<number, number>();
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return backends;
  }
  for (const pid of pids) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmdline.startsWith('postgres:') || !cmdline.includes(` ${database} `)) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      backends.set(Number(pid), (Number(fields[11]) + Number(fields[12])) * 10); // utime + stime, USER_HZ 100
    } catch {
      // the process ended meanwhile
    }
  }
  return backends;
}

/**
 * PostgreSQL CPU (ms) spent since a snapshot, backend by backend: a pool's idle connection that closed
 * meanwhile drops out of both sides instead of subtracting all its past CPU from the total.
 */
export function postgresCpuSince(before: Map<number, number>, database: string): number {
  let ms = 0;
  for (const [pid, now] of postgresBackendsCpu(database)) ms += now - (before.get(pid) ?? 0);
  return ms;
}

/** The value at a percentile of ascending samples (NaN when there are none). */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/**
 * CPU time (ms) the whole machine has spent busy since boot, from /proc/stat (0 where there is none): with
 * what a run's own processes spent, it tells how much other work shared the machine meanwhile.
 */
export function machineBusyMs(): number {
  try {
    const fields =
      readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/).slice(1).map(Number) ?? [];
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
    return (user + nice + system + irq + softirq + steal) * 10; // USER_HZ 100
  } catch {
    return 0;
  }
}

/** Ends the benches' server processes (they exit when their IPC channel closes) and waits for them. */
export async function stopServers(children: ChildProcess[]): Promise<void> {
  for (const child of children) child.disconnect();
  await Promise.all(
    children.map(
      (child) =>
        new Promise((resolve) => (child.exitCode !== null ? resolve(0) : child.once('exit', resolve))),
    ),
  );
}

// ── the servers: each bench runs the app and its bare endpoint in child processes of its own script ───

/** What a server child reports: the statements it sent (and the time spent waiting on them) and its CPU. */
export type ServerStats = { queries: number; queryMs: number; cpuUserMs: number; cpuSystemMs: number };

/** A bench's configuration: no page renderer (a worker thread whose CPU would count as the server's). */
export const benchConfig = (logLevel = 'silent') =>
  parseConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: logLevel,
    APP_URL: 'http://parley.bench',
    PAGE_RENDER_WAIT_MS: '0',
  });

/**
 * The connections to PostgreSQL of the app and of every yardstick beside it (a bare endpoint, the floor):
 * the app's default (DATABASE_POOL_SIZE's, decision 027), or BENCH_POOL_SIZE. The same for both sides, so
 * that neither queues for a connection the other would have had.
 */
export const BENCH_POOL_SIZE = Number(process.env.BENCH_POOL_SIZE ?? DEFAULT_POOL_SIZE);

/**
 * The app as main.ts builds it (logger on at logLevel; the child's stdout is /dev/null), on a free port;
 * `onStatement` sees every statement it sends (statement-counter.ts).
 */
export async function listenApp(databaseUrl: string, logLevel: string, onStatement?: StatementHook) {
  const config = benchConfig(logLevel);
  const db = openDatabase({ databaseUrl, poolSize: BENCH_POOL_SIZE, ...(onStatement && { onStatement }) });
  const app = await buildApp({ db, config, rateLimitStore: new MemoryStore() });
  const port = await listenOn(app);
  return {
    port,
    close: async () => {
      await app.close();
      await db.destroy();
    },
  };
}

/** Listens on a free port of the loopback address; returns the port. */
export async function listenOn(app: FastifyInstance): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as { port: number }).port;
}

/**
 * Startup options for a bare endpoint's pool that make each connection work as the app's do (decision
 * 016): as the app's role, under row-level security, in the school's scope, so the comparison is fair.
 */
export const asAppRole = (schoolId: number) => `-c role=${APP_ROLE} -c parley.school=${schoolId}`;

/** A message between a bench and its server child: its type, and what that type carries. */
type Reply = { type: string } & Record<string, unknown>;

/**
 * The child's side: answers `stats` with its CPU and `counted()`, hands any other message to `other`
 * (which answers it), closes on disconnect, and tells the parent its port.
 */
export function serveChild(
  port: number,
  close: () => Promise<void>,
  counted: () => { queries: number; queryMs: number },
  other?: (message: Reply) => Reply | undefined,
): void {
  const send = (message: Reply) => process.send?.(message);
  process.on('message', (message: Reply) => {
    if (message.type === 'stats') {
      const cpu = process.cpuUsage();
      send({ type: 'stats', ...counted(), cpuUserMs: cpu.user / 1000, cpuSystemMs: cpu.system / 1000 });
      return;
    }
    const answer = other?.(message);
    if (answer) send(answer);
  });
  process.on('disconnect', () => void close().then(() => process.exit(0)));
  send({ type: 'listening', port });
}

/** The app, a bare endpoint, or the booking rush's floor (booking-floor.ts). */
export type ServerKind = 'app' | 'bare' | 'floor';

export type ForkedServer = {
  kind: ServerKind;
  port: number;
  child: ChildProcess;
  stats(): Promise<ServerStats>;
  /** Sends a message and resolves with the child's first reply of the type named. */
  ask<T>(message: Reply, answer: string): Promise<T>;
};

/**
 * Forks the bench's own script as `--serve <kind> …args` (under tsx, with a V8 CPU profile when
 * cpuProfDir is given) and resolves once the server listens.
 */
export function forkServer(
  script: string,
  kind: ServerKind,
  args: string[],
  cpuProfDir?: string,
): Promise<ForkedServer> {
  const child = fork(script, ['--serve', kind, ...args], {
    execArgv: ['--import', 'tsx', ...(cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : [])],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  // Every message is answered, so what a message starts in the child has begun before the next request.
  const ask = <T>(message: Reply, answer: string) =>
    new Promise<T>((resolve) => {
      const onMessage = (reply: Reply) => {
        if (reply.type !== answer) return;
        child.off('message', onMessage);
        resolve(reply as T);
      };
      child.on('message', onMessage);
      child.send(message);
    });
  const stats = async () => {
    const { type: _, ...figures } = await ask<Reply & ServerStats>({ type: 'stats' }, 'stats');
    return figures;
  };
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the ${kind} server exited (${code}) before listening`)));
    child.on('message', (message: Reply & { port?: number }) => {
      if (message.type === 'listening') resolve({ kind, port: message.port ?? 0, child, stats, ask });
    });
  });
}
