import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { PageRenderer, viewportOf } from './page-renderer';

// The renderer's worker is the web build's (apps/web/prerender/page-renderer.mjs, run through the browser
// journeys); here a stand-in of the same protocol shows what the server does with its answers, its
// silence and its failures: a page is a bonus, never a wait beyond PAGE_RENDER_WAIT_MS.

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** A build whose renderer answers each page as `answer` says (a worker of the renderer's protocol). */
function buildWith(answer: string): string {
  const root = mkdtempSync(join(tmpdir(), 'parley-page-renderer-'));
  roots.push(root);
  mkdirSync(join(root, '.prerendered'));
  writeFileSync(join(root, 'index.html'), '<html><body><div id="root"></div></body></html>');
  writeFileSync(join(root, '.prerendered', 'render.js'), '');
  writeFileSync(
    join(root, '.prerendered', 'page-renderer.mjs'),
    `import { parentPort } from 'node:worker_threads';
parentPort.on('message', ({ id, page }) => { ${answer} });`,
  );
  return root;
}

const log = { warn: () => {} } as unknown as FastifyBaseLogger;
const page = {
  template: '<html></html>',
  url: 'http://localhost/book/event/ABC',
  viewport: 'phone' as const,
};

describe('PageRenderer', () => {
  it('answers a page with what its worker rendered, one answer per page', async () => {
    const renderer = new PageRenderer(
      buildWith(
        `parentPort.postMessage({ id, html: page.url + ' ' + page.viewport + ' ' + page.takeOver + ' ' + page.bundle.endsWith('render.js') });`,
      ),
      5_000,
      log,
    );
    const [one, two] = await Promise.all([
      renderer.render(page),
      renderer.render({ ...page, url: 'http://localhost/book/event/DEF', viewport: 'desktop' }),
    ]);
    expect(one).toBe('http://localhost/book/event/ABC phone when-idle true');
    expect(two).toBe('http://localhost/book/event/DEF desktop when-idle true');
    await renderer.close();
  });

  it('goes without when the worker is slow, fails, or is gone, and when rendering is off', async () => {
    const slow = new PageRenderer(buildWith('/* never answers */'), 200, log);
    const started = Date.now();
    expect(await slow.render(page)).toBeNull();
    expect(Date.now() - started).toBeLessThan(5_000);
    await slow.close();

    const failing = new PageRenderer(
      buildWith(`parentPort.postMessage({ id, error: 'no #root' });`),
      5_000,
      log,
    );
    expect(await failing.render(page)).toBeNull();
    await failing.close();

    const dying = new PageRenderer(buildWith('process.exit(1);'), 5_000, log);
    expect(await dying.render(page)).toBeNull();
    await dying.close();

    const off = new PageRenderer(buildWith(`parentPort.postMessage({ id, html: 'x' });`), 0, log);
    expect(await off.render(page)).toBeNull();
    await off.close();
  });

  it('after a worker that cannot start, pages go without for a while rather than start another each', async () => {
    const root = buildWith('');
    const started = join(root, 'started.txt');
    writeFileSync(
      join(root, '.prerendered', 'page-renderer.mjs'),
      `import { appendFileSync } from 'node:fs';
appendFileSync(${JSON.stringify(started)}, 'x');
throw new Error('jsdom is missing');`,
    );
    const renderer = new PageRenderer(root, 5_000, log);
    expect(await renderer.render(page)).toBeNull();
    expect(await renderer.render(page)).toBeNull();
    expect(readFileSync(started, 'utf8')).toBe('x');
    await renderer.close();
  });

  it('renders nothing for a build without a renderer (or before the build has landed)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'parley-page-renderer-'));
    roots.push(root);
    const renderer = new PageRenderer(root, 5_000, log);
    expect(await renderer.render(page)).toBeNull();
    await renderer.warm();
    await renderer.close();
  });
});

describe('viewportOf', () => {
  it('takes a browser that names itself Mobile for a phone, anything else for a desktop', () => {
    const iPhone =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';
    const android =
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
    const tablet =
      'Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
    const desktop =
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
    expect(viewportOf(iPhone)).toBe('phone');
    expect(viewportOf(android)).toBe('phone');
    expect(viewportOf(tablet)).toBe('desktop');
    expect(viewportOf(desktop)).toBe('desktop');
    expect(viewportOf(undefined)).toBe('desktop');
  });
});
