import type { JobProgress } from '@parley/domain/jobs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner } from '../../src/db/scope';
import type { Actor } from '../../src/lib/actor';
import { EVENT_JOB_STEPS, eventMessageJobOf } from '../../src/modules/events/event-messages.service';
import { resumeDueJobs } from '../../src/modules/jobs/job-worker';
import { claimDueJob } from '../../src/modules/jobs/jobs.repository';
import {
  JOB_LIMITS,
  type JobLimits,
  type JobStep,
  startJob,
  workJob,
} from '../../src/modules/jobs/jobs.service';
import { type Api, addPerson, api, expectStatus } from '../directory/directory-helpers';
import { stoppedContext, testContext } from '../factories';
import { createTestApp, type TestApp } from '../test-app';
import {
  createEvent,
  createSection,
  type EventSchool,
  eventSchool,
  insertBooking,
  mailsTo,
  viewEvent,
} from './events-helpers';

// A message to more recipients than one request should handle is a job (decision 037): the request sends
// to the first JOB_LIMITS.inline itself, the rest goes in batches after the answer, each committed with the
// job's cursor. Every recipient gets exactly one mail, whoever works the job and however often it is cut off.

let t: TestApp;
let http: Api;
let school: EventSchool;
let other: EventSchool;

beforeAll(async () => {
  t = await createTestApp();
  http = api(t.app);
  school = await eventSchool(t, 'Jobs Academy');
  other = await eventSchool(t, 'Other Jobs Academy');
});
afterAll(() => t.close());

let seeded = 0;
/** `count` active parents, made recipients of the event set-based (a district is too many for the API). */
async function addRecipients(schoolId: number, eventId: number, count: number): Promise<string> {
  const tag = `jobs${++seeded}-`;
  await asOwner(async () => {
    await sql`insert into users (school_id, first_name, last_name, email, status)
      select ${schoolId}, 'Parent', 'No ' || n, ${tag} || n || '@jobs.example.org', 1
      from generate_series(1, ${count}) n`.execute(t.db);
    await sql`insert into user_roles (user_id, school_id, role)
      select id, school_id, 'parent' from users where email like ${`${tag}%`}`.execute(t.db);
    await sql`insert into event_recipients (school_id, event_id, user_id)
      select school_id, ${eventId}, id from users where email like ${`${tag}%`}`.execute(t.db);
  });
  return tag;
}

/** Mails to the tagged recipients: how many, and to how many addresses. */
async function mailsOf(tag: string) {
  const { rows } = await asOwner(() =>
    sql<{ mails: number; people: number }>`select count(*)::int as mails,
      count(distinct to_address)::int as people from mail_outbox where to_address like ${`${tag}%`}`.execute(
      t.db,
    ),
  );
  return rows[0];
}

const actorOf = (s: EventSchool): Actor => ({
  userId: s.admin.id,
  schoolId: s.schoolId,
  roles: ['admin'],
  ip: null,
  userAgent: null,
});

const grouped = (count: number) => count.toLocaleString('en-GB');

const small: JobLimits = { ...JOB_LIMITS, inline: 3, batch: 2 };

describe('a message to a district', () => {
  it('sends to the first recipients before the answer and the rest after it, each once, with progress', async () => {
    const eventId = await createEvent(
      http,
      school.admin.token,
      'District evening',
      school.types.parentTeacher,
    );
    const total = JOB_LIMITS.inline + JOB_LIMITS.batch + 100;
    const tag = await addRecipients(school.schoolId, eventId, total);
    t.afterAnswers.hold();
    const answer = expectStatus<{ sent: number; message: string; job: JobProgress }>(
      await http.post(`message-types/send?eventId=${eventId}`, school.admin.token, {
        messageTypeName: 'inviteToBook',
        audience: 'all',
      }),
      200,
    );
    expect(answer).toMatchObject({
      sent: JOB_LIMITS.inline,
      message: `Sending invitation: ${grouped(JOB_LIMITS.inline)} of ${grouped(total)} recipients.`,
      job: { kind: 'event-message', status: 'running', done: JOB_LIMITS.inline, total },
    });
    expect(await mailsOf(tag)).toEqual({ mails: JOB_LIMITS.inline, people: JOB_LIMITS.inline });
    const running = expectStatus<{ items: JobProgress[] }>(
      await http.get(`jobs/of-event?eventId=${eventId}`, school.admin.token),
      200,
    );
    expect(running.items).toEqual([answer.job]);

    t.afterAnswers.release();
    await t.settled();
    const done = expectStatus<JobProgress>(
      await http.get(`jobs/view?id=${answer.job.id}`, school.admin.token),
      200,
    );
    expect(done).toMatchObject({
      status: 'done',
      done: total,
      total,
      message: `Invitation sent to ${grouped(total)} recipients.`,
    });
    expect(await mailsOf(tag)).toEqual({ mails: total, people: total });
    // Each batch's audit entry names its recipients: together, each of them once.
    const audited = await t.db
      .selectFrom('audit_entries')
      .select((eb) => eb.fn.sum<number>(sql`(detail->>'recipients')::int`).as('n'))
      .where('school_id', '=', school.schoolId)
      .where('event_id', '=', eventId)
      .where('action', '=', 'message.sent')
      .executeTakeFirstOrThrow();
    expect(Number(audited.n)).toBe(total);
  });

  it('shows another school nothing of it', async () => {
    const eventId = await createEvent(
      http,
      school.admin.token,
      'Private evening',
      school.types.parentTeacher,
    );
    await addRecipients(school.schoolId, eventId, 2);
    expectStatus(
      await http.post(`message-types/send?eventId=${eventId}`, school.admin.token, {
        messageTypeName: 'reminder',
        audience: 'all',
      }),
      200,
    );
    const [job] = expectStatus<{ items: JobProgress[] }>(
      await http.get(`jobs/of-event?eventId=${eventId}`, school.admin.token),
      200,
    ).items;
    expect(job).toMatchObject({ status: 'done', done: 2, message: 'Reminder sent to 2 recipients.' });
    expect((await http.get(`jobs/view?id=${job?.id}`, other.admin.token)).statusCode).toBe(404);
    expect((await http.get(`jobs/of-event?eventId=${eventId}`, other.admin.token)).statusCode).toBe(404);
    const bad = await http.get('jobs/view?id=abc', school.admin.token);
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('"id"');
  });
});

describe('a job cut off', () => {
  const step = EVENT_JOB_STEPS['event-message'];

  /**
   * An evening with `count` recipients, and a message to them started by a process that stopped after its
   * answer (the first `small.inline` sent, the lease still its own). `before` sets the evening up first.
   */
  async function stoppedJob(
    name: string,
    count: number,
    audience: 'all' | 'notBooked' = 'all',
    before?: (eventId: number) => Promise<void>,
  ) {
    const eventId = await createEvent(http, school.admin.token, name, school.types.parentTeacher);
    await before?.(eventId);
    const tag = await addRecipients(school.schoolId, eventId, count);
    const create = eventMessageJobOf(school.schoolId, eventId, 'reminder', audience, actorOf(school));
    const progress = await startJob(stoppedContext(t), create, step, small);
    const lease = { id: progress?.id ?? 0, claims: 1, schoolId: school.schoolId };
    return { eventId, tag, progress, lease };
  }

  const expireLeases = () =>
    asOwner(() =>
      sql`update jobs set locked_until = now() - interval '1 second' where status = 'running'`.execute(t.db),
    );

  it('is taken up by another process once its lease has passed, and no recipient gets two mails', async () => {
    const { tag, progress } = await stoppedJob('Resumed evening', 9);
    expect(progress).toMatchObject({ status: 'running', done: 3, total: 9 });
    // Its process is gone, its lease not yet over: nobody else takes it.
    expect(await resumeDueJobs(testContext(t), small)).toBe(0);
    await expireLeases();
    // Two processes look for work at once: one takes the job, the other finds nothing left to take.
    const [first, second] = await Promise.all([
      resumeDueJobs(testContext(t), small),
      resumeDueJobs(testContext(t), small),
    ]);
    expect(first + second).toBe(1);
    expect(await mailsOf(tag)).toEqual({ mails: 9, people: 9 });
    const job = await t.db
      .selectFrom('jobs')
      .selectAll()
      .where('id', '=', progress?.id ?? 0)
      .executeTakeFirstOrThrow();
    expect(job).toMatchObject({ status: 'done', done: 9, total: 9, claims: 2, locked_until: null });
  });

  it('stops a worker whose lease another has taken over: its next batch sends nothing', async () => {
    const { tag, lease: stalled } = await stoppedJob('Overtaken evening', 7);
    await expireLeases();
    const taker = await claimDueJob(t.db, small.leaseSeconds);
    expect(taker).toMatchObject({ id: stalled.id, claims: 2 });
    // The stalled worker wakes up and goes on: its claim is no longer the job's.
    await workJob(testContext(t), stalled, step, small);
    expect(await mailsOf(tag)).toEqual({ mails: 3, people: 3 });
    if (taker) await workJob(testContext(t), taker, step, small);
    expect(await mailsOf(tag)).toEqual({ mails: 7, people: 7 });
  });

  it('leaves out a family that books while a reminder to those not booked is on its way', async () => {
    const { eventId, tag, progress } = await stoppedJob('Changing evening', 5, 'notBooked', async (id) => {
      const teacher = await addPerson(t, school.admin.token, 'teacher', {
        firstName: 'Tess',
        lastName: 'Jobs',
      });
      await createSection(http, school.admin.token, id, {
        date: '2027-03-12',
        start: '16:00',
        end: '16:30',
        teachers: [{ teacherId: teacher.id }],
      });
    });
    expect(progress).toMatchObject({ done: 3, total: 5 });
    // The fifth family books before the job reaches them.
    const slotId = (await viewEvent(http, school.admin.token, eventId)).slots[0]?.slots[0]?.id ?? 0;
    const fifth = await t.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', `${tag}5@jobs.example.org`)
      .executeTakeFirstOrThrow();
    await insertBooking(t.db, slotId, { parentId: fifth.id });
    await expireLeases();
    await resumeDueJobs(testContext(t), small);
    expect(await mailsOf(tag)).toEqual({ mails: 4, people: 4 });
    expect(await mailsTo(t.db, `${tag}5@jobs.example.org`)).toEqual([]);
  });

  it('is given back between two batches when its process closes, for another to take up at once', async () => {
    const { tag, lease } = await stoppedJob('Closing evening', 6);
    await workJob(testContext(t), lease, step, small, AbortSignal.abort());
    expect(await mailsOf(tag)).toEqual({ mails: 3, people: 3 });
    // No lease to wait out: the next worker takes it now.
    expect(await resumeDueJobs(testContext(t), small)).toBe(1);
    expect(await mailsOf(tag)).toEqual({ mails: 6, people: 6 });
  });

  it('retries a failed batch after a backoff, and gives up after the limit', async () => {
    const { lease } = await stoppedJob('Failing evening', 4);
    const failing: JobStep = async () => {
      throw new Error('SMTP relay refused');
    };
    const limits = { ...small, maxFailures: 2 };
    await expect(workJob(testContext(t), lease, failing, limits)).rejects.toThrow('SMTP relay refused');
    const row = () =>
      t.db.selectFrom('jobs').selectAll().where('id', '=', lease.id).executeTakeFirstOrThrow();
    const once = await row();
    expect(once).toMatchObject({ status: 'running', failures: 1, done: 3, last_error: 'SMTP relay refused' });
    // Held back for the backoff: no worker takes it before then.
    expect(once.locked_until?.getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(await claimDueJob(t.db, small.leaseSeconds)).toBeUndefined();
    await expireLeases();
    const again = await claimDueJob(t.db, small.leaseSeconds);
    expect(again).toMatchObject({ id: lease.id, claims: 2 });
    if (again) await expect(workJob(testContext(t), again, failing, limits)).rejects.toThrow();
    expect(await row()).toMatchObject({ status: 'failed', failures: 2, locked_until: null, done: 3 });
    const shown = expectStatus<JobProgress>(
      await http.get(`jobs/view?id=${lease.id}`, school.admin.token),
      200,
    );
    expect(shown.message).toBe('Reminder stopped after 3 of 4 recipients.');
  });
});
