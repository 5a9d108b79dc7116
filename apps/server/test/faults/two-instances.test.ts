import { randomInt } from 'node:crypto';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Family, seedFamilies } from '../concurrency/race-support';
import { PASSWORD } from '../factories';
import { withDatabase } from '../global-setup';
import { type ServerProcess, startServer } from '../server-process';
import { createTestApp, type TestApp } from '../test-app';
import {
  type Attempt,
  bookOnePlace,
  type Evening,
  httpPoster,
  inParallel,
  leaseProblem,
  outboxState,
  type Poster,
  parentsEvening,
  waitFor,
} from './fault-support';
import { type SmtpSink, startSmtpSink } from './smtp-sink';

// Two real server processes (main.ts, as `npm start` runs it) on one fresh PostgreSQL database, each with
// its own mail worker sending to one real SMTP server, and both counting rate limits in one Redis. Families
// book through either instance; every confirmation is sent once, by whichever worker leased it. A login
// throttle counted on one instance holds on the other. PostgreSQL only (api-pg, which CI runs); Redis at
// REDIS_URL (default redis://127.0.0.1:6379), which CI has: without it locally, that test says so and skips.

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const FAMILIES = 120;
const INSTANCES = ['instance-1', 'instance-2'];

/** A client to REDIS_URL, or undefined when nothing answers there within a second. */
async function reachableRedis(url: string): Promise<Redis | undefined> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 1000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
    return redis;
  } catch {
    redis.disconnect();
    return undefined;
  }
}

/** An address of this run only (the limits' keys in Redis outlive a run by up to 30 days). */
const randomIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

describe.runIf(process.env.TEST_DB === 'pg')('two API instances against one PostgreSQL', () => {
  let t: TestApp;
  let evening: Evening;
  let families: Family[];
  let sink: SmtpSink;
  let redis: Redis | undefined;
  let databaseUrl: string;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    evening = await parentsEvening(t, 'Twin Academy', 8);
    families = await seedFamilies(t.db, evening.schoolId, FAMILIES);
    // The fixture's own mails (the school's signup) are not under test.
    await t.db.updateTable('mail_outbox').set({ status: 'sent' }).execute();
    const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(t.db);
    databaseUrl = withDatabase(inject('pgAdminUrl'), rows[0]?.name ?? '');
    sink = await startSmtpSink({ acceptDelayMs: 20, check: (id) => leaseProblem(t.db, id) });
    redis = await reachableRedis(REDIS_URL);
    servers.push(
      ...(await Promise.all(
        INSTANCES.map((user) =>
          // Each stands behind a proxy on this host (the test's requests), as TRUST_PROXY says.
          startServer({
            databaseUrl,
            SMTP_URL: sink.url(user),
            REDIS_URL: redis ? REDIS_URL : '',
            TRUST_PROXY: '127.0.0.1',
          }),
        ),
      )),
    );
  }, 180_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await sink?.close();
    redis?.disconnect();
    await t?.close();
  });

  it('each outbox mail is sent once, whichever instance’s worker leased it', async () => {
    const before = (await outboxState(t.db)).rows.length;
    const log: Attempt[] = [];
    const posters = servers.map((server) => httpPoster(server.url));
    // Families alternate between the instances, twelve at a time.
    await inParallel(
      families.map((family, index) => ({ family, post: posters[index % posters.length] as Poster })),
      12,
      ({ family, post }) => bookOnePlace(post, evening.eventId, family, evening.slotIds, { log }),
    );
    const booked = log.filter((attempt) => attempt.status === 200).length;
    await waitFor(
      'both workers to drain the outbox',
      async () => (await outboxState(t.db)).pending === 0,
      90_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 3_000)); // three more ticks of each worker
    const rows = (await outboxState(t.db)).rows.slice(before);
    const counts = sink.countsById();
    const figures = {
      instances: servers.length,
      bookings: booked,
      statuses: Object.fromEntries(
        [...new Set(log.map((a) => a.status))].map((s) => [s, log.filter((a) => a.status === s).length]),
      ),
      mailsQueued: rows.length,
      delivered: sink.deliveries.length,
      duplicates: [...counts.values()].filter((n) => n > 1).length,
      acceptedWithoutLiveLease: sink.deliveries.filter((d) => d.problem).length,
      sentBy: Object.fromEntries(
        INSTANCES.map((user) => [user, sink.deliveries.filter((d) => d.user === user).length]),
      ),
    };
    console.info(`two instances, one outbox: ${JSON.stringify(figures)}`);
    expect(booked).toBe(FAMILIES);
    expect(rows).toHaveLength(FAMILIES); // one confirmation per booking
    expect(rows.map((row) => row.status)).toEqual(rows.map(() => 'sent'));
    expect(sink.deliveries.filter((d) => d.problem).map((d) => d.problem)).toEqual([]);
    expect(figures.duplicates).toBe(0);
    expect([...counts.keys()].sort((a, b) => a - b)).toEqual(rows.map((row) => row.id));
    // Both workers took part: the outbox was shared, not drained by one of them alone.
    for (const user of INSTANCES) expect(figures.sentBy[user]).toBeGreaterThan(0);
    for (const server of servers) expect(server.output()).not.toMatch(/"level":(50|60)|uncaught/i);
  }, 180_000);

  it('a login throttle counted on one instance holds on the other (rate limits in Redis)', async (context) => {
    if (!redis) {
      if (process.env.CI) throw new Error(`Redis is not reachable at ${REDIS_URL}: CI must provide it`);
      console.warn(`SKIPPED: no Redis at ${REDIS_URL}; the shared rate limit test needs one`);
      context.skip();
      return;
    }
    const ip = randomIp();
    const email = evening.adminEmail;
    const login = async (server: ServerProcess, password: string, from = ip) => {
      const response = await fetch(`${server.url}/api/user/login`, {
        method: 'POST',
        // Each instance trusts X-Forwarded-For from 127.0.0.1 (TRUST_PROXY): the address of the family.
        headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
        body: JSON.stringify({ email, password }),
      });
      return { status: response.status, retryAfter: response.headers.get('retry-after') };
    };
    const [one, two] = servers as [ServerProcess, ServerProcess];
    // Five wrong passwords from one address, alternating between the instances: each is checked (422).
    const wrong: number[] = [];
    for (let i = 0; i < 5; i++) wrong.push((await login(i % 2 === 0 ? one : two, 'not the password')).status);
    const sixth = await login(two, 'not the password');
    const rightButHeld = await login(two, PASSWORD);
    const counted = await redis.get(`parley:rl:login-fail-pair:${ip}|${email}`);
    const elsewhere = await login(one, PASSWORD, randomIp());

    // The control: a third instance counting in its own memory has seen none of the five.
    const alone = await startServer({ databaseUrl, SMTP_URL: sink.url('instance-3'), REDIS_URL: '' });
    const aloneSixth = await login(alone, 'not the password').finally(() => alone.stop());

    const figures = {
      wrongPasswords: wrong,
      sixthOnOtherInstance: sixth,
      rightPasswordFromThatAddress: rightButHeld.status,
      countInRedis: counted,
      rightPasswordFromAnotherAddress: elsewhere.status,
      sixthOnInstanceWithoutRedis: aloneSixth.status,
    };
    console.info(`rate limits shared through Redis: ${JSON.stringify(figures)}`);
    expect(wrong).toEqual([422, 422, 422, 422, 422]);
    expect(sixth.status).toBe(429);
    expect(Number(sixth.retryAfter)).toBeGreaterThan(0);
    expect(rightButHeld.status).toBe(429); // the pair waits, whichever instance it asks
    expect(counted).toBe('5');
    expect(elsewhere.status).toBe(200); // the throttle is the address's, not a lock on the account
    expect(aloneSixth.status).toBe(422);
  }, 120_000);
});
