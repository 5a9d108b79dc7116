import { randomInt, randomUUID } from 'node:crypto';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../src/app';
import { parseConfig } from '../../src/config';
import { HEARTBEAT, openDatabase, watchSessions } from '../../src/db/database';
import { MemoryStore } from '../../src/lib/rate-limiter';
import { EVENT_JOB_STEPS, eventMessageJobOf } from '../../src/modules/events/event-messages.service';
import { JOB_LIMITS, startJob } from '../../src/modules/jobs/jobs.service';
import { issueToken } from '../../src/modules/tokens/tokens.repository';
import {
  doubleBookings,
  type Family,
  findIntegrityViolations,
  seedFamilies,
} from '../concurrency/race-support';
import { PASSWORD, stoppedContext } from '../factories';
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
  parentsEvening,
  silenceableProxy,
  waitFor,
} from './fault-support';
import { type SmtpSink, startSmtpSink } from './smtp-sink';

// Three real server processes (main.ts, as `npm start` runs it) on one fresh PostgreSQL database behind one
// round-robin proxy, as a school with several servers runs them (issue 39): each with its own mail worker
// sending to one real SMTP server, all counting rate limits in one Redis, each reaching PostgreSQL through
// a proxy of its own that can go silent. The booking rush is spread over the three with no double booking;
// every confirmation is sent once, by whichever worker leased it; a login throttle counted on one holds on
// the others; a session revoked on one is refused by every one within 2 s, even one whose listener went
// silent (its heartbeat); a slot freed on one is bookable at once from another. The negative control: a
// process without the heartbeat and a silent listener keeps accepting the revoked session. A message job
// whose process stopped mid-way is finished by one of the three, each recipient mailed once. PostgreSQL only
// (api-soak, which CI runs on it); Redis at REDIS_URL (default redis://127.0.0.1:6379), which CI has:
// without it locally, that test says so and skips.

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const FAMILIES = 120;
const INSTANCES = ['instance-1', 'instance-2', 'instance-3'];
/** Within this of a revoke, every process refuses the session (issue 39). */
const REVOKED_WITHIN_MS = 2000;

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

/** One address in front of the processes, handing each request to the next in turn (a load balancer). */
async function roundRobin(upstreams: string[]) {
  let next = 0;
  const served = upstreams.map(() => 0);
  const server: Server = createServer((request, response) => {
    const index = next++ % upstreams.length;
    served[index] = (served[index] ?? 0) + 1;
    const forwarded = httpRequest(
      new URL(request.url ?? '/', upstreams[index]),
      { method: request.method, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded.on('error', () => response.writeHead(502).end());
    request.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    served,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Milliseconds until `refused` holds, polled every 20 ms, or undefined when it does not within `ms`. */
async function msUntil(refused: () => Promise<boolean>, ms: number): Promise<number | undefined> {
  const start = Date.now();
  while (Date.now() - start <= ms) {
    if (await refused()) return Date.now() - start;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return undefined;
}

describe.runIf(process.env.TEST_DB === 'pg')(
  'three server processes behind one proxy, on one PostgreSQL',
  () => {
    let t: TestApp;
    let evening: Evening;
    let families: Family[];
    /** Two families kept out of the rush, for the slot freed on one process. */
    let spare: [Family, Family];
    let sink: SmtpSink;
    let redis: Redis | undefined;
    let databaseUrl: string;
    const servers: ServerProcess[] = [];
    /** Each process's own way to PostgreSQL, which can go silent. */
    const pgProxies: Awaited<ReturnType<typeof silenceableProxy>>[] = [];
    let front: Awaited<ReturnType<typeof roundRobin>>;

    beforeAll(async () => {
      t = await createTestApp();
      evening = await parentsEvening(t, 'Triplet Academy', 8);
      const seeded = await seedFamilies(t.db, evening.schoolId, FAMILIES + 2);
      families = seeded.slice(0, FAMILIES);
      spare = seeded.slice(FAMILIES) as [Family, Family];
      // The fixture's own mails (the school's signup) are not under test.
      await t.db.updateTable('mail_outbox').set({ status: 'sent' }).execute();
      const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(t.db);
      databaseUrl = withDatabase(inject('pgAdminUrl'), rows[0]?.name ?? '');
      sink = await startSmtpSink({ acceptDelayMs: 20, check: (id) => leaseProblem(t.db, id) });
      redis = await reachableRedis(REDIS_URL);
      pgProxies.push(...(await Promise.all(INSTANCES.map(() => silenceableProxy(new URL(databaseUrl))))));
      servers.push(
        ...(await Promise.all(
          INSTANCES.map((user, index) =>
            // Each stands behind a proxy on this host (the test's requests), as TRUST_PROXY says.
            startServer({
              databaseUrl: pgProxies[index]?.url,
              SMTP_URL: sink.url(user),
              REDIS_URL: redis ? REDIS_URL : '',
              TRUST_PROXY: '127.0.0.1',
            }),
          ),
        )),
      );
      front = await roundRobin(servers.map((server) => server.url));
    }, 180_000);

    afterAll(async () => {
      await front?.close();
      await Promise.all(servers.map((server) => server.stop()));
      await Promise.all(pgProxies.map((proxy) => proxy.close()));
      await sink?.close();
      redis?.disconnect();
      await t?.close();
    });

    /** A new session of a spare family's parent, and whether a process accepts it. */
    const newSession = async () => {
      const token = await issueToken(t.db, {
        userId: spare[1].parentId,
        schoolId: evening.schoolId,
        kind: 'access',
      });
      const accepted = async (baseUrl: string) =>
        (await fetch(`${baseUrl}/api/users/data`, { headers: { authorization: `Bearer ${token}` } }))
          .status === 200;
      const logOut = async (baseUrl: string) =>
        (
          await fetch(`${baseUrl}/api/user/logout`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}` },
          })
        ).status;
      return { accepted, logOut };
    };

    it('spreads the booking rush over the three: no double booking, each confirmation sent once', async () => {
      const before = (await outboxState(t.db)).rows.length;
      const servedBefore = [...front.served];
      const log: Attempt[] = [];
      // Through the one address, twelve families at a time: the proxy hands the requests round.
      await inParallel(families, 12, (family) =>
        bookOnePlace(httpPoster(front.url), evening.eventId, family, evening.slotIds, { log }),
      );
      const booked = log.filter((attempt) => attempt.status === 200).length;
      await waitFor(
        'the workers to drain the outbox',
        async () => (await outboxState(t.db)).pending === 0,
        90_000,
      );
      await new Promise((resolve) => setTimeout(resolve, 3_000)); // three more ticks of each worker
      const rows = (await outboxState(t.db)).rows.slice(before);
      const counts = sink.countsById();
      const report = await findIntegrityViolations(t.db, [evening.eventId]);
      const figures = {
        processes: servers.length,
        requestsPerProcess: front.served.map((count, index) => count - (servedBefore[index] ?? 0)),
        bookings: booked,
        doubleBookings: doubleBookings(report),
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
      console.info(`three processes, one rush, one outbox: ${JSON.stringify(figures)}`);
      expect(booked).toBe(FAMILIES);
      expect(figures.doubleBookings).toBe(0);
      expect(log.filter((attempt) => attempt.status >= 500 || attempt.status === 0)).toEqual([]);
      // The rush was spread: each process answered a good share of it.
      for (const count of figures.requestsPerProcess) expect(count).toBeGreaterThan(FAMILIES / 6);
      expect(rows).toHaveLength(FAMILIES); // one confirmation per booking
      expect(rows.map((row) => row.status)).toEqual(rows.map(() => 'sent'));
      expect(sink.deliveries.filter((d) => d.problem).map((d) => d.problem)).toEqual([]);
      expect(figures.duplicates).toBe(0);
      expect([...counts.keys()].sort((a, b) => a - b)).toEqual(rows.map((row) => row.id));
      // Every worker took part: the outbox was shared, not drained by one of them alone.
      for (const user of INSTANCES) expect(figures.sentBy[user]).toBeGreaterThan(0);
      for (const server of servers) expect(server.output()).not.toMatch(/"level":(50|60)|uncaught/i);
    }, 180_000);

    it('a login throttle counted on one process holds on the others (rate limits in Redis)', async (context) => {
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
      const [one, two, three] = servers as [ServerProcess, ServerProcess, ServerProcess];
      // Five wrong passwords from one address, taking turns on the processes: each is checked (422).
      const wrong: number[] = [];
      for (let i = 0; i < 5; i++)
        wrong.push((await login(servers[i % 3] as ServerProcess, 'not the password')).status);
      const sixth = await login(three, 'not the password');
      const rightButHeld = await login(two, PASSWORD);
      const counted = await redis.get(`parley:rl:login-fail-pair:${ip}|${email}`);
      const elsewhere = await login(one, PASSWORD, randomIp());

      // The control: a fourth process counting in its own memory has seen none of the five.
      const alone = await startServer({ databaseUrl, SMTP_URL: sink.url('instance-4'), REDIS_URL: '' });
      const aloneSixth = await login(alone, 'not the password').finally(() => alone.stop());

      const figures = {
        wrongPasswords: wrong,
        sixthOnAnotherProcess: sixth,
        rightPasswordFromThatAddress: rightButHeld.status,
        countInRedis: counted,
        rightPasswordFromAnotherAddress: elsewhere.status,
        sixthOnProcessWithoutRedis: aloneSixth.status,
      };
      console.info(`rate limits shared through Redis: ${JSON.stringify(figures)}`);
      expect(wrong).toEqual([422, 422, 422, 422, 422]);
      expect(sixth.status).toBe(429);
      expect(Number(sixth.retryAfter)).toBeGreaterThan(0);
      expect(rightButHeld.status).toBe(429); // the pair waits, whichever process it asks
      expect(counted).toBe('5');
      expect(elsewhere.status).toBe(200); // the throttle is the address's, not a lock on the account
      expect(aloneSixth.status).toBe(422);
    }, 120_000);

    it('a session revoked on one process is refused by every process within 2 s, one with a silent listener too', async () => {
      const { accepted, logOut } = await newSession();
      // Each process has read the session and keeps it.
      for (const server of servers) expect(await accepted(server.url)).toBe(true);
      for (const server of servers) expect(await accepted(server.url)).toBe(true);
      // The third process's listener goes silent (its queries still pass): it cannot hear the revoke.
      pgProxies[2]?.silence('listener');
      expect(await logOut((servers[0] as ServerProcess).url)).toBe(200);
      const refusedAfter = await Promise.all(
        servers.map((server) => msUntil(async () => !(await accepted(server.url)), 10_000)),
      );
      console.info(
        `a revoked session, refused after ${JSON.stringify(refusedAfter)} ms by each process (the third's ` +
          `listener silent: heartbeat every ${HEARTBEAT.everyMs} ms, echo within ${HEARTBEAT.echoWithinMs} ms)`,
      );
      for (const ms of refusedAfter) expect(ms).toBeLessThan(REVOKED_WITHIN_MS);
      // It stays refused, and the third process has not failed a request meanwhile.
      for (const server of servers) expect(await accepted(server.url)).toBe(false);
    }, 60_000);

    it('negative control: a process without the heartbeat, its listener silent, keeps accepting the revoked session', async () => {
      const proxy = await silenceableProxy(new URL(databaseUrl));
      const db = openDatabase({ databaseUrl: proxy.url, heartbeat: false });
      const app = await buildApp({
        db,
        config: parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PAGE_RENDER_WAIT_MS: '0' }),
        logger: false,
        rateLimitStore: new MemoryStore(),
      });
      try {
        const address = await app.listen({ port: 0, host: '127.0.0.1' });
        // Its listener hears (so the process keeps the sessions it reads) before the session is used.
        let hearing = false;
        watchSessions(db, { changed: () => {}, hearing: (all) => (hearing = all) });
        await waitFor('the listener', () => hearing, 5000, 20);
        const { accepted, logOut } = await newSession();
        expect(await accepted(address)).toBe(true);
        expect(await accepted(address)).toBe(true);
        proxy.silence('listener');
        expect(await logOut((servers[0] as ServerProcess).url)).toBe(200);
        const refusedAfter = await msUntil(async () => !(await accepted(address)), REVOKED_WITHIN_MS + 1000);
        console.info(
          `negative control (no heartbeat, silent listener): the revoked session ${
            refusedAfter === undefined
              ? `still accepted ${REVOKED_WITHIN_MS + 1000} ms later`
              : `refused after ${refusedAfter} ms`
          }`,
        );
        expect(refusedAfter).toBeUndefined();
      } finally {
        await app.close();
        await db.destroy();
        await proxy.close();
      }
    }, 60_000);

    it('a message job its process dropped is taken up by one of the others: each recipient mailed once', async () => {
      const admin = await t.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', evening.adminEmail)
        .executeTakeFirstOrThrow();
      const added = await httpPoster(front.url)(
        `events/add-recipients?eventId=${evening.eventId}&saveme=1`,
        evening.adminToken,
        { all: 'parents' },
      );
      expect(added.status).toBe(200);
      const before = (await outboxState(t.db)).rows.length;
      // Started by a process that answered and stopped: the first ten sent, its lease still running.
      const create = eventMessageJobOf(evening.schoolId, evening.eventId, 'reminder', 'all', {
        userId: admin.id,
        schoolId: evening.schoolId,
        roles: ['admin'],
        ip: null,
        userAgent: null,
      });
      const started = await startJob(stoppedContext(t), create, EVENT_JOB_STEPS['event-message'], {
        ...JOB_LIMITS,
        inline: 10,
      });
      expect(started).toMatchObject({ status: 'running', done: 10 });
      const job = () =>
        t.db
          .selectFrom('jobs')
          .selectAll()
          .where('id', '=', started?.id ?? 0)
          .executeTakeFirstOrThrow();
      // Its lease runs out (60 s, not waited for here): the three processes' job workers look every 5 s.
      await sql`update jobs set locked_until = now() - interval '1 second' where id = ${started?.id}`.execute(
        t.db,
      );
      await waitFor('a process to finish the job', async () => (await job()).status === 'done', 30_000);
      const mails = (await outboxState(t.db)).rows.slice(before);
      const addressed = await t.db
        .selectFrom('mail_outbox')
        .select('to_address')
        .where('id', 'in', mails.length ? mails.map((row) => row.id) : [0])
        .where('subject', 'like', 'Reminder%')
        .execute();
      const figures = {
        recipients: (added.body as { added: number }).added,
        job: await job(),
        mails: addressed.length,
        people: new Set(addressed.map((row) => row.to_address)).size,
      };
      console.info(
        `a dropped job, taken up: ${JSON.stringify({ ...figures, job: undefined, claims: figures.job.claims })}`,
      );
      expect(figures.job).toMatchObject({ done: figures.recipients, total: figures.recipients, claims: 2 });
      expect(figures.mails).toBe(figures.recipients);
      expect(figures.people).toBe(figures.recipients);
    }, 60_000);

    it('a slot freed on one process is bookable at once from another', async () => {
      const [first, second] = spare;
      const post = (server: number) => httpPoster((servers[server] as ServerProcess).url);
      const book = (server: number, family: Family, slotId: number) =>
        post(server)(`events/update-slot-for-booking?id=${evening.eventId}`, family.token, {
          items: [{ slotId, studentId: family.studentId }],
          idempotencyKey: randomUUID(),
        });
      // A slot no family has taken (the rush left some), booked by the first family on process 1.
      const taken = await t.db
        .selectFrom('bookings')
        .select('slot_id')
        .where('event_id', '=', evening.eventId)
        .where('status', '=', 'booked')
        .execute();
      const slotId = evening.slotIds.find((id) => !taken.some((row) => row.slot_id === id)) as number;
      const booked = await book(0, first, slotId);
      expect(booked.status).toBe(200);
      // Process 2 finds it full (and keeps that as a hint).
      expect((await book(1, second, slotId)).status).toBe(409);
      // Cancelled on process 3, then booked at once on process 2.
      const bookingId = (booked.body.created as number[])[0];
      expect(
        (await post(2)(`events/remove-booking?eventId=${evening.eventId}`, first.token, { bookingId }))
          .status,
      ).toBe(200);
      expect((await book(1, second, slotId)).status).toBe(200);
    }, 60_000);
  },
);
