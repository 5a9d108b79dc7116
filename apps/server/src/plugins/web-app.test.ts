import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { CSP_NONCE_PLACEHOLDER } from './security-headers';
import { registerWebApp } from './web-app';

describe('registerWebApp', () => {
  it('serves a build that lands after start, the app at / and its routes, and 404 for missing files and API paths', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'parley-dist-'));
    const app = Fastify();
    await registerWebApp(app, dist);
    app.get('/api/ping', async () => ({ ok: true }));
    await app.ready();
    expect((await app.inject({ url: '/' })).statusCode).toBe(503);

    writeFileSync(
      join(dist, 'index.html'),
      `<html><script nonce="${CSP_NONCE_PLACEHOLDER}"></script></html>`,
    );
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'assets', 'index-abc.js'), 'export {}');
    const nonces = new Set<string>();
    for (const url of ['/', '/home', '/book/ptevent/ABCDEF?link=x.y', '/index.html']) {
      const res = await app.inject({ url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      // Every page gets its own nonce in place of the build's placeholder.
      const nonce = /^<html><script nonce="([A-Za-z0-9+/=]{24})"><\/script><\/html>$/.exec(res.body)?.[1];
      expect(nonce).toBeTruthy();
      nonces.add(nonce ?? '');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
    expect(nonces.size).toBe(4);
    const asset = await app.inject({ url: '/assets/index-abc.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect((await app.inject({ url: '/assets/gone.js' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/api/nope' })).json()).toEqual({ message: 'Not found.' });
    expect((await app.inject({ url: '/api/ping' })).json()).toEqual({ ok: true });
    await app.close();
  });

  it('never lets a browser keep the service worker or the manifest, and keeps bundles and icons long', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'parley-dist-'));
    writeFileSync(join(dist, 'index.html'), '<html></html>');
    writeFileSync(join(dist, 'service-worker.js'), 'self.x = 1;');
    writeFileSync(join(dist, 'manifest.webmanifest'), '{"name":"Parley"}');
    writeFileSync(join(dist, 'favicon.svg'), '<svg/>');
    mkdirSync(join(dist, 'icons'));
    writeFileSync(join(dist, 'icons', 'icon-192.png'), 'png');
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'assets', 'index-abc.js'), 'export {}');
    const app = Fastify();
    await registerWebApp(app, dist);
    await app.ready();
    const answer = async (url: string) => {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      return res.headers;
    };
    const worker = await answer('/service-worker.js');
    expect(worker['cache-control']).toBe('no-cache');
    expect(worker['content-type']).toMatch(/^application\/javascript/);
    const manifest = await answer('/manifest.webmanifest');
    expect(manifest['cache-control']).toBe('no-cache');
    expect(manifest['content-type']).toMatch(/^application\/manifest\+json/);
    expect((await answer('/assets/index-abc.js'))['cache-control']).toBe(
      'public, max-age=31536000, immutable',
    );
    expect((await answer('/icons/icon-192.png'))['cache-control']).toBe('public, max-age=2592000');
    expect((await answer('/favicon.svg'))['cache-control']).toBe('public, max-age=3600');
    await app.close();
  });
});
