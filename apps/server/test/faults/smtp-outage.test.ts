import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config';
import { retryDelaySeconds, startMailWorker } from '../../src/mail/mail-worker';
import { smtpTransport } from '../../src/mail/transport';
import { type Family, seedFamilies } from '../concurrency/race-support';
import { createTestApp, type TestApp } from '../test-app';
import {
  bookOnePlace,
  type Evening,
  injectPoster,
  leaseProblem,
  outboxState,
  parentsEvening,
  waitFor,
} from './fault-support';
import { type SmtpSink, startSmtpSink } from './smtp-sink';

// The mail outbox (decision 004) against a real SMTP server on a real socket, sent by the app's own worker
// and nodemailer transport, two workers at once as two server processes run them. Booking confirmations
// (with their calendar file) are queued through the API. Each SMTP acceptance is checked against the
// outbox row at that moment: still pending and under a live lease. In the api-soak project (real time,
// run once: on PostgreSQL when TEST_DATABASE_URL is set, else on PGlite).
//
// The outage runs at a tenth of production's time: the workers' backoff is 1, 2, 4 s … (production's
// 10, 20, 40 s), the outage 6 s. What is checked is the order of things (nothing delivered while the
// server is down, every mail once after it, none outside its lease), which the scale does not change.

/** Production's seconds to the test's: the backoff and the outage, a tenth. */
const SCALE = 0.1;
const OUTAGE_MS = 60_000 * SCALE;
const backoff = (attempts: number) => {
  const seconds = retryDelaySeconds(attempts);
  return seconds === null ? null : seconds * SCALE;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

describe('the mail outbox against a real SMTP server', () => {
  let t: TestApp;
  let evening: Evening;
  let families: Family[];
  let nextFamily = 0;
  const sinks: SmtpSink[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    evening = await parentsEvening(t, 'Outbox Academy', 8);
    families = await seedFamilies(t.db, evening.schoolId, 140);
    // The fixture's own mails (the school's signup) are not under test.
    await t.db.updateTable('mail_outbox').set({ status: 'sent' }).execute();
  }, 120_000);

  afterAll(async () => {
    await Promise.all(sinks.map((sink) => sink.close()));
    await t?.close();
  });

  /** `count` more families each book a place: one confirmation mail each, queued with the booking. */
  async function book(count: number): Promise<number> {
    const post = injectPoster(t.app);
    let booked = 0;
    for (const family of families.slice(nextFamily, nextFamily + count)) {
      const attempt = await bookOnePlace(post, evening.eventId, family, evening.slotIds);
      if (attempt?.status === 200) booked += 1;
    }
    nextFamily += count;
    expect(booked).toBe(count);
    return booked;
  }

  const workers = (sink: SmtpSink, leaseSeconds?: number, intervalMs = 1000) => {
    const errors: unknown[] = [];
    const started = ['worker-a', 'worker-b'].map((user) =>
      startMailWorker({
        db: t.db,
        transport: smtpTransport(parseConfig({ NODE_ENV: 'test', SMTP_URL: sink.url(user) })),
        intervalMs,
        onError: (error) => errors.push(error),
        retryDelay: backoff,
        ...(leaseSeconds && { leaseSeconds }),
      }),
    );
    return { errors, stop: () => Promise.all(started.map((worker) => worker.stop())) };
  };

  const duplicatesOf = (sink: SmtpSink) => [...sink.countsById().values()].filter((n) => n > 1).length;

  it('a slow SMTP server outlasting the lease: no mail is sent after its lease ran out, none twice', async () => {
    // An 8 s lease and a server taking 1 s per message: a batch of ten takes 10 s. A worker that kept
    // sending past its lease would meet the other worker, which claims the rest once the lease ends.
    const sink = await startSmtpSink({ acceptDelayMs: 1000, check: (id) => leaseProblem(t.db, id) });
    sinks.push(sink);
    const before = (await outboxState(t.db)).rows.length;
    const queued = await book(20);
    const started = Date.now();
    const running = workers(sink, 8, 200);
    await waitFor('the outbox to drain', async () => (await outboxState(t.db)).pending === 0, 90_000);
    await running.stop(); // every send in flight has ended: nothing more can arrive
    const rows = (await outboxState(t.db)).rows.slice(before);
    const figures = {
      queued,
      delivered: sink.deliveries.length,
      duplicates: duplicatesOf(sink),
      acceptedWithoutLiveLease: sink.deliveries.filter((d) => d.problem).length,
      byWorker: Object.fromEntries(
        ['worker-a', 'worker-b'].map((user) => [user, sink.deliveries.filter((d) => d.user === user).length]),
      ),
      smtpConnections: sink.connections(),
      maxAttempts: Math.max(...rows.map((row) => row.attempts)),
      drainSeconds: (Date.now() - started) / 1000,
    };
    console.info(`SMTP slower than the lease: ${JSON.stringify(figures)}`);
    expect(running.errors).toEqual([]);
    expect(sink.deliveries.filter((d) => d.problem).map((d) => d.problem)).toEqual([]);
    expect(figures.duplicates).toBe(0);
    expect([...sink.countsById().keys()].sort((a, b) => a - b)).toEqual(rows.map((row) => row.id));
    expect(rows.map((row) => row.status)).toEqual(rows.map(() => 'sent'));
    expect(rows).toHaveLength(queued);
    // One pooled connection per worker carries its messages (not one connection per message).
    expect(figures.smtpConnections).toBeLessThan(queued / 2);
  }, 150_000);

  it('SMTP down (60 s at production scale), then back: every mail delivered exactly once, none outside its lease', async () => {
    const sink = await startSmtpSink({ check: (id) => leaseProblem(t.db, id) });
    sinks.push(sink);
    const before = (await outboxState(t.db)).rows.length;
    const running = workers(sink, undefined, 1000 * SCALE);
    // A first batch while SMTP is up; the server goes down right after it, some of it still queued.
    const queuedBefore = await book(40);
    await sink.down();
    const downAt = Date.now();
    const deliveredBeforeOutage = sink.deliveries.length;
    // More families book while SMTP is down: their mails wait in the outbox.
    await sleep(OUTAGE_MS / 4);
    let queuedDuring = await book(30);
    await sleep(downAt + (OUTAGE_MS * 2) / 3 - Date.now());
    queuedDuring += await book(30);
    await sleep(downAt + OUTAGE_MS - Date.now());
    expect(sink.deliveries.length).toBe(deliveredBeforeOutage); // nothing got through while it was down
    await sink.up();
    const upAt = Date.now();
    const queued = queuedBefore + queuedDuring;
    // Every mail's backoff has ended by 4 s after its last failure (1, 2, 4 s): well inside 60 s.
    await waitFor(
      'every mail to be delivered after the outage',
      async () => (await outboxState(t.db)).pending === 0,
      90_000,
    );
    const drainedAt = Date.now();
    await sleep(3_000 * SCALE * 2); // a few more ticks of each worker: nothing is sent again
    await running.stop();

    const outbox = await outboxState(t.db);
    const rows = outbox.rows.slice(before);
    const failedAttempts = rows.reduce((sum, row) => sum + row.attempts - 1, 0);
    const figures = {
      queued: { beforeOutage: queuedBefore, duringOutage: queuedDuring },
      deliveredBeforeOutage,
      delivered: sink.deliveries.length,
      duplicates: duplicatesOf(sink),
      acceptedWithoutLiveLease: sink.deliveries.filter((d) => d.problem).length,
      outageSeconds: (upAt - downAt) / 1000,
      failedAttemptsDuringOutage: failedAttempts,
      mostAttemptsOfOneMail: Math.max(...rows.map((row) => row.attempts)),
      secondsToDrainAfterRecovery: (drainedAt - upAt) / 1000,
      byWorker: Object.fromEntries(
        ['worker-a', 'worker-b'].map((user) => [user, sink.deliveries.filter((d) => d.user === user).length]),
      ),
    };
    console.info(`SMTP down for ${OUTAGE_MS / 1000} s: ${JSON.stringify(figures)}`);
    expect(running.errors).toEqual([]);
    expect(rows).toHaveLength(queued); // one confirmation per booking
    expect(outbox).toMatchObject({ pending: 0, failed: 0 });
    expect(sink.deliveries.filter((d) => d.problem).map((d) => d.problem)).toEqual([]);
    expect(figures.duplicates).toBe(0);
    expect([...sink.countsById().keys()].sort((a, b) => a - b)).toEqual(rows.map((row) => row.id));
    // The outage was felt: mails failed and were retried, and those queued during it came after it.
    expect(failedAttempts).toBeGreaterThanOrEqual(queuedDuring);
    expect(sink.deliveries.slice(deliveredBeforeOutage).every((d) => d.at >= upAt)).toBe(true);
    expect(figures.secondsToDrainAfterRecovery).toBeLessThan(60);
  }, 180_000);
});
