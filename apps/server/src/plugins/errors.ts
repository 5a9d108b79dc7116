import { SERVER_TEXT, VALIDATION } from '@parley/domain/messages';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorReporter } from '../lib/error-report';
import { HttpError, UNAVAILABLE_RETRY_AFTER } from '../lib/http-error';
import { isUnavailable } from '../lib/pg-errors';

// One error shape for every answer: { message, errors?, action?, retry?, requestId? }. Never a stack trace.
// requestId (5xx only; every answer carries it as X-Request-Id) is what support asks for.

type Mapped = { status: 409 | 422; message: string; field?: string };

/** Constraints whose violation a client can cause (two admins, one new email at once): the field and text. */
const CONSTRAINTS: Record<string, Mapped> = {
  users_email_key: { status: 409, message: VALIDATION.emailInUse, field: 'email' },
};

/**
 * What PostgreSQL refused, as the client's 409/422, in one place for every route: a unique or exclusion
 * violation is a conflict with someone else's change; a foreign key that vanished, the same; data the
 * column cannot hold (too long, out of range, not a valid value, a row too big to index) is bad input.
 * A service that knows better (a booking's rule, a retried code) catches its own first.
 */
export function constraintAnswer(error: unknown): Mapped | null {
  const { code, constraint } = (error ?? {}) as { code?: unknown; constraint?: unknown };
  if (typeof code !== 'string') return null;
  const known = typeof constraint === 'string' ? CONSTRAINTS[constraint] : undefined;
  if (known && (code === '23505' || code === '23P01')) return known;
  if (code === '23505' || code === '23P01' || code === '23503')
    return { status: 409, message: SERVER_TEXT.conflict };
  if (code === '23514' || code === '23502' || code.startsWith('22') || code === '54000')
    return { status: 422, message: SERVER_TEXT.invalidInput };
  return null;
}

function addError(errors: Record<string, string[]>, field: string, message: string): void {
  errors[field] = [...(errors[field] ?? []), message];
}

/**
 * An answer whose field errors name what the client sent, "__proto__" included: written with JSON.stringify,
 * which keeps such a key, not the route's schema serializer, which would drop it (a key set on a plain
 * object). Its fields are built here or by HttpError's callers, never from a stack or a row.
 */
const namingFields = (reply: FastifyReply) =>
  reply.type('application/json; charset=utf-8').serializer(JSON.stringify);

function fieldErrors(
  validation: { instancePath: string; message?: string; keyword: string; params: unknown }[],
) {
  // No prototype: a field a client names "__proto__", "constructor" or "toString" is just a key here.
  const errors: Record<string, string[]> = Object.create(null);
  for (const issue of validation) {
    const unknownKeys = (issue.params as { keys?: string[] }).keys;
    if (issue.keyword === 'unrecognized_keys' && unknownKeys) {
      for (const key of unknownKeys) addError(errors, key, 'Unknown field.');
      continue;
    }
    const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || '_';
    addError(errors, field, issue.message ?? 'Invalid value.');
  }
  return errors;
}

export function registerErrorHandling(app: FastifyInstance, report: ErrorReporter = () => {}): void {
  // Every answer names its request, so a report from a school can be matched to the log lines.
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      if (error.retryAfter) reply.header('retry-after', String(error.retryAfter));
      if (error.errors) namingFields(reply);
      return reply
        .code(error.statusCode)
        .send({ message: error.message, ...(error.errors && { errors: error.errors }), ...error.extra });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return namingFields(reply)
        .code(422)
        .send({ message: SERVER_TEXT.invalidInput, errors: fieldErrors(error.validation) });
    }
    switch (error.code) {
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return reply.code(400).send({ message: SERVER_TEXT.malformedJson });
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return reply.code(400).send({ message: SERVER_TEXT.bodyTooLarge });
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return reply.code(400).send({ message: SERVER_TEXT.unsupportedMediaType });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      if (error.statusCode === 429)
        return reply.code(429).header('retry-after', '60').send({ message: SERVER_TEXT.rateLimited });
      return reply.code(400).send({ message: error.message });
    }
    if (isUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply
        .code(503)
        .header('retry-after', String(UNAVAILABLE_RETRY_AFTER))
        .send({ message: SERVER_TEXT.unavailable, retry: true, requestId: request.id });
    }
    const mapped = constraintAnswer(error);
    if (mapped) {
      request.log.info({ err: error }, 'refused by a database constraint');
      return reply.code(mapped.status).send({
        message: mapped.message,
        ...(mapped.field && { errors: { [mapped.field]: [mapped.message] } }),
      });
    }
    // The request id lets support find this request's log lines; nothing else of the error leaves.
    request.log.error({ err: error }, 'unhandled error');
    report(error, {
      source: 'request',
      requestId: request.id,
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
    });
    return reply.code(500).send({ message: SERVER_TEXT.serverError, requestId: request.id });
  });
}
