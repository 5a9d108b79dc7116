import { SERVER_TEXT } from '@parley/domain/messages';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { HttpError } from '../lib/http-error';

// One error shape for every answer: { message, errors?, action?, retry? }. Never a stack trace.

/** PostgreSQL/driver failures that mean "try again shortly" rather than "your request is wrong". */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND', // the database host's name does not resolve (its container is restarting)
  'EAI_AGAIN',
  '57P01', // admin shutdown
  '57P03', // cannot connect now
  '53300', // too many connections
  '55P03', // lock not available (lock_timeout)
  '57014', // statement timeout
  '40001', // serialization failure
  '40P01', // deadlock
]);

export function isUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return (
    (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) ||
    (error instanceof Error &&
      /Connection terminated|timeout exceeded when trying to connect/.test(error.message))
  );
}

function addError(errors: Record<string, string[]>, field: string, message: string): void {
  errors[field] = [...(errors[field] ?? []), message];
}

function fieldErrors(
  validation: { instancePath: string; message?: string; keyword: string; params: unknown }[],
) {
  const errors: Record<string, string[]> = {};
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

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      return reply
        .code(error.statusCode)
        .send({ message: error.message, ...(error.errors && { errors: error.errors }), ...error.extra });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply
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
      if (error.statusCode === 429) return reply.code(429).send({ message: SERVER_TEXT.rateLimited });
      return reply.code(400).send({ message: error.message });
    }
    if (isUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply.code(503).send({ message: SERVER_TEXT.unavailable, retry: true });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ message: SERVER_TEXT.serverError });
  });
}
