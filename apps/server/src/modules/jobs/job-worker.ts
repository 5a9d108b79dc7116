import { asSchool } from '../../db/scope';
import { startPolling } from '../../mail/mail-worker';
import { EVENT_JOB_STEPS } from '../events/event-messages.service';
import { claimDueJob } from './jobs.repository';
import { JOB_LIMITS, type JobDeps, type JobLimits, workJob } from './jobs.service';

// Resumes jobs nobody holds (decision 037): a process stopped mid-job, or a batch failed and its backoff
// has passed. The process that starts a job works it itself, so this only picks up what was dropped.

const STEPS = { ...EVENT_JOB_STEPS };

/** Works every job that is due, one after another; returns how many were taken up. */
export async function resumeDueJobs(
  deps: JobDeps,
  limits: JobLimits = JOB_LIMITS,
  stop?: AbortSignal,
): Promise<number> {
  let resumed = 0;
  for (;;) {
    if (stop?.aborted) return resumed;
    const lease = await claimDueJob(deps.db, limits.leaseSeconds);
    if (!lease) return resumed;
    resumed += 1;
    // Claimed across schools (system scope); worked in its own school's, as the request that started it.
    await asSchool(lease.schoolId, () => workJob(deps, lease, STEPS[lease.kind], limits, stop));
  }
}

/** Polls for jobs to resume until stopped; a failed pass is reported and the job retried after its backoff. */
export function startJobWorker(input: {
  deps: JobDeps;
  intervalMs: number;
  onError: (error: unknown) => void;
}): { stop(): Promise<void> } {
  const stopping = new AbortController();
  const polling = startPolling(
    () => resumeDueJobs(input.deps, JOB_LIMITS, stopping.signal),
    input.intervalMs,
    input.onError,
  );
  return {
    async stop() {
      stopping.abort();
      await polling.stop();
    },
  };
}
