/** Deadlock and serialization failure: PostgreSQL asking the client to run the transaction again. */
const RETRYABLE = new Set(['40P01', '40001']);

const isRetryable = (error: unknown) => {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && RETRYABLE.has(code);
};

/**
 * Runs a whole transaction again when PostgreSQL gave it up as a deadlock victim or a serialization
 * failure, a bounded number of times with a little jitter, before anyone sees a 503 (issue 14).
 */
export async function withTransactionRetry<T>(run: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= attempts || !isRetryable(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, attempt * (5 + Math.random() * 20)));
    }
  }
}
