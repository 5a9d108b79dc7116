import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_POOL_SIZE } from '../../src/db/database';
import { book, bookingPage, evening, freeSlots } from '../booking/booking-helpers';
import { createTestApp, type TestApp } from '../test-app';

// GET /api/metrics (Prometheus text), scraped as Prometheus would: requests by route pattern and status
// class, booking conflicts, the database pool, the outboxes' backlog and age, and the process; readable
// from this machine, or anywhere with METRICS_TOKEN.

const scrape = (t: TestApp, options: { remoteAddress?: string; headers?: Record<string, string> } = {}) =>
  t.app.inject({ method: 'GET', url: '/api/metrics', ...options });
/** The value of one sample line, e.g. `parley_db_pool_max`. */
const sample = (text: string, series: string): number => {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  if (!line) throw new Error(`no sample ${series} in:\n${text}`);
  return Number(line.slice(series.length + 1));
};

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
    const response = await scrape(t);
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

  it('counts booking conflicts by route: a 409 from a booking change, not a refusal of another kind', async () => {
    const e = await evening(t, { quick: true, schoolName: 'Conflict Academy' });
    const before = await scrape(t);
    const series = 'parley_booking_conflicts_total{route="/api/events/update-slot-for-booking"}';
    const start = sample(before.body, series);
    expect(
      sample(before.body, 'parley_booking_conflicts_total{route="/api/events/update-slot-by-admin"}'),
    ).toBe(0);
    const teacher = e.teachers[0]?.id ?? 0;
    const [slotId] = freeSlots((await bookingPage(e, e.parent.token, e.code)).grid, teacher);
    const item = {
      slotId: slotId ?? 0,
      studentId: e.children[0]?.id ?? null,
      subjectId: e.subjects[0] ?? null,
    };
    expect((await book(e, e.parent.token, [item])).statusCode).toBe(200);
    expect((await book(e, e.parent.token, [item])).statusCode).toBe(409);
    // A 422 on the same route is bad input, and a 409 elsewhere (a subject's name taken) another conflict.
    expect((await book(e, e.parent.token, [{ slotId: -1 }])).statusCode).toBe(422);
    const subject = { name: 'Metrics and Measures' };
    expect((await e.http.post('subjects/create', e.admin.token, subject)).statusCode).toBe(200);
    expect((await e.http.post('subjects/create', e.admin.token, subject)).statusCode).toBe(409);
    const after = (await scrape(t)).body;
    expect(sample(after, series)).toBe(start + 1);
    expect(after).not.toContain('parley_booking_conflicts_total{route="/api/subjects/create"}');
  });

  it('shows the database pool: the embedded database as one connection, PostgreSQL as its pool', async () => {
    const text = (await scrape(t)).body;
    const pg = process.env.TEST_DB === 'pg';
    expect(sample(text, 'parley_db_pool_max')).toBe(pg ? DEFAULT_POOL_SIZE : 1);
    const total = sample(text, 'parley_db_pool_connections{state="total"}');
    const idle = sample(text, 'parley_db_pool_connections{state="idle"}');
    expect(total).toBeGreaterThanOrEqual(1);
    expect(total).toBeLessThanOrEqual(pg ? DEFAULT_POOL_SIZE : 1);
    expect(idle).toBeLessThanOrEqual(total);
    expect(sample(text, 'parley_db_pool_connections{state="waiting"}')).toBe(0);
  });

  it('shows how long the oldest waiting mail and push have waited', async () => {
    const empty = (await scrape(t)).body;
    expect(sample(empty, 'parley_outbox_oldest_pending_age_seconds{outbox="push"}')).toBe(0);
    await t.db
      .insertInto('mail_outbox')
      .values([
        { to_address: 'late@example.org', subject: 'Late', text_body: 'x', html_body: 'x', links: '[]' },
        { to_address: 'older@example.org', subject: 'Gave up', text_body: 'x', html_body: 'x', links: '[]' },
      ])
      .execute();
    await t.db
      .updateTable('mail_outbox')
      .set({ created_at: sql`now() - interval '90 seconds'` })
      .where('to_address', '=', 'late@example.org')
      .execute();
    // A row given up on is not waiting, however old.
    await t.db
      .updateTable('mail_outbox')
      .set({ created_at: sql`now() - interval '1 day'`, status: 'failed' })
      .where('to_address', '=', 'older@example.org')
      .execute();
    const text = (await scrape(t)).body;
    const age = sample(text, 'parley_outbox_oldest_pending_age_seconds{outbox="mail"}');
    expect(age).toBeGreaterThanOrEqual(90);
    expect(age).toBeLessThan(3_600);
    expect(sample(text, 'parley_outbox_rows{outbox="mail",status="failed"}')).toBeGreaterThanOrEqual(1);
  });

  it('refuses other machines when no token is set', async () => {
    const response = await scrape(t, { remoteAddress: '203.0.113.9' });
    expect(response.statusCode).toBe(403);
    expect(response.body).not.toContain('parley_');
  });

  it('answers at /api/metrics only (the old /metrics is gone), documented as plain text', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).body).not.toContain('parley_');
    const spec = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, { get?: { responses: Record<string, { content?: object }> } }>;
    };
    expect(Object.keys(spec.paths['/api/metrics']?.get?.responses['200']?.content ?? {})).toEqual([
      'text/plain',
    ]);
  });
});

describe('metrics behind a token', () => {
  it('answers the bearer of METRICS_TOKEN only, wherever they are', async () => {
    const token = 'a-long-metrics-token-for-tests';
    const t = await createTestApp({ env: { METRICS_TOKEN: token } });
    try {
      const from = { remoteAddress: '203.0.113.9' };
      expect((await scrape(t, from)).statusCode).toBe(401);
      const wrong = { authorization: 'Bearer a-long-metrics-token-for-testz' };
      expect((await scrape(t, { headers: wrong, ...from })).statusCode).toBe(401);
      const right = { authorization: `Bearer ${token}` };
      const response = await scrape(t, { headers: right, ...from });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('parley_outbox_rows');
      // Loopback without the token is not enough once a token is set.
      expect((await scrape(t)).statusCode).toBe(401);
    } finally {
      await t.close();
    }
  });
});
