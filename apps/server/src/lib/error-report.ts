// The error-reporting hook (operators' Sentry, Slack or log pipeline): every unhandled error — a 500, a
// failed worker pass — is POSTed as JSON to ERROR_REPORT_URL, besides the log line. Reporting never
// delays or fails the request: fire and forget, bounded by a timeout, its own failures only logged.

export type ErrorContext = { requestId?: string; method?: string; route?: string; source: string };
export type ErrorReporter = (error: unknown, context: ErrorContext) => void;

const REPORT_TIMEOUT_MS = 5_000;
/** The same failure from the same source is reported once a minute (a worker retrying every second). */
const REPEAT_WINDOW_MS = 60_000;

export function errorReport(error: unknown, context: ErrorContext, appName: string, at = new Date()) {
  const known = error instanceof Error ? error : new Error(String(error));
  return {
    app: appName,
    at: at.toISOString(),
    ...context,
    error: {
      name: known.name,
      message: known.message,
      code: (known as { code?: unknown }).code ?? null,
      stack: known.stack ?? null,
    },
  };
}

export function createErrorReporter(
  url: string | undefined,
  appName: string,
  onReportFailure: (error: unknown) => void = () => {},
  now: () => number = Date.now,
): ErrorReporter {
  if (!url) return () => {};
  const lastSent = new Map<string, number>();
  return (error, context) => {
    const key = `${context.source}\u0000${context.route ?? ''}\u0000${error instanceof Error ? error.message : String(error)}`;
    const last = lastSent.get(key);
    if (last !== undefined && now() - last < REPEAT_WINDOW_MS) return;
    if (lastSent.size > 1_000) lastSent.clear();
    lastSent.set(key, now());
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(errorReport(error, context, appName)),
      signal: AbortSignal.timeout(REPORT_TIMEOUT_MS),
    })
      .then((response) => response.body?.cancel())
      .catch(onReportFailure);
  };
}

/** Counts each report in /metrics, then passes it on. */
export function countedReporter(metrics: { countError(): void }, next: ErrorReporter): ErrorReporter {
  return (error, context) => {
    metrics.countError();
    next(error, context);
  };
}
