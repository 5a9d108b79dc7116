import { Readable } from 'node:stream';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';
import { COMPRESS_MIN_BYTES, pickEncoding, registerCompression } from './compression';

describe('pickEncoding', () => {
  it('takes brotli over gzip, honours q=0 and *, and answers none when neither is accepted', () => {
    expect(pickEncoding(undefined)).toBeNull();
    expect(pickEncoding('')).toBeNull();
    expect(pickEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(pickEncoding('gzip')).toBe('gzip');
    expect(pickEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(pickEncoding('BR;Q=0.1')).toBe('br');
    expect(pickEncoding('identity')).toBeNull();
    expect(pickEncoding('deflate')).toBeNull();
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding('*;q=0')).toBeNull();
    expect(pickEncoding('br;q=0, *')).toBe('gzip');
  });
});

describe('registerCompression', () => {
  const big = {
    rows: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `Parent ${i}`, email: `p${i}@x.test` })),
  };
  const csv = `id,name\n${Array.from({ length: 300 }, (_, i) => `${i},Name ${i}`).join('\n')}\n`;
  const app = Fastify();
  registerCompression(app);
  app.get('/big', async () => big);
  app.get('/small', async () => ({ ok: true }));
  app.get('/csv', async (_request, reply) =>
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="x.csv"')
      .send(csv),
  );
  app.get('/png', async (_request, reply) => reply.type('image/png').send(Buffer.alloc(5000)));
  app.get('/stream', async (_request, reply) => reply.type('text/plain').send(Readable.from([csv])));
  beforeAll(() => app.ready());
  afterAll(() => app.close());

  it('gzips or brotli-compresses a large JSON answer when asked, with Vary, and sends it plain when not', async () => {
    const gz = await app.inject({ url: '/big', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toBe('Accept-Encoding');
    expect(gz.headers['content-type']).toMatch(/^application\/json/);
    expect(Number(gz.headers['content-length'])).toBe(gz.rawPayload.length);
    expect(gz.rawPayload.length).toBeLessThan(JSON.stringify(big).length / 3);
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(big);

    const br = await app.inject({ url: '/big', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(big);

    const plain = await app.inject({ url: '/big' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    expect(plain.json()).toEqual(big);
  });

  it('leaves small answers, images and streams as they are, and compresses a CSV download', async () => {
    const small = await app.inject({ url: '/small', headers: { 'accept-encoding': 'br' } });
    expect(small.body.length).toBeLessThan(COMPRESS_MIN_BYTES);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual({ ok: true });
    const png = await app.inject({ url: '/png', headers: { 'accept-encoding': 'br' } });
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.rawPayload.length).toBe(5000);
    const stream = await app.inject({ url: '/stream', headers: { 'accept-encoding': 'br' } });
    expect(stream.headers['content-encoding']).toBeUndefined();
    expect(stream.body).toBe(csv);
    const download = await app.inject({ url: '/csv', headers: { 'accept-encoding': 'gzip' } });
    expect(download.headers['content-encoding']).toBe('gzip');
    expect(download.headers['content-disposition']).toBe('attachment; filename="x.csv"');
    expect(gunzipSync(download.rawPayload).toString()).toBe(csv);
  });
});

describe('compression in the app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('a large API answer (the OpenAPI document) is gzipped when asked and plain when not', async () => {
    const plain = await t.app.inject({ url: '/api/docs/json' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(10_000);
    const gz = await t.app.inject({ url: '/api/docs/json', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.statusCode).toBe(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toMatch(/Accept-Encoding/);
    // Still the API's answer in every other respect.
    expect(gz.headers['content-security-policy']).toBe(plain.headers['content-security-policy']);
    expect(gz.rawPayload.length).toBeLessThan(plain.body.length / 4);
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
  });
});
