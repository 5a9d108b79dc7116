import { type BackgroundLog, reportFailure } from '../../lib/background';
import { keepRecent } from '../../lib/keep-recent';

// "Last active" in the sessions list needs minutes, not every request. Each process marks a session at most
// once a minute, and writes the marks gathered over a second in one UPDATE after the answers have gone: a
// request never waits on a write, and a rush of families signing in costs one statement a second, not one
// per family (issue 14).

const TOUCH_EVERY_MS = 60_000;
const WRITE_AFTER_MS = 1_000;
/** Sessions remembered as marked (the oldest go first) and marks waiting: a bound on what a process keeps. */
const MAX_KEPT = 10_000;

export class SessionTouches {
  readonly #touchedAt = new Map<string, number>();
  readonly #due = new Set<string>();
  #timer: NodeJS.Timeout | undefined;
  /** The writes in flight, one after another: a flush waits for those begun before it. */
  #writing: Promise<void> = Promise.resolve();
  #log: BackgroundLog = {
    error: (details, message) => console.error(message, details),
    warn: (details, message) => console.warn(message, details),
  };

  constructor(private readonly write: (tokenHashes: string[]) => Promise<void>) {}

  /** Where a failed write is reported (the app's logger). */
  reportTo(log: BackgroundLog): void {
    this.#log = log;
  }

  /** A request of this session arrived: marked within the second, unless this process did so this minute. */
  touch(tokenHash: string, now = Date.now()): void {
    if (now - (this.#touchedAt.get(tokenHash) ?? Number.NEGATIVE_INFINITY) < TOUCH_EVERY_MS) return;
    // As many marks waiting as a process keeps: this one is left to the session's next request.
    if (this.#due.size >= MAX_KEPT) return;
    keepRecent(this.#touchedAt, tokenHash, now, MAX_KEPT);
    this.#due.add(tokenHash);
    this.#timer ??= setTimeout(() => void this.flush(), WRITE_AFTER_MS).unref();
  }

  /**
   * Writes the marks waiting now, and returns once they and any write already under way are done (the
   * timer's work; the app's close and tests call it too, so nothing is still writing when the database goes).
   */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#due.size > 0) {
      const hashes = [...this.#due];
      this.#due.clear();
      this.#writing = this.#writing.then(() => this.#write(hashes));
    }
    return this.#writing;
  }

  async #write(hashes: string[]): Promise<void> {
    try {
      await this.write(hashes);
    } catch (error) {
      // A mark is not worth a retry loop: the session's next request after the minute marks it again.
      for (const hash of hashes) this.#touchedAt.delete(hash);
      reportFailure(this.#log, error, 'marking sessions as active failed');
    }
  }
}
