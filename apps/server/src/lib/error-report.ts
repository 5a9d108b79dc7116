import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { APP_VERSION } from '@parley/domain/constants';
import type { Config } from '../config';
import type { SentryTarget } from './sentry-dsn';

// The error-reporting hook (decision 023): every unhandled error — a 500, a failed worker pass — goes,
// besides the log line, to a Sentry-compatible tracker (Sentry, or self-hosted GlitchTip or Bugsink) named
// by ERROR_REPORT_DSN, in Sentry's own protocol: one event in an envelope POSTed to the project's
// envelope endpoint with the X-Sentry-Auth header. No SDK: nothing patches Node's globals in our process.
// Reporting never delays or fails the request: fire and forget, bounded by a timeout, its own failures
// only logged. Off unless configured.

export type ErrorContext = { requestId?: string; method?: string; route?: string; source: string };
export type ErrorReporter = (error: unknown, context: ErrorContext) => void;

/** What every event says about this installation. */
export type ReportOrigin = { appName: string; version: string; environment: string };

const REPORT_TIMEOUT_MS = 5_000;
/** The same failure from the same source is reported once a minute (a worker retrying every second). */
const REPEAT_WINDOW_MS = 60_000;

type Frame = { function?: string; filename: string; lineno?: number; colno?: number; in_app: boolean };

/** V8's stack lines as Sentry's frames, oldest call first (Sentry's order). */
export function stackFrames(stack: string | undefined): Frame[] {
  const frames: Frame[] = [];
  for (const line of (stack ?? '').split('\n')) {
    const match = /^\s*at (?:(.+?) \()?(.+?)(?::(\d+))?(?::(\d+))?\)?$/.exec(line);
    if (!match?.[2]) continue;
    const filename = match[2];
    frames.push({
      ...(match[1] && { function: match[1] }),
      filename,
      ...(match[3] && { lineno: Number(match[3]) }),
      ...(match[4] && { colno: Number(match[4]) }),
      in_app: !filename.includes('node_modules') && !filename.startsWith('node:'),
    });
  }
  return frames.reverse();
}

/** The Sentry event for an error: its type, message and stack, where it happened, and this installation. */
export function sentryEvent(error: unknown, context: ErrorContext, origin: ReportOrigin, at = new Date()) {
  const known = error instanceof Error ? error : new Error(String(error));
  const code = (known as { code?: unknown }).code;
  return {
    event_id: randomUUID().replace(/-/g, ''),
    timestamp: at.toISOString(),
    platform: 'node',
    level: 'error',
    logger: context.source,
    server_name: hostname(),
    release: `parley@${origin.version}`,
    environment: origin.environment,
    ...(context.route && { transaction: `${context.method ?? ''} ${context.route}`.trim() }),
    tags: {
      app: origin.appName,
      source: context.source,
      ...(context.route && { route: context.route }),
      ...(context.method && { method: context.method }),
      ...(context.requestId && { request_id: context.requestId }),
      ...(typeof code === 'string' || typeof code === 'number' ? { code: String(code) } : {}),
    },
    exception: {
      values: [
        {
          type: known.name,
          value: known.message,
          mechanism: { type: 'generic', handled: false },
          stacktrace: { frames: stackFrames(known.stack) },
        },
      ],
    },
  };
}

/** The envelope: its header line, the item's header (with the payload's byte length), the payload. */
export function sentryEnvelope(
  event: { event_id: string },
  target: SentryTarget,
  sentAt = new Date(),
): string {
  const payload = JSON.stringify(event);
  return [
    JSON.stringify({ event_id: event.event_id, sent_at: sentAt.toISOString(), dsn: target.dsn }),
    JSON.stringify({ type: 'event', length: Buffer.byteLength(payload), content_type: 'application/json' }),
    payload,
  ].join('\n');
}

export function createErrorReporter(
  target: SentryTarget | undefined,
  origin: ReportOrigin,
  onReportFailure: (error: unknown) => void = () => {},
  now: () => number = Date.now,
): ErrorReporter {
  if (!target) return () => {};
  const auth = `Sentry sentry_version=7, sentry_client=parley/${origin.version}, sentry_key=${target.publicKey}`;
  const lastSent = new Map<string, number>();
  return (error, context) => {
    const key = `${context.source}\u0000${context.route ?? ''}\u0000${error instanceof Error ? error.message : String(error)}`;
    const last = lastSent.get(key);
    if (last !== undefined && now() - last < REPEAT_WINDOW_MS) return;
    if (lastSent.size > 1_000) lastSent.clear();
    lastSent.set(key, now());
    fetch(target.envelopeUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-sentry-envelope', 'x-sentry-auth': auth },
      body: sentryEnvelope(sentryEvent(error, context, origin), target),
      signal: AbortSignal.timeout(REPORT_TIMEOUT_MS),
    })
      .then((response) => {
        void response.body?.cancel();
        if (!response.ok) onReportFailure(new Error(`error tracker answered ${response.status}`));
      })
      .catch(onReportFailure);
  };
}

/** Counts each report in /api/metrics, then passes it on. */
export function countedReporter(metrics: { countError(): void }, next: ErrorReporter): ErrorReporter {
  return (error, context) => {
    metrics.countError();
    next(error, context);
  };
}

/** The app's reporter: counted, sent where the configuration says, its own failures a warning. */
export function appErrorReporter(
  config: Pick<Config, 'errorReports' | 'appName' | 'env'>,
  metrics: { countError(): void },
  warn: (message: string) => void,
): ErrorReporter {
  const origin = { appName: config.appName, version: APP_VERSION, environment: config.env };
  const onFailure = (error: unknown) =>
    warn(`error report not delivered: ${error instanceof Error ? error.message : String(error)}`);
  return countedReporter(metrics, createErrorReporter(config.errorReports, origin, onFailure));
}
