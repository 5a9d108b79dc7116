import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test-app';

// GET /metrics (Prometheus text): requests by route pattern and status class, the outboxes' backlog and
// the process; readable from this machine, or anywhere with METRICS_TOKEN.

describe('metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('times answers by route pattern and shows the outboxes and the process, to this machine', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/site/config' })).statusCode).toBe(200);
    await t.app.inject({ method: 'GET', url: '/api/events/view?id=123456' });
    await t.app.inject({ method: 'GET', url: '/api/no/such/route/with-a-random-name' });
    const response = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = response.body;
    expect(text).toMatch(
      /^parley_http_request_duration_seconds_count\{method="GET",route="\/api\/site\/config",status="2xx"\} 1$/m,
    );
    expect(text).toMatch(/route="\/api\/events\/view",status="4xx"/);
    expect(text).not.toContain('with-a-random-name');
    expect(text).toMatch(/^parley_http_request_duration_seconds_bucket\{.*le="\+Inf"\} \d+$/m);
    expect(text).toMatch(/^parley_outbox_rows\{outbox="mail",status="pending"\} \d+$/m);
    expect(text).toMatch(/^parley_outbox_rows\{outbox="push",status="failed"\} 0$/m);
    expect(text).toMatch(/^parley_unhandled_errors_total 0$/m);
    expect(text).toMatch(/^parley_process_resident_memory_bytes \d+$/m);
    expect(text).toMatch(/^# TYPE parley_event_loop_delay_p99_seconds gauge$/m);
  });

  it('refuses other machines when no token is set', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9' });
    expect(response.statusCode).toBe(403);
    expect(response.body).not.toContain('parley_');
  });

  it('is not part of the API document', async () => {
    const spec = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(spec.paths)).not.toContain('/metrics');
  });
});

describe('metrics behind a token', () => {
  it('answers the bearer of METRICS_TOKEN only, wherever they are', async () => {
    const token = 'a-long-metrics-token-for-tests';
    const t = await createTestApp({ env: { METRICS_TOKEN: token } });
    try {
      const from = { remoteAddress: '203.0.113.9' };
      expect((await t.app.inject({ method: 'GET', url: '/metrics', ...from })).statusCode).toBe(401);
      const wrong = { authorization: 'Bearer a-long-metrics-token-for-testz' };
      expect(
        (await t.app.inject({ method: 'GET', url: '/metrics', headers: wrong, ...from })).statusCode,
      ).toBe(401);
      const right = { authorization: `Bearer ${token}` };
      const response = await t.app.inject({ method: 'GET', url: '/metrics', headers: right, ...from });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('parley_outbox_rows');
      // Loopback without the token is not enough once a token is set.
      expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    } finally {
      await t.close();
    }
  });
});
