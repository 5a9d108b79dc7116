import { Writable } from 'node:stream';
import { NAMED_ROUTES, routeTo } from '@parley/domain/routes';
import { ticketPath } from '@parley/domain/tickets';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/test-app';
import { loggedUrl, RequestLog, SECRET_PARAMETERS } from './request-log';

const SECRET = 'Zq7_secret-VALUE.1';

describe('loggedUrl', () => {
  it('keeps the path and other parameters, never a mailed token, a booking link or a ticket code', () => {
    expect(loggedUrl('/api/site/verify-school?token=abc.DEF_1')).toBe(
      '/api/site/verify-school?token=[redacted]',
    );
    expect(loggedUrl('/book/ptevent/ABC?utm=x&link=p.q&x=1')).toBe(
      '/book/ptevent/[redacted]?utm=x&link=[redacted]&x=1',
    );
    expect(loggedUrl(`/api/tickets/validate-ticket?ticketId=${SECRET}&eventId=4`)).toBe(
      '/api/tickets/validate-ticket?ticketId=[redacted]&eventId=4',
    );
    expect(loggedUrl(`${ticketPath(SECRET)}?from=camera`)).toBe('/t/[redacted]?from=camera');
    expect(loggedUrl(`/api/booking/event?code=${SECRET}`)).toBe('/api/booking/event?code=[redacted]');
    expect(loggedUrl('/api/events/index?forced=1')).toBe('/api/events/index?forced=1');
    expect(loggedUrl('/api/people/view?id=7&subjectCode=MA')).toBe('/api/people/view?id=7&subjectCode=MA');
  });

  it('covers every page of the web app that takes a code or token in its path', () => {
    const paths = [...Object.values(NAMED_ROUTES), ticketPath(':code')].filter((path) =>
      /:(code|token)\b/.test(path),
    );
    expect(paths.length).toBeGreaterThan(2);
    for (const path of paths) {
      const url = path.replace(/:(code|token)\b/, SECRET).replace(/:\w+/g, '7');
      expect(loggedUrl(url), path).not.toContain(SECRET);
    }
    expect(loggedUrl(routeTo('book.event', { code: SECRET }, { link: SECRET }))).not.toContain(SECRET);
  });

  it('covers every query parameter of the API that carries a code, token, link or secret', async () => {
    const t = await createTestApp();
    try {
      await t.app.ready();
      const doc = t.app.swagger() as {
        paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string }> }>>;
      };
      const names = new Set(
        Object.values(doc.paths)
          .flatMap((operations) => Object.values(operations))
          .flatMap((operation) => operation.parameters ?? [])
          .filter((parameter) => parameter.in === 'query')
          .map((parameter) => parameter.name),
      );
      const secretLooking = [...names].filter((name) => /token|code|ticket|link|secret|key/i.test(name));
      expect(secretLooking.length).toBeGreaterThan(1);
      for (const name of secretLooking) {
        expect(SECRET_PARAMETERS, name).toContain(name);
        expect(loggedUrl(`/api/x?a=1&${name}=${SECRET}`), name).not.toContain(SECRET);
      }
    } finally {
      await t.close();
    }
  });
});

describe('the request log', () => {
  it('writes a line per request with a ticket code redacted', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = Fastify({ logger: { level: 'info', stream }, logController: new RequestLog() });
    app.get('/t/:code', async () => 'ticket');
    app.get('/api/tickets/validate-ticket', async () => ({ ok: true }));
    try {
      await app.inject({ url: ticketPath(SECRET) });
      await app.inject({ url: `/api/tickets/validate-ticket?ticketId=${SECRET}&eventId=3` });
      const requests = lines.map((line) => JSON.parse(line)).filter((line) => line.msg === 'request');
      expect(requests.map((line) => line.url)).toEqual([
        '/t/[redacted]',
        '/api/tickets/validate-ticket?ticketId=[redacted]&eventId=3',
      ]);
      expect(lines.join('')).not.toContain(SECRET);
    } finally {
      await app.close();
    }
  });
});
