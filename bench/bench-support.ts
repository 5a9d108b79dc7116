import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../apps/server/src/db/database';

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
