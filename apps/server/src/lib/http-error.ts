/**
 * An error meant for the client: status, message and optional field errors (spec's error body). A 4xx is
 * an answer, never reported or logged with a stack, so it captures none: half the attempts of a booking
 * rush end in a 409, and a stack costs more than the rest of the error.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: Record<string, string[]>,
    readonly extra?: Record<string, unknown>,
    /** Seconds the client should wait before trying again (sent as Retry-After; 429 and 503). */
    readonly retryAfter?: number,
  ) {
    const limit = Error.stackTraceLimit;
    if (statusCode < 500) Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
  }
}

export const badRequest = (message: string, errors?: Record<string, string[]>) =>
  new HttpError(400, message, errors);
export const unprocessable = (message: string, errors?: Record<string, string[]>) =>
  new HttpError(422, message, errors);
export const unauthorized = (message: string) => new HttpError(401, message, undefined, { action: 'logout' });
export const forbidden = (message: string) => new HttpError(403, message);
export const notFound = (message: string) => new HttpError(404, message);
export const conflict = (message: string, errors?: Record<string, string[]>) =>
  new HttpError(409, message, errors);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new HttpError(429, message, undefined, undefined, Math.max(1, Math.ceil(retryAfterSeconds)));

/** Seconds a client waits after a 503 before its retry (the web client retries after 1 s and 2 s, spec §8). */
export const UNAVAILABLE_RETRY_AFTER = 1;
export const serviceUnavailable = (message: string) =>
  new HttpError(503, message, undefined, { retry: true }, UNAVAILABLE_RETRY_AFTER);
