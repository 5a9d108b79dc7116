import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Viewport } from '@parley/domain/constants';
import type { FastifyBaseLogger } from 'fastify';

// A booking link's page, or a signed-in visitor's home, rendered per request from its first answers, so a
// phone paints the page itself from the HTML (decisions 019, 028). The web build's renderer
// (apps/web/prerender/page-renderer.mjs, copied into the build's .prerendered folder beside the bundle it
// runs) works in a worker thread: a page costs a slow machine a tenth of a second of CPU, which the requests
// in hand must not wait behind. The page is a bonus, never a condition: when the build has no renderer, the
// worker is busy or slow, or a render fails, the visitor gets the page without it (the app draws it from the
// same answers).

export type PageToRender = {
  template: string;
  url: string;
  viewport: Viewport;
  /** Local storage as the page's visitor holds it (a signed-in page: the user), before the app runs. */
  storage?: Record<string, string>;
};

/** Pages waiting for the worker: more, and the rest go without (a mail just sent to a whole school). */
const QUEUE_MAX = 8;
/** A render still running after this is stuck: the worker is replaced. */
const STUCK_MS = 15_000;
/** After a worker failed (it could not start, or crashed), pages go without for this long. */
const RETRY_AFTER_MS = 60_000;

/** A phone's browser names itself "Mobile" (Android phones, iPhones); tablets and desktops do not. */
export const viewportOf = (userAgent: string | undefined): Viewport =>
  /\bMobi/i.test(userAgent ?? '') ? 'phone' : 'desktop';

type Job = { startedAt: number; done: (html: string | null) => void };
type Answer = { id: number; html?: string; error?: string };

export class PageRenderer {
  private worker: Worker | null = null;
  private failedAt = Number.NEGATIVE_INFINITY;
  private readonly jobs = new Map<number, Job>();
  private lastId = 0;

  constructor(
    private readonly webRoot: string,
    /** How long a visitor's page waits for its render (PAGE_RENDER_WAIT_MS): longer, and it goes without. */
    private readonly waitMs: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  private get bundle() {
    return join(this.webRoot, '.prerendered', 'render.js');
  }

  /** The page's HTML, or null when it goes without. */
  render(page: PageToRender): Promise<string | null> {
    const worker = this.waitMs > 0 && this.jobs.size < QUEUE_MAX ? this.started() : null;
    if (!worker) return Promise.resolve(null);
    const id = ++this.lastId;
    return new Promise((resolve) => {
      const wait = setTimeout(() => resolve(null), this.waitMs);
      this.jobs.set(id, {
        startedAt: Date.now(),
        done: (html) => {
          clearTimeout(wait);
          resolve(html);
        },
      });
      worker.postMessage({ id, page: { ...page, bundle: this.bundle, takeOver: 'when-idle' } });
    });
  }

  /**
   * Starts the worker now, when the build has a renderer, with a page of its own (the login page's address):
   * its start-up and the first render's compiling are no visitor's wait.
   */
  async warm(): Promise<void> {
    const template = await readFile(join(this.webRoot, 'index.html'), 'utf8').catch(() => null);
    if (template) await this.render({ template, url: 'http://localhost/auth/login', viewport: 'desktop' });
  }

  /** The worker, started when the build has a renderer; replaced when a render is stuck. */
  private started(): Worker | null {
    const oldest = Math.min(...[...this.jobs.values()].map((job) => job.startedAt));
    if (this.worker && Date.now() - oldest > STUCK_MS) {
      this.log.warn('a page render is stuck: its worker is replaced');
      void this.close();
    }
    if (this.worker) return this.worker;
    if (Date.now() - this.failedAt < RETRY_AFTER_MS) return null;
    const script = join(this.webRoot, '.prerendered', 'page-renderer.mjs');
    if (!existsSync(script) || !existsSync(this.bundle)) return null;
    const jsdom = pathToFileURL(createRequire(import.meta.url).resolve('jsdom')).href;
    const worker = new Worker(script, { workerData: { pageRenderer: true, jsdom, bundle: this.bundle } });
    worker.unref(); // never what keeps the process alive
    worker.on('message', ({ id, html, error }: Answer) => {
      if (error) this.log.warn({ error }, 'a page render failed');
      this.finish(id, html ?? null);
    });
    worker.on('error', (error) => {
      this.failedAt = Date.now();
      this.log.warn({ err: error }, 'the page renderer failed');
    });
    worker.on('exit', () => {
      if (this.worker !== worker) return;
      this.worker = null;
      for (const id of [...this.jobs.keys()]) this.finish(id, null);
    });
    this.worker = worker;
    return worker;
  }

  private finish(id: number, html: string | null) {
    this.jobs.get(id)?.done(html);
    this.jobs.delete(id);
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    for (const id of [...this.jobs.keys()]) this.finish(id, null);
    await worker?.terminate();
  }
}
