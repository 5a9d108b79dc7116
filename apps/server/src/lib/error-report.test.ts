import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerErrorHandling } from '../plugins/errors';
import { countedReporter, createErrorReporter, type ErrorReporter, stackFrames } from './error-report';
import { parseSentryDsn } from './sentry-dsn';

// The error-reporting hook: unhandled errors (500s, failed worker passes) go to a Sentry-compatible
// tracker in Sentry's envelope protocol. The stand-in below parses what arrives as Sentry's ingestion
// would: the envelope endpoint of the DSN's project, the X-Sentry-Auth header, the envelope's lines.

const bodyOf = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => resolve(body));
  });

type Received = {
  path: string;
  auth: Record<string, string>;
  contentType: string | undefined;
  header: Record<string, unknown>;
  item: { type: string; length: number };
  event: Record<string, unknown> & {
    exception: { values: Array<{ stacktrace: { frames: Array<Record<string, unknown>> } }> };
  };
};

/** Splits an envelope strictly: a header line, an item header whose length is the payload's bytes, the payload. */
function parseEnvelope(body: string): Pick<Received, 'header' | 'item' | 'event'> {
  const [headerLine, itemLine, ...rest] = body.split('\n');
  const item = JSON.parse(itemLine ?? '') as Received['item'];
  const payload = rest.join('\n');
  if (Buffer.byteLength(payload) !== item.length) throw new Error('item length does not match its payload');
  return { header: JSON.parse(headerLine ?? ''), item, event: JSON.parse(payload) };
}

const ORIGIN = { appName: 'Parley', version: '9.9.9', environment: 'production' };

describe('the error report', () => {
  const received: Received[] = [];
  let status = 200;
  const server = createServer(async (request, response) => {
    const auth = Object.fromEntries(
      (request.headers['x-sentry-auth'] ?? '')
        .toString()
        .replace(/^Sentry /, '')
        .split(/,\s*/)
        .map((pair) => pair.split('=') as [string, string]),
    );
    received.push({
      path: request.url ?? '',
      auth,
      contentType: request.headers['content-type'],
      ...parseEnvelope(await bodyOf(request)),
    });
    response.statusCode = status;
    response.end('{}');
  });
  let base = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  const target = (dsn: string) => {
    const parsed = parseSentryDsn(dsn);
    if (!parsed) throw new Error(`not a DSN: ${dsn}`);
    return parsed;
  };

  it('reads a DSN as Sentry does, and refuses what is not one', () => {
    expect(parseSentryDsn('https://abc123@o1.ingest.sentry.io/42')).toEqual({
      dsn: 'https://abc123@o1.ingest.sentry.io/42',
      publicKey: 'abc123',
      envelopeUrl: 'https://o1.ingest.sentry.io/api/42/envelope/',
    });
    // Self-hosted under a path, with a legacy secret (ignored).
    expect(parseSentryDsn('http://key:secret@errors.school.example:9000/glitchtip/7')?.envelopeUrl).toBe(
      'http://errors.school.example:9000/glitchtip/api/7/envelope/',
    );
    for (const bad of [
      'https://o1.ingest.sentry.io/42',
      'https://k@host/',
      'https://k@host/project',
      'ftp://k@h/1',
      'nope',
    ])
      expect(parseSentryDsn(bad), bad).toBeUndefined();
  });

  it("posts Sentry's envelope to the project's endpoint with its auth header, once a minute per failure", async () => {
    received.length = 0;
    let clock = 1_000_000;
    const report = createErrorReporter(
      target(`http://public-key@${base}/42`),
      ORIGIN,
      undefined,
      () => clock,
    );
    const failure = Object.assign(new Error('relation "x" does not exist'), { code: '42P01' });
    report(failure, { source: 'request', requestId: 'r-1', method: 'GET', route: '/api/x' });
    report(failure, { source: 'request', requestId: 'r-2', method: 'GET', route: '/api/x' });
    report(new Error('smtp down'), { source: 'mail-worker' });
    await vi.waitFor(() => expect(received).toHaveLength(2));
    const [first, second] = received;
    expect(first?.path).toBe('/api/42/envelope/');
    expect(first?.contentType).toBe('application/x-sentry-envelope');
    expect(first?.auth).toEqual({
      sentry_version: '7',
      sentry_client: 'parley/9.9.9',
      sentry_key: 'public-key',
    });
    expect(first?.item.type).toBe('event');
    expect(first?.header.event_id).toBe(first?.event.event_id);
    expect(first?.header.dsn).toBe(`http://public-key@${base}/42`);
    expect(first?.event).toMatchObject({
      platform: 'node',
      level: 'error',
      release: 'parley@9.9.9',
      environment: 'production',
      transaction: 'GET /api/x',
      tags: { app: 'Parley', source: 'request', route: '/api/x', request_id: 'r-1', code: '42P01' },
    });
    expect(first?.event.event_id).toMatch(/^[0-9a-f]{32}$/);
    const [exception] = first?.event.exception.values ?? [];
    expect(exception).toMatchObject({ type: 'Error', value: 'relation "x" does not exist' });
    // Frames oldest call first: the last is this test file, where the error was made.
    const frames = exception?.stacktrace.frames ?? [];
    expect(frames.at(-1)?.filename).toMatch(/error-report\.test\.ts$/);
    expect(frames.at(-1)).toMatchObject({ in_app: true, lineno: expect.any(Number) });
    expect(second?.event).toMatchObject({ logger: 'mail-worker', tags: { source: 'mail-worker' } });
    expect(second?.event.exception.values[0]).toMatchObject({ value: 'smtp down' });
    clock += 61_000;
    report(failure, { source: 'request', requestId: 'r-3', method: 'GET', route: '/api/x' });
    await vi.waitFor(() => expect(received).toHaveLength(3));
  });

  it('never throws when the tracker is away or refuses; without a DSN it does nothing', async () => {
    const failures: unknown[] = [];
    const away = createErrorReporter(target('http://k@127.0.0.1:9/1'), ORIGIN, (error) =>
      failures.push(error),
    );
    expect(() => away(new Error('x'), { source: 'request' })).not.toThrow();
    await vi.waitFor(() => expect(failures).toHaveLength(1));
    status = 403;
    try {
      const refused = createErrorReporter(target(`http://k@${base}/1`), ORIGIN, (error) =>
        failures.push(error),
      );
      refused(new Error('y'), { source: 'request' });
      await vi.waitFor(() => expect(failures).toHaveLength(2));
      expect(String(failures[1])).toContain('403');
    } finally {
      status = 200;
    }
    expect(() => createErrorReporter(undefined, ORIGIN)(new Error('x'), { source: 'request' })).not.toThrow();
  });

  it('reads frames from V8 stack lines, with and without a function name', () => {
    const frames = stackFrames(
      [
        'Error: boom',
        '    at inner (/srv/parley/dist/main.js:10:5)',
        '    at /srv/parley/node_modules/fastify/lib/route.js:3:1',
        '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
      ].join('\n'),
    );
    expect(frames).toEqual([
      {
        function: 'process.processTicksAndRejections',
        filename: 'node:internal/process/task_queues',
        lineno: 95,
        colno: 5,
        in_app: false,
      },
      { filename: '/srv/parley/node_modules/fastify/lib/route.js', lineno: 3, colno: 1, in_app: false },
      { function: 'inner', filename: '/srv/parley/dist/main.js', lineno: 10, colno: 5, in_app: true },
    ]);
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
