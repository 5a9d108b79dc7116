import { randomUUID } from 'node:crypto';
import { SERVER_TEXT, VALIDATION } from '@parley/domain/messages';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError, tooManyRequests, unauthorized } from '../lib/http-error';
import { registerErrorHandling } from './errors';

/** An error as the pg driver or Node's net module raise it. */
function driverError(code: string, message = `driver failure ${code}`) {
  return Object.assign(new Error(message), { code });
}

describe('registerErrorHandling', () => {
  let app: FastifyInstance;
  let thrown: unknown;
  beforeAll(async () => {
    app = Fastify({ logger: false, genReqId: () => randomUUID() });
    registerErrorHandling(app);
    app.get('/throw', async () => {
      throw thrown;
    });
    app.post('/echo', async (request) => ({ got: request.body }));
    await app.ready();
  });
  afterAll(() => app.close());

  const raise = async (error: unknown) => {
    thrown = error;
    return app.inject({ method: 'GET', url: '/throw' });
  };

  it.each([
    ['57P01', 'terminating connection due to administrator command'],
    ['57P03', 'the database system is starting up'],
    ['53300', 'sorry, too many clients already'],
    ['08006', 'connection failure'],
    ['08001', 'unable to connect'],
    ['55P03', 'canceling statement due to lock timeout'],
    ['57014', 'canceling statement due to statement timeout'],
    ['40001', 'could not serialize access'],
    ['40P01', 'deadlock detected'],
    ['ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'],
    ['ECONNRESET', 'read ECONNRESET'],
    ['ETIMEDOUT', 'connect ETIMEDOUT'],
    ['ENOTFOUND', 'getaddrinfo ENOTFOUND db'],
    ['EAI_AGAIN', 'getaddrinfo EAI_AGAIN db'],
  ])(
    'a database outage (%s) answers 503 { retry: true }, Retry-After and no details',
    async (code, message) => {
      const response = await raise(driverError(code, message));
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('1');
      expect(response.json()).toEqual({
        message: SERVER_TEXT.unavailable,
        retry: true,
        requestId: response.headers['x-request-id'],
      });
    },
  );

  it.each([
    'Connection terminated unexpectedly',
    'Connection terminated due to connection timeout',
    'timeout exceeded when trying to connect',
    'Client has encountered a connection error and is not queryable',
  ])('the pg pool message %j answers 503 { retry: true }', async (message) => {
    const response = await raise(new Error(message));
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ message: 'The service is busy. Please try again.', retry: true });
  });

  it('anything else is a 500 with a plain message and the request id: no stack, no error text, no code', async () => {
    const typeError = await raise(new TypeError("Cannot read properties of undefined (reading 'id')"));
    expect(typeError.statusCode).toBe(500);
    const requestId = typeError.headers['x-request-id'];
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(typeError.json()).toEqual({ message: SERVER_TEXT.serverError, requestId });
    expect(typeError.body).not.toContain('reading');
    expect(typeError.body).not.toContain(' at ');
    const other = await raise(driverError('42P01', 'relation "users" does not exist'));
    expect(other.statusCode).toBe(500);
    expect(other.body).not.toContain('relation');
    expect(other.headers['x-request-id']).not.toBe(requestId);
  });

  it('what PostgreSQL refuses is mapped in one place: conflicts 409, bad data 422, nothing of the error leaks', async () => {
    const email = await raise(
      Object.assign(
        driverError('23505', 'duplicate key value violates unique constraint "users_email_key"'),
        {
          constraint: 'users_email_key',
        },
      ),
    );
    expect(email.statusCode).toBe(409);
    expect(email.json()).toEqual({
      message: VALIDATION.emailInUse,
      errors: { email: [VALIDATION.emailInUse] },
    });
    for (const code of ['23505', '23P01', '23503']) {
      const response = await raise(driverError(code, 'violates constraint "secret_name"'));
      expect(response.statusCode, code).toBe(409);
      expect(response.json()).toEqual({ message: SERVER_TEXT.conflict });
    }
    for (const code of ['23514', '23502', '22001', '22003', '22P02', '22021', '54000']) {
      const response = await raise(driverError(code, 'value too long for "secret_column"'));
      expect(response.statusCode, code).toBe(422);
      expect(response.json()).toEqual({ message: SERVER_TEXT.invalidInput });
    }
  });

  it('an HttpError answers its status, message, field errors and extras', async () => {
    const withErrors = await raise(new HttpError(409, 'Taken.', { email: ['Taken.'] }));
    expect(withErrors.statusCode).toBe(409);
    expect(withErrors.json()).toEqual({ message: 'Taken.', errors: { email: ['Taken.'] } });
    const limited = await raise(tooManyRequests(SERVER_TEXT.rateLimited, 12.2));
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('13');
    const logout = await raise(unauthorized(SERVER_TEXT.unauthenticated));
    expect(logout.statusCode).toBe(401);
    expect(logout.json()).toEqual({ message: SERVER_TEXT.unauthenticated, action: 'logout' });
  });

  it('a client error from Fastify keeps a 4xx status; a 429 says the rate-limit text', async () => {
    const tooMany = await raise(Object.assign(new Error('Rate limit exceeded'), { statusCode: 429 }));
    expect(tooMany.statusCode).toBe(429);
    expect(Number(tooMany.headers['retry-after'])).toBeGreaterThan(0);
    expect(tooMany.json()).toEqual({ message: SERVER_TEXT.rateLimited });
    const gone = await raise(Object.assign(new Error('Gone away'), { statusCode: 410 }));
    expect(gone.statusCode).toBe(400);
    expect(gone.json()).toEqual({ message: 'Gone away' });
  });

  it("Fastify's own body parser errors answer 400 with the shared texts", async () => {
    const bad = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      body: '{"a":',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: SERVER_TEXT.malformedJson });
    const large = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ x: 'y'.repeat(1_100_000) }),
    });
    expect(large.statusCode).toBe(400);
    expect(large.json()).toEqual({ message: SERVER_TEXT.bodyTooLarge });
    const media = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/xml' },
      body: '<a/>',
    });
    expect(media.statusCode).toBe(400);
    expect(media.json()).toEqual({ message: SERVER_TEXT.unsupportedMediaType });
  });
});
