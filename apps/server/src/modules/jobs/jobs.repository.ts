import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { JobsTable } from '../../db/schema';

/** A job as its worker holds it: `claims` as its claim left it tells this claim from a later one. */
export type JobLease = { id: number; claims: number; schoolId: number };

const PROGRESS = ['id', 'kind', 'status', 'done', 'total', 'payload', 'created_at'] as const;

/** A new job, held by its creator for `leaseSeconds` (it works the first batch at once). */
export async function insertJob(
  db: Db,
  job: {
    schoolId: number;
    eventId: number | null;
    kind: JobsTable['kind'];
    payload: unknown;
    total: number;
    leaseSeconds: number;
  },
): Promise<JobLease> {
  const row = await db
    .insertInto('jobs')
    .values({
      school_id: job.schoolId,
      event_id: job.eventId,
      kind: job.kind,
      payload: JSON.stringify(job.payload),
      total: job.total,
      claims: 1,
      locked_until: sql<Date>`now() + make_interval(secs => ${job.leaseSeconds})`,
    })
    .returning(['id', 'claims', 'school_id'])
    .executeTakeFirstOrThrow();
  return { id: row.id, claims: row.claims, schoolId: row.school_id };
}

/**
 * Claims one running job whose holder is gone (its lease passed; a process stopped mid-job) or that waits
 * out a failure's backoff. System scope: any school's. A job claimed here is invisible to other workers.
 */
export async function claimDueJob(
  db: Db,
  leaseSeconds: number,
): Promise<(JobLease & { kind: JobsTable['kind'] }) | undefined> {
  const row = await db
    .updateTable('jobs')
    .set({
      locked_until: sql<Date>`now() + make_interval(secs => ${leaseSeconds})`,
      claims: sql<number>`claims + 1`,
    })
    .where(
      'id',
      '=',
      db
        .selectFrom('jobs')
        .select('id')
        .where('status', '=', 'running')
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', sql<Date>`now()`)]))
        .orderBy('id')
        .limit(1)
        .forUpdate()
        .skipLocked(),
    )
    .returning(['id', 'claims', 'school_id', 'kind'])
    .executeTakeFirst();
  return row && { id: row.id, claims: row.claims, schoolId: row.school_id, kind: row.kind };
}

/**
 * The job, locked for this batch's transaction, while the lease is still this worker's: undefined once
 * another worker has claimed it since (or it ended). A second worker waits here for the first's batch.
 */
export function lockHeldJob(db: Db, lease: JobLease) {
  return db
    .selectFrom('jobs')
    .select(['id', 'school_id', 'event_id', 'payload', 'cursor', 'done', 'total'])
    .where('school_id', '=', lease.schoolId)
    .where('id', '=', lease.id)
    .where('claims', '=', lease.claims)
    .where('status', '=', 'running')
    .forUpdate()
    .executeTakeFirst();
}

/** A batch done: the cursor moves past it and the lease is renewed, or the job ends. */
export function advanceJob(
  db: Db,
  lease: JobLease,
  batch: { handled: number; cursor: number; finished: boolean; leaseSeconds: number },
) {
  return db
    .updateTable('jobs')
    .set({
      cursor: batch.cursor,
      failures: 0,
      done: sql<number>`done + ${batch.handled}`,
      total: sql<number>`greatest(total, done + ${batch.handled})`,
      ...(batch.finished
        ? { status: 'done' as const, finished_at: sql<Date>`now()`, locked_until: null }
        : { locked_until: sql<Date>`now() + make_interval(secs => ${batch.leaseSeconds})` }),
    })
    .where('school_id', '=', lease.schoolId)
    .where('id', '=', lease.id)
    .returning(PROGRESS)
    .executeTakeFirst();
}

/** Gives the job back (its process is stopping): any worker may claim it at once. */
export async function releaseJob(db: Db, lease: JobLease): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ locked_until: null })
    .where('school_id', '=', lease.schoolId)
    .where('id', '=', lease.id)
    .where('claims', '=', lease.claims)
    .where('status', '=', 'running')
    .execute();
}

/**
 * A batch failed (its transaction rolled back): retried by whichever worker claims the job once the backoff
 * has passed (`baseSeconds` doubling with each failure in a row, at most 10 minutes), or given up after
 * `maxFailures`. Only under the lease it ran with, like an outbox row (decision 004).
 */
export async function recordJobFailure(
  db: Db,
  lease: JobLease,
  input: { error: string; maxFailures: number; baseSeconds: number },
): Promise<void> {
  const givenUp = sql<boolean>`failures + 1 >= ${input.maxFailures}`;
  await db
    .updateTable('jobs')
    .set({
      failures: sql<number>`failures + 1`,
      last_error: input.error.slice(0, 1000),
      status: sql<'running' | 'failed'>`case when ${givenUp} then 'failed' else 'running' end`,
      finished_at: sql<Date | null>`case when ${givenUp} then now() end`,
      locked_until: sql<Date | null>`case when ${givenUp} then null
        else now() + make_interval(secs => least(${input.baseSeconds} * 2 ^ failures, 600)) end`,
    })
    .where('school_id', '=', lease.schoolId)
    .where('id', '=', lease.id)
    .where('claims', '=', lease.claims)
    .where('status', '=', 'running')
    .execute();
}

export type JobRow = NonNullable<Awaited<ReturnType<typeof advanceJob>>>;

/** One job of the school, for its progress. */
export function findJob(db: Db, schoolId: number, id: number) {
  return db
    .selectFrom('jobs')
    .select(PROGRESS)
    .where('school_id', '=', schoolId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The event's jobs still running or ended in the last `recentMinutes`, newest first. */
export function recentJobsOfEvent(db: Db, schoolId: number, eventId: number, recentMinutes: number) {
  return db
    .selectFrom('jobs')
    .select(PROGRESS)
    .where('school_id', '=', schoolId)
    .where('event_id', '=', eventId)
    .where((eb) =>
      eb.or([
        eb('status', '=', 'running'),
        eb('finished_at', '>', sql<Date>`now() - make_interval(mins => ${recentMinutes})`),
      ]),
    )
    .orderBy('id', 'desc')
    .limit(10)
    .execute();
}
