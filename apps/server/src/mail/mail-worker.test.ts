import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../test/test-db';
import type { Db } from '../db/database';
import type { MailMessage } from './mail-message';
import { retryDelaySeconds, sendDueMail, startMailWorker } from './mail-worker';
import { claimDueMail, enqueueMail, enqueueMails, markFailedAttempt } from './outbox.repository';
import type { MailTransport } from './transport';

describe('retryDelaySeconds', () => {
  it('doubles from 10 s, caps at 30 minutes and gives up at the 12th attempt', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map(retryDelaySeconds)).toEqual([10, 20, 40, 80, 160, 320, 640, 1280]);
    expect(retryDelaySeconds(9)).toBe(1800);
    expect(retryDelaySeconds(11)).toBe(1800);
    expect(retryDelaySeconds(12)).toBeNull();
    expect(retryDelaySeconds(50)).toBeNull();
    // Eleven waits in all before the mail is marked failed: a bit over two hours of SMTP outage is survived.
    const total = Array.from({ length: 11 }, (_, i) => retryDelaySeconds(i + 1) ?? 0).reduce((a, b) => a + b);
    expect(total).toBe(7950);
  });
});

/** A stand-in for SMTP: can be down, slow or flaky; records every message it accepted. */
function fakeSmtp() {
  const accepted: MailMessage[] = [];
  const state = { down: false, delayMs: 0, failEvery: 0, calls: 0, closed: 0, hang: false };
  const transport: MailTransport = {
    async send(message, signal) {
      state.calls += 1;
      if (state.delayMs) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
      // A server that never answers: only the worker's signal ends the send.
      if (state.hang)
        await new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason)));
      if (state.down) throw new Error('connect ECONNREFUSED 127.0.0.1:587');
      if (state.failEvery && state.calls % state.failEvery === 0) throw new Error('421 try again later');
      accepted.push(message);
    },
    close() {
      state.closed += 1;
    },
  };
  /** How many times each outbox id was handed to SMTP successfully. */
  const sendsById = () => {
    const counts = new Map<number, number>();
    for (const message of accepted) {
      const id = Number(/^<outbox-(\d+)@parley>$/.exec(message.messageId)?.[1]);
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    return counts;
  };
  return { transport, state, accepted, sendsById };
}

describe('sendDueMail', () => {
  let testDb: TestDb;
  let db: Db;
  beforeAll(async () => {
    testDb = await createTestDb();
    db = testDb.db;
  });
  afterAll(() => testDb.close());
  beforeEach(async () => {
    await db.deleteFrom('mail_outbox').execute();
  });

  async function enqueue(count: number): Promise<number[]> {
    for (let i = 0; i < count; i++) {
      await enqueueMail(db, {
        schoolId: null,
        to: `person${i}@example.org`,
        subject: `Subject ${i}`,
        text: `Text ${i}`,
        html: `<p>Html ${i}</p>`,
        links: [`http://parley.test/auth/reset-password?token=t${i}`],
      });
    }
    const rows = await db.selectFrom('mail_outbox').select('id').orderBy('id').execute();
    return rows.map((row) => row.id);
  }

  /** Time passes: every pending mail's backoff is over. */
  const makeDue = () =>
    db
      .updateTable('mail_outbox')
      .set({ next_attempt_at: sql`now() - interval '1 second'` })
      .where('status', '=', 'pending')
      .execute();
  const rows = () => db.selectFrom('mail_outbox').selectAll().orderBy('id').execute();

  it('hands SMTP the stored message with a stable Message-ID and marks it sent', async () => {
    const [id] = await enqueue(1);
    const smtp = fakeSmtp();
    expect(await sendDueMail(db, smtp.transport)).toBe(1);
    expect(smtp.accepted).toEqual([
      {
        to: 'person0@example.org',
        subject: 'Subject 0',
        text: 'Text 0',
        html: '<p>Html 0</p>',
        messageId: `<outbox-${id}@parley>`,
        links: ['http://parley.test/auth/reset-password?token=t0'],
        attachments: [],
      },
    ]);
    const [row] = await rows();
    expect(row).toMatchObject({ status: 'sent', attempts: 1, locked_until: null, last_error: null });
    expect(row?.sent_at).toBeInstanceOf(Date);
  });

  it('hands SMTP the attachments stored with the mail, content unchanged (also when enqueued in bulk)', async () => {
    const ics = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'METHOD:PUBLISH',
      'BEGIN:VEVENT',
      'SUMMARY:Parents’ evening with Mr Ó Súilleabháin',
      'DTSTART:20260312T200000Z',
      'DTEND:20260312T201000Z',
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ].join('\r\n');
    const calendar = { filename: 'parents-evening.ics', contentType: 'text/calendar', content: ics };
    const notes = { filename: 'notes.txt', contentType: 'text/plain', content: 'Bring the report.' };
    const mail = {
      schoolId: null,
      subject: 'Your booking',
      text: 'See you there.',
      html: '<p>See you there.</p>',
      links: [],
    };
    await enqueueMail(db, { ...mail, to: 'one@example.org', attachments: [calendar, notes] });
    await enqueueMails(db, [
      { ...mail, to: 'two@example.org', attachments: [calendar] },
      { ...mail, to: 'three@example.org' },
    ]);
    const smtp = fakeSmtp();
    expect(await sendDueMail(db, smtp.transport)).toBe(3);
    const attachmentsTo = new Map(smtp.accepted.map((message) => [message.to, message.attachments]));
    expect(Object.fromEntries(attachmentsTo)).toEqual({
      'one@example.org': [calendar, notes],
      'two@example.org': [calendar],
      'three@example.org': [],
    });
  });

  it('SMTP down for a while: nothing is lost, nothing is sent twice, backoff is respected', async () => {
    const ids = await enqueue(25); // more than one batch of 10
    const smtp = fakeSmtp();
    smtp.state.down = true;

    expect(await sendDueMail(db, smtp.transport)).toBe(0);
    let all = await rows();
    expect(all.every((row) => row.status === 'pending' && row.attempts === 1)).toBe(true);
    expect(all[0]?.last_error).toBe('connect ECONNREFUSED 127.0.0.1:587');
    expect(all[0]?.locked_until).toBeNull();
    const waitMs = (all[0]?.next_attempt_at.getTime() ?? 0) - Date.now();
    expect(waitMs).toBeGreaterThan(5_000);
    expect(waitMs).toBeLessThan(15_000);

    // Not due yet: an immediate second pass leaves them alone.
    const callsBefore = smtp.state.calls;
    expect(await sendDueMail(db, smtp.transport)).toBe(0);
    expect(smtp.state.calls).toBe(callsBefore);

    await makeDue();
    expect(await sendDueMail(db, smtp.transport)).toBe(0);
    all = await rows();
    expect(all.every((row) => row.status === 'pending' && row.attempts === 2)).toBe(true);

    smtp.state.down = false; // SMTP is back
    await makeDue();
    expect(await sendDueMail(db, smtp.transport)).toBe(25);
    await makeDue();
    expect(await sendDueMail(db, smtp.transport)).toBe(0);

    all = await rows();
    expect(all.every((row) => row.status === 'sent' && row.attempts === 3 && row.last_error === null)).toBe(
      true,
    );
    const sends = smtp.sendsById();
    expect([...sends.keys()].sort((a, b) => a - b)).toEqual(ids);
    expect([...sends.values()].every((n) => n === 1)).toBe(true);
  });

  it('a flaky SMTP (every third send fails) still delivers each mail exactly once over several passes', async () => {
    const ids = await enqueue(17);
    const smtp = fakeSmtp();
    smtp.state.failEvery = 3;
    let passes = 0;
    while ((await rows()).some((row) => row.status === 'pending') && passes < 10) {
      await sendDueMail(db, smtp.transport);
      await makeDue();
      passes += 1;
    }
    expect(passes).toBeGreaterThan(1);
    const sends = smtp.sendsById();
    expect([...sends.keys()].sort((a, b) => a - b)).toEqual(ids);
    expect([...sends.values()].every((n) => n === 1)).toBe(true);
    expect((await rows()).every((row) => row.status === 'sent')).toBe(true);
  });

  it('two concurrent passes never send the same row', async () => {
    const ids = await enqueue(30);
    const smtp = fakeSmtp();
    smtp.state.delayMs = 5; // slow enough that both passes are in flight together
    const [a, b] = await Promise.all([sendDueMail(db, smtp.transport), sendDueMail(db, smtp.transport)]);
    expect(a + b).toBe(30);
    const sends = smtp.sendsById();
    expect(sends.size).toBe(ids.length);
    expect([...sends.values()].every((n) => n === 1)).toBe(true);
  });

  it('a row leased by another run is skipped until its lease ends', async () => {
    const [leasedId, freeId] = await enqueue(2);
    // Another worker leases the first row (and is, say, still talking to SMTP).
    const leased = await claimDueMail(db, 1, 120);
    expect(leased.map((row) => row.id)).toEqual([leasedId]);

    const smtp = fakeSmtp();
    expect(await sendDueMail(db, smtp.transport)).toBe(1);
    expect(smtp.accepted.map((m) => m.messageId)).toEqual([`<outbox-${freeId}@parley>`]);

    // That worker died: once the lease is over, the row is picked up again (once).
    await db
      .updateTable('mail_outbox')
      .set({ locked_until: sql`now() - interval '1 second'` })
      .where('id', '=', leasedId ?? 0)
      .execute();
    expect(await sendDueMail(db, smtp.transport)).toBe(1);
    expect(await sendDueMail(db, smtp.transport)).toBe(0);
    expect(smtp.accepted.map((m) => m.messageId)).toEqual([
      `<outbox-${freeId}@parley>`,
      `<outbox-${leasedId}@parley>`,
    ]);
  });

  it('a batch outlasting its lease: the rest goes back uncounted before the lease ends, each mail sent once', async () => {
    const ids = await enqueue(6);
    const smtp = fakeSmtp();
    smtp.state.delayMs = 300; // a 1 s lease covers three sends of 300 ms, not six
    // As each send ends (SMTP accepts), the row is still under a live lease.
    const unleased: string[] = [];
    const checked: MailTransport = {
      async send(message, signal) {
        await smtp.transport.send(message, signal);
        const { rows: leased } = await sql<{ live: boolean }>`
          select locked_until > now() as live from mail_outbox
          where id = ${Number(/\d+/.exec(message.messageId)?.[0])}`.execute(db);
        if (!leased[0]?.live) unleased.push(message.messageId);
      },
      close() {},
    };
    expect(await sendDueMail(db, checked, 1)).toBe(6);
    expect(unleased).toEqual([]);
    const sends = smtp.sendsById();
    expect([...sends.keys()].sort((a, b) => a - b)).toEqual(ids);
    expect([...sends.values()].every((n) => n === 1)).toBe(true);
    // Given back, not failed: no mail lost an attempt to the lease running out.
    expect((await rows()).map((row) => [row.status, row.attempts])).toEqual(ids.map(() => ['sent', 1]));
  });

  it('a send still running near the end of its lease is cut off and counted as a failed attempt', async () => {
    const [id] = await enqueue(1);
    const smtp = fakeSmtp();
    smtp.state.hang = true;
    const started = performance.now();
    let cutOffAfterMs = 0;
    const timed: MailTransport = {
      send: (message, signal) => {
        signal?.addEventListener('abort', () => {
          cutOffAfterMs = performance.now() - started;
        });
        return smtp.transport.send(message, signal);
      },
      close() {},
    };
    expect(await sendDueMail(db, timed, 1)).toBe(0);
    expect(cutOffAfterMs).toBeGreaterThan(0);
    expect(cutOffAfterMs).toBeLessThan(1000); // before the 1 s lease ended
    const [row] = await rows();
    expect(row).toMatchObject({ id, status: 'pending', attempts: 1, locked_until: null });
    expect(row?.last_error).toMatch(/timeout|abort/i);
  });

  it('a failure reported under a lease that ran out changes nothing: a mail sent since is not sent again', async () => {
    const [id = 0] = await enqueue(1);
    // A worker leases the row and stalls past its lease; another worker leases it anew and sends it.
    const [stale] = await claimDueMail(db, 1, 120);
    await db.updateTable('mail_outbox').set({ locked_until: sql`now() - interval '1 second'` }).execute();
    const smtp = fakeSmtp();
    expect(await sendDueMail(db, smtp.transport)).toBe(1);
    // The first worker's send fails at last: the row stays sent, so no pass sends it again.
    await markFailedAttempt(
      db,
      { id, attempts: stale?.attempts ?? 0 },
      { error: 'timeout', retryInSeconds: 10 },
    );
    const [row] = await rows();
    expect(row).toMatchObject({ status: 'sent', attempts: 2, last_error: null });
    await makeDue();
    expect(await sendDueMail(db, smtp.transport)).toBe(0);
    expect(smtp.accepted).toHaveLength(1);
  });

  it('gives up after the last attempt: the mail is marked failed and left alone', async () => {
    const [id] = await enqueue(1);
    await db
      .updateTable('mail_outbox')
      .set({ attempts: 11 })
      .where('id', '=', id ?? 0)
      .execute();
    const smtp = fakeSmtp();
    smtp.state.down = true;
    expect(await sendDueMail(db, smtp.transport)).toBe(0);
    const [row] = await rows();
    expect(row).toMatchObject({ status: 'failed', attempts: 12 });
    smtp.state.down = false;
    await db.updateTable('mail_outbox').set({ next_attempt_at: sql`now() - interval '1 day'` }).execute();
    expect(await sendDueMail(db, smtp.transport)).toBe(0);
    expect(smtp.accepted).toEqual([]);
  });

  it('startMailWorker polls until stopped, then closes the transport', async () => {
    await enqueue(3);
    const smtp = fakeSmtp();
    const errors: unknown[] = [];
    const worker = startMailWorker({
      db,
      transport: smtp.transport,
      intervalMs: 10,
      onError: (e) => errors.push(e),
    });
    for (let i = 0; i < 200 && smtp.accepted.length < 3; i++) await new Promise((r) => setTimeout(r, 10));
    await enqueue(1); // arrives while the worker is running
    for (let i = 0; i < 200 && smtp.accepted.length < 4; i++) await new Promise((r) => setTimeout(r, 10));
    await worker.stop();
    expect(smtp.accepted).toHaveLength(4);
    expect(smtp.state.closed).toBe(1);
    expect(errors).toEqual([]);
  });

  it('startMailWorker reports a failed pass (database down) and keeps polling', async () => {
    let calls = 0;
    const brokenDb = {
      updateTable() {
        calls += 1;
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
      },
      selectFrom() {
        throw new Error('unreachable');
      },
    } as unknown as Db;
    const errors: unknown[] = [];
    const smtp = fakeSmtp();
    const worker = startMailWorker({
      db: brokenDb,
      transport: smtp.transport,
      intervalMs: 5,
      onError: (e) => errors.push(e),
    });
    for (let i = 0; i < 200 && errors.length < 3; i++) await new Promise((r) => setTimeout(r, 5));
    await worker.stop();
    expect(errors.length).toBeGreaterThanOrEqual(3);
    expect(calls).toBeGreaterThanOrEqual(3);
    expect(smtp.accepted).toEqual([]);
  });
});
