import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { CSP_NONCE_PLACEHOLDER } from './security-headers';
import { cacheControlFor, registerWebApp } from './web-app';

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
    writeFileSync(join(dist, 'assets', 'index-Bs4e88wT.js'), 'export {}');
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
    const asset = await app.inject({ url: '/assets/index-Bs4e88wT.js' });
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
    writeFileSync(join(dist, 'assets', 'index-Bs4e88wT.js'), 'export {}');
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
    expect((await answer('/assets/index-Bs4e88wT.js'))['cache-control']).toBe(
      'public, max-age=31536000, immutable',
    );
    expect((await answer('/icons/icon-192.png'))['cache-control']).toBe('public, max-age=2592000');
    expect((await answer('/favicon.svg'))['cache-control']).toBe('public, max-age=3600');
    await app.close();
  });
});

describe('precompressed files', () => {
  it('sends the brotli or gzip file the browser accepts, with the type, length, Vary and immutable header', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'parley-dist-'));
    writeFileSync(join(dist, 'index.html'), '<html></html>');
    mkdirSync(join(dist, 'assets'));
    mkdirSync(join(dist, '.vite'));
    writeFileSync(join(dist, '.vite', 'manifest.json'), '{}');
    const entry = `export const rows = ${JSON.stringify(Array.from({ length: 500 }, (_, i) => `row ${i}`))};`;
    const file = join(dist, 'assets', 'index-Bs4e88wT.js');
    writeFileSync(file, entry);
    writeFileSync(`${file}.br`, brotliCompressSync(entry));
    writeFileSync(`${file}.gz`, gzipSync(entry));
    const worker = 'self.addEventListener("fetch", () => {});'.repeat(50);
    writeFileSync(join(dist, 'service-worker.js'), worker);
    writeFileSync(join(dist, 'service-worker.js.br'), brotliCompressSync(worker));
    const app = Fastify();
    await registerWebApp(app, dist);
    await app.ready();

    const url = '/assets/index-Bs4e88wT.js';
    const br = await app.inject({ url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
    expect(br.rawPayload.length).toBeLessThan(entry.length / 3);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(entry);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const gz = await app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(entry);
    expect(gz.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const plain = await app.inject({ url });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.body).toBe(entry);

    // The service worker's brotli file is still the service worker: never kept.
    const sw = await app.inject({ url: '/service-worker.js', headers: { 'accept-encoding': 'br' } });
    expect(sw.headers['content-encoding']).toBe('br');
    expect(sw.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(sw.rawPayload).toString()).toBe(worker);

    // The build's manifest is not served.
    expect((await app.inject({ url: '/.vite/manifest.json' })).statusCode).toBe(404);
    await app.close();
  });

  it('keeps only hashed names under /assets for a year', () => {
    expect(cacheControlFor('/assets/index-Bs4e88wT.js')).toBe('public, max-age=31536000, immutable');
    expect(cacheControlFor('/assets/rolldown-runtime-WkwZ5CU-.js.br')).toBe(
      'public, max-age=31536000, immutable',
    );
    expect(cacheControlFor('/assets/index.js')).toBe('public, max-age=3600');
    expect(cacheControlFor('/service-worker.js.gz')).toBe('no-cache');
  });
});

describe('page preloads', () => {
  it("names the chunks of the booking, login and home pages in their HTML, beyond the entry's own", async () => {
    const dist = mkdtempSync(join(tmpdir(), 'parley-dist-'));
    writeFileSync(
      join(dist, 'index.html'),
      `<html><head><script nonce="${CSP_NONCE_PLACEHOLDER}"></script></head></html>`,
    );
    mkdirSync(join(dist, '.vite'));
    const manifest = {
      'index.html': { file: 'assets/index-AAAAAAAA.js', isEntry: true, imports: ['_react-BBBBBBBB.js'] },
      '_react-BBBBBBBB.js': { file: 'assets/react-BBBBBBBB.js' },
      '_mui-CCCCCCCC.js': { file: 'assets/mui-CCCCCCCC.js', imports: ['_react-BBBBBBBB.js'] },
      'src/app/layouts/booking-layout.tsx': {
        file: 'assets/booking-layout-DDDDDDDD.js',
        imports: ['_mui-CCCCCCCC.js'],
      },
      'src/features/booking/components/booking-page.tsx': {
        file: 'assets/booking-page-EEEEEEEE.js',
        imports: ['_mui-CCCCCCCC.js', '_react-BBBBBBBB.js'],
      },
      'src/app/layouts/auth-layout.tsx': { file: 'assets/auth-layout-FFFFFFFF.js' },
      'src/features/auth/components/login-page.tsx': { file: 'assets/login-page-GGGGGGGG.js' },
      'src/app/layouts/main-layout.tsx': { file: 'assets/main-layout-HHHHHHHH.js' },
      'src/features/home/components/home-page.tsx': { file: 'assets/home-page-IIIIIIII.js' },
    };
    writeFileSync(join(dist, '.vite', 'manifest.json'), JSON.stringify(manifest));
    const app = Fastify();
    await registerWebApp(app, dist);
    await app.ready();
    const preloads = async (url: string) => {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      const nonce = /<script nonce="([^"]+)">/.exec(res.body)?.[1];
      const links = [
        ...res.body.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)" nonce="([^"]+)">/g),
      ];
      for (const link of links) expect(link[2]).toBe(nonce);
      expect(res.body).toMatch(/<\/head><\/html>$/);
      return links.map((link) => link[1]).sort();
    };
    expect(await preloads('/book/ptevent/ABCDEF?link=x.y')).toEqual([
      '/assets/booking-layout-DDDDDDDD.js',
      '/assets/booking-page-EEEEEEEE.js',
      '/assets/mui-CCCCCCCC.js',
    ]);
    expect(await preloads('/book/event/ABCDEF')).toHaveLength(3);
    expect(await preloads('/auth/login?returnTo=%2Fhome')).toEqual([
      '/assets/auth-layout-FFFFFFFF.js',
      '/assets/login-page-GGGGGGGG.js',
    ]);
    expect(await preloads('/home')).toEqual([
      '/assets/home-page-IIIIIIII.js',
      '/assets/main-layout-HHHHHHHH.js',
    ]);
    expect(await preloads('/events')).toEqual([]);
    expect(await preloads('/book/event/ABCDEF/extra')).toEqual([]);
    await app.close();
  });
});

describe('prerendered pages', () => {
  it('answers the login page and a booking link with their prerendered document, with a fresh nonce', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'parley-dist-'));
    const page = (body: string) =>
      `<html><head><script nonce="${CSP_NONCE_PLACEHOLDER}">x()</script><style nonce="${CSP_NONCE_PLACEHOLDER}"></style></head><body>${body}</body></html>`;
    writeFileSync(join(dist, 'index.html'), page('<div id="root"></div>'));
    mkdirSync(join(dist, '.prerendered'));
    writeFileSync(
      join(dist, '.prerendered', 'login.html'),
      page('<div id="root" data-prerendered>login</div>'),
    );
    writeFileSync(
      join(dist, '.prerendered', 'book-ptevent.html'),
      page('<div id="root" data-prerendered>booking</div>'),
    );
    const app = Fastify();
    await registerWebApp(app, dist);
    await app.ready();
    const body = async (url: string) => {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      const nonces = [...res.body.matchAll(/nonce="([^"]+)"/g)].map((match) => match[1]);
      expect(nonces).toHaveLength(2);
      expect(nonces[0]).toMatch(/^[A-Za-z0-9+/=]{24}$/);
      expect(nonces[1]).toBe(nonces[0]);
      return /<body>(.*)<\/body>/.exec(res.body)?.[1];
    };
    expect(await body('/auth/login')).toBe('<div id="root" data-prerendered>login</div>');
    expect(await body('/auth/login?returnTo=%2Fevents')).toBe('<div id="root" data-prerendered>login</div>');
    expect(await body('/book/ptevent/ABCDEF?link=x.y')).toBe('<div id="root" data-prerendered>booking</div>');
    // No prerendered document (a build without it, or not yet written): index.html.
    expect(await body('/book/event/ABCDEF')).toBe('<div id="root"></div>');
    expect(await body('/home')).toBe('<div id="root"></div>');
    expect(await body('/auth/register')).toBe('<div id="root"></div>');
    expect(await body('/login')).toBe('<div id="root"></div>'); // the app's redirect to /auth/login
    // Only ever as a page, with its nonce: the file itself is not served.
    expect((await app.inject({ url: '/.prerendered/login.html' })).statusCode).toBe(404);
    await app.close();
  });

  it("puts the page's chunks among the script tags a prerendered page holds back until it is painted", async () => {
    const dist = mkdtempSync(join(tmpdir(), 'parley-dist-'));
    writeFileSync(join(dist, 'index.html'), '<html><head></head><body><div id="root"></div></body></html>');
    mkdirSync(join(dist, '.prerendered'));
    writeFileSync(
      join(dist, '.prerendered', 'login.html'),
      `<html><head><template id="prerendered-scripts"><script type="module" src="/assets/index-AAAAAAAA.js"></script></template></head><body></body></html>`,
    );
    mkdirSync(join(dist, '.vite'));
    writeFileSync(
      join(dist, '.vite', 'manifest.json'),
      JSON.stringify({
        'index.html': { file: 'assets/index-AAAAAAAA.js', isEntry: true },
        'src/app/layouts/auth-layout.tsx': { file: 'assets/auth-layout-FFFFFFFF.js' },
        'src/features/auth/components/login-page.tsx': { file: 'assets/login-page-GGGGGGGG.js' },
      }),
    );
    const app = Fastify();
    await registerWebApp(app, dist);
    await app.ready();
    const { body } = await app.inject({ url: '/auth/login' });
    const held = /<template id="prerendered-scripts">(.*)<\/template><\/head>/.exec(body)?.[1] ?? '';
    expect(held.match(/href="[^"]+"/g)).toEqual([
      'href="/assets/auth-layout-FFFFFFFF.js"',
      'href="/assets/login-page-GGGGGGGG.js"',
    ]);
    expect(held).toMatch(/^<script type="module"/);
    await app.close();
  });
});
