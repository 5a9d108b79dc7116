import { isUnavailable } from './pg-errors';

/** Where a failed task is reported (the app's logger). */
export type BackgroundLog = {
  error(details: object, message: string): void;
  warn(details: object, message: string): void;
};

/**
 * A task that failed after its answer had gone. The database away (restarting, a connection cut) is a
 * warning, as it is for a request (503) and the workers: the next pass or request does the work again. Any
 * other failure is an error in the code.
 */
export function reportFailure(log: BackgroundLog, error: unknown, message: string): void {
  if (isUnavailable(error)) log.warn({ err: error }, message);
  else log.error({ err: error }, message);
}

/**
 * Work done after the answer has gone, so that how long it takes tells the client nothing (reset and
 * resend: whether an account exists). Every task is tracked: shutdown and tests wait for `idle()`.
 */
export class Background {
  private readonly pending = new Set<Promise<void>>();
  private readonly closing = new AbortController();

  /** Aborted as the app closes: long work (a job's batches) stops at its next safe point. */
  get signal(): AbortSignal {
    return this.closing.signal;
  }

  /** Tells long work to stop, and waits for every task to end. */
  async close(): Promise<void> {
    this.closing.abort();
    await this.idle();
  }

  constructor(private readonly log: BackgroundLog) {}

  run(name: string, task: () => Promise<unknown>): void {
    // setImmediate: the task starts after the current answer is on its way, not in the same tick.
    const done: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(task)
      .then(
        () => undefined,
        (error: unknown) => reportFailure(this.log, error, `background task failed: ${name}`),
      )
      .finally(() => this.pending.delete(done));
    this.pending.add(done);
  }

  /** Resolves once every task is done, those started meanwhile included. */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all(this.pending);
  }
}
