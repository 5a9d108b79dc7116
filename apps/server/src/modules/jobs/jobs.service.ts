import { EVENT_TEXT } from '@parley/domain/events';
import { eventMessageJob, eventMessageProgress, type JobProgress } from '@parley/domain/jobs';
import type { AppContext } from '../../context';
import type { Db } from '../../db/database';
import type { JobsTable } from '../../db/schema';
import { notFound } from '../../lib/http-error';
import { requireEvent } from '../events/events.service';
import * as repo from './jobs.repository';

// Work too big for one request, done in batches that each commit with the job's cursor (decision 037):
// each item is handled exactly once however often the job is cut off and resumed, by whichever process.

export const JOB_LIMITS = {
  /**
   * Items handled by the request that starts the job, in the transaction that creates it: a school of up to
   * 2,000 recipients is messaged before the answer, all or nothing, as a single statement did before.
   */
  inline: 2000,
  /**
   * Items per batch after that, one transaction each: ~0.3 s at a district's size, most of it finding who
   * has not booked, asked again by every batch (bench:scale).
   */
  batch: 1000,
  /** Renewed with every batch; a job whose holder stopped is taken over once it has passed. */
  leaseSeconds: 60,
  /** A batch that fails is retried after 10 s, 20 s, 40 s … (at most 10 min); given up after this many. */
  maxFailures: 8,
  retrySeconds: 10,
};
export type JobLimits = typeof JOB_LIMITS;

/** What a batch needs of the app: the database and the configuration (links in mails). */
export type JobDeps = Pick<AppContext, 'db' | 'config'>;
export type HeldJob = NonNullable<Awaited<ReturnType<typeof repo.lockHeldJob>>>;

/**
 * One batch of a kind of job, in the job's transaction: handles up to `limit` items after `job.cursor` in
 * the job's order, and says how many and the last one's key. Fewer than `limit` ends the job.
 */
export type JobStep = (
  trx: Db,
  deps: JobDeps,
  job: HeldJob,
  limit: number,
) => Promise<{ handled: number; cursor: number }>;

export type NewJob = {
  schoolId: number;
  eventId: number | null;
  kind: JobsTable['kind'];
  payload: unknown;
  total: number;
};

function progressOf(row: repo.JobRow): JobProgress {
  const progress = {
    id: row.id,
    kind: row.kind,
    status: row.status,
    done: row.done,
    total: row.total,
    createdAt: row.created_at.toISOString(),
  };
  const payload = eventMessageJob.safeParse(row.payload);
  const message = payload.success ? eventMessageProgress(payload.data.message, progress) : row.status;
  return { ...progress, message };
}

async function runBatch(
  trx: Db,
  deps: JobDeps,
  lease: repo.JobLease,
  step: JobStep,
  limit: number,
  limits: JobLimits,
): Promise<repo.JobRow | undefined> {
  const job = await repo.lockHeldJob(trx, lease);
  if (!job) return undefined; // claimed by another worker since, or ended: not ours to go on with
  const { handled, cursor } = await step(trx, deps, job, limit);
  return repo.advanceJob(trx, lease, {
    handled,
    cursor: handled > 0 ? cursor : job.cursor,
    finished: handled < limit,
    leaseSeconds: limits.leaseSeconds,
  });
}

/**
 * Creates a job (`create` checks the request and counts the work; null: nothing to do) and works its first
 * `limits.inline` items in the same transaction, so an error leaves nothing behind. The rest goes on after
 * the answer; null when there was nothing to do.
 */
export async function startJob(
  ctx: Pick<AppContext, 'db' | 'config' | 'background'>,
  create: (trx: Db) => Promise<NewJob | null>,
  step: JobStep,
  limits: JobLimits = JOB_LIMITS,
): Promise<JobProgress | null> {
  const started = await ctx.db.transaction().execute(async (trx) => {
    const job = await create(trx);
    if (!job) return null;
    const lease = await repo.insertJob(trx, { ...job, leaseSeconds: limits.leaseSeconds });
    const row = await runBatch(trx, ctx, lease, step, limits.inline, limits);
    return row && { lease, row };
  });
  if (!started) return null;
  if (started.row.status === 'running')
    ctx.background.run(`job ${started.lease.id}`, () =>
      workJob(ctx, started.lease, step, limits, ctx.background.signal),
    );
  return progressOf(started.row);
}

/**
 * Works a held job batch by batch until it ends or another worker has taken it over. A failed batch is
 * recorded (retried after a backoff by whoever claims it then) and thrown for the caller to report. Once
 * `stop` is aborted (the process is closing) the job is given back between two batches.
 */
export async function workJob(
  deps: JobDeps,
  lease: repo.JobLease,
  step: JobStep,
  limits: JobLimits = JOB_LIMITS,
  stop?: AbortSignal,
): Promise<void> {
  for (;;) {
    if (stop?.aborted) return repo.releaseJob(deps.db, lease);
    let row: repo.JobRow | undefined;
    try {
      row = await deps.db
        .transaction()
        .execute((trx) => runBatch(trx, deps, lease, step, limits.batch, limits));
    } catch (error) {
      await repo.recordJobFailure(deps.db, lease, {
        error: error instanceof Error ? error.message : String(error),
        maxFailures: limits.maxFailures,
        baseSeconds: limits.retrySeconds,
      });
      throw error;
    }
    if (row?.status !== 'running') return;
  }
}

/** GET jobs/view: one job's progress. */
export async function jobOf(ctx: AppContext, schoolId: number, id: number): Promise<JobProgress> {
  const row = await repo.findJob(ctx.db, schoolId, id);
  if (!row) throw notFound(EVENT_TEXT.jobNotFound);
  return progressOf(row);
}

/** GET jobs/of-event: the event's jobs running, or ended in the last ten minutes (the messages card). */
export async function jobsOfEvent(ctx: AppContext, schoolId: number, eventId: number) {
  await requireEvent(ctx.db, schoolId, eventId);
  const rows = await repo.recentJobsOfEvent(ctx.db, schoolId, eventId, 10);
  return { items: rows.map(progressOf) };
}
