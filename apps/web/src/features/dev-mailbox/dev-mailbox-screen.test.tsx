import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client';
import { reloadSession } from '../../lib/session';
import { renderAt } from '../../test-support/render-app';
import {
  type Handler,
  json,
  type RecordedRequest,
  siteConfig,
  stubFetch,
} from '../../test-support/screen-fixtures';
import type { DevMail } from './api';

// The dev mailbox screen through the real router, guard, providers and API client; only fetch is faked.

const booking: DevMail = {
  id: 12,
  to: 'parent@example.org',
  subject: 'Your booking for Spring evening',
  text: 'See you on Thursday.\n\nView your booking: http://parley.test/home',
  html: '<p>See you on Thursday.</p>',
  links: ['http://parley.test/home'],
  attachments: [
    {
      filename: 'spring-evening.ics',
      contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
      size: 412,
    },
    { filename: 'Zoë notes.txt', contentType: 'text/plain; charset=utf-8', size: 2048 },
  ],
  status: 'sent',
  createdAt: '2026-03-01T10:00:00.000Z',
};

const plain: DevMail = {
  ...booking,
  id: 11,
  subject: 'Confirm your Parley registration',
  attachments: [],
};

let routes: Record<string, Handler>;
let requests: RecordedRequest[];

beforeEach(() => {
  localStorage.clear();
  reloadSession();
  queryClient.clear();
  requests = [];
  routes = {
    '/api/site/config': () => json(200, siteConfig),
    '/api/dev/mailbox': () => json(200, { items: [booking, plain] }),
    '/api/dev/mailbox/view': (url) => {
      const mail = [booking, plain].find((item) => String(item.id) === url.searchParams.get('id'));
      return mail ? json(200, mail) : json(404, { message: 'No such mail.' });
    },
  };
  stubFetch(
    (path) => routes[path],
    () => requests,
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('dev mailbox attachments', () => {
  it('shows each attached file by name as a link that downloads it from the mailbox API', async () => {
    renderAt(`/dev/mailbox?id=${booking.id}`);
    const article = await screen.findByRole('article', { name: booking.subject });
    const files = within(article).getByRole('list', { name: 'Attachments' });
    const links = within(files).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual(['spring-evening.ics', 'Zoë notes.txt']);
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/api/dev/mailbox/attachment?id=12&index=0',
      '/api/dev/mailbox/attachment?id=12&index=1',
    ]);
    expect(links.map((link) => link.getAttribute('download'))).toEqual([
      'spring-evening.ics',
      'Zoë notes.txt',
    ]);
    expect(files.textContent).toContain('text/calendar · 412 B');
    expect(files.textContent).toContain('text/plain · 2.0 KB');
    // The file is fetched only when the link is followed, not while the screen loads.
    expect(requests.some((request) => request.path.includes('/attachment'))).toBe(false);
  });

  it('names the files in the mail list too', async () => {
    renderAt('/dev/mailbox');
    const list = await screen.findByRole('list', { name: 'Mails' });
    const items = within(list).getAllByRole('listitem');
    expect(items[0]?.textContent).toContain('spring-evening.ics · Zoë notes.txt');
    expect(items[1]?.textContent).not.toContain('.ics');
  });

  it('shows no attachments section for a mail without files', async () => {
    renderAt(`/dev/mailbox?id=${plain.id}`);
    const article = await screen.findByRole('article', { name: plain.subject });
    expect(within(article).queryByRole('list', { name: 'Attachments' })).toBeNull();
    expect(within(article).queryByText('Attachments')).toBeNull();
  });
});
