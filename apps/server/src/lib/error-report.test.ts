import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerErrorHandling } from '../plugins/errors';
import { countedReporter, createErrorReporter, type ErrorReporter } from './error-report';

// The error-reporting hook: unhandled errors (500s, failed worker passes) are POSTed to ERROR_REPORT_URL.

const bodyOf = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => resolve(body));
  });

describe('the error report', () => {
  const received: Array<Record<string, unknown>> = [];
  const server = createServer(async (request, response) => {
    received.push(JSON.parse(await bodyOf(request)) as Record<string, unknown>);
    response.end('ok');
  });
  let url = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/report`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('posts the error, where it happened and the app, once a minute for the same failure', async () => {
    received.length = 0;
    let clock = 1_000_000;
    const report = createErrorReporter(url, 'Parley', undefined, () => clock);
    const failure = Object.assign(new Error('relation "x" does not exist'), { code: '42P01' });
    report(failure, { source: 'request', requestId: 'r-1', method: 'GET', route: '/api/x' });
    report(failure, { source: 'request', requestId: 'r-2', method: 'GET', route: '/api/x' });
    report(new Error('smtp down'), { source: 'mail-worker' });
    await vi.waitFor(() => expect(received).toHaveLength(2));
    expect(received[0]).toMatchObject({
      app: 'Parley',
      source: 'request',
      requestId: 'r-1',
      method: 'GET',
      route: '/api/x',
      error: { name: 'Error', message: 'relation "x" does not exist', code: '42P01' },
    });
    expect(JSON.stringify(received[0]?.error)).toContain('error-report.test.ts');
    expect(received[1]).toMatchObject({ source: 'mail-worker', error: { message: 'smtp down' } });
    clock += 61_000;
    report(failure, { source: 'request', requestId: 'r-3', method: 'GET', route: '/api/x' });
    await vi.waitFor(() => expect(received).toHaveLength(3));
  });

  it('never throws when the receiver is away; without a URL it does nothing', async () => {
    const failures: unknown[] = [];
    const report = createErrorReporter('http://127.0.0.1:9/nowhere', 'Parley', (error) =>
      failures.push(error),
    );
    expect(() => report(new Error('x'), { source: 'request' })).not.toThrow();
    await vi.waitFor(() => expect(failures).toHaveLength(1));
    expect(() =>
      createErrorReporter(undefined, 'Parley')(new Error('x'), { source: 'request' }),
    ).not.toThrow();
  });

  it('is called for an unhandled error answered 500, not for refusals or outages, and counted', async () => {
    const reported: Array<Parameters<ErrorReporter>> = [];
    const counted = { errors: 0, countError: () => counted.errors++ };
    const app = Fastify({ logger: false, genReqId: () => randomUUID() });
    registerErrorHandling(
      app,
      countedReporter(counted, (...args) => reported.push(args)),
    );
    let thrown: unknown;
    app.get('/throw/:kind', async () => {
      throw thrown;
    });
    await app.ready();
    try {
      thrown = new Error('boom');
      const crash = await app.inject({ method: 'GET', url: '/throw/a' });
      expect(crash.statusCode).toBe(500);
      thrown = Object.assign(new Error('conn'), { code: 'ECONNREFUSED' });
      expect((await app.inject({ method: 'GET', url: '/throw/b' })).statusCode).toBe(503);
      thrown = Object.assign(new Error('bad'), { statusCode: 404 });
      expect((await app.inject({ method: 'GET', url: '/throw/c' })).statusCode).toBeLessThan(500);
      expect(reported).toHaveLength(1);
      expect(reported[0]?.[1]).toEqual({
        source: 'request',
        requestId: crash.headers['x-request-id'],
        method: 'GET',
        route: '/throw/:kind',
      });
      expect(counted.errors).toBe(1);
    } finally {
      await app.close();
    }
  });
});
