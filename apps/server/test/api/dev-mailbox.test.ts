import { SERVER_TEXT } from '@parley/domain/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendDueMail } from '../../src/mail/mail-worker';
import { enqueueMail, type OutgoingMail } from '../../src/mail/outbox.repository';
import { devMailboxTransport } from '../../src/mail/transport';
import { signedUpSchool, uniqueIp } from '../factories';
import { lastMailTo } from '../mailbox';
import { createTestApp, type TestApp } from '../test-app';

// The dev mailbox shows what a mail carries: its attached files by name, each one downloadable as sent.

const ics = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//Parley//EN',
  'METHOD:PUBLISH',
  'BEGIN:VEVENT',
  'UID:booking-7@parley',
  'SUMMARY:Parents’ evening with Ms Ó Súilleabháin',
  'DTSTART:20260312T200000Z',
  'DTEND:20260312T201000Z',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

const booking: OutgoingMail = {
  schoolId: null,
  to: 'parent@example.org',
  subject: 'Your booking for Spring evening',
  text: 'See you on Thursday.',
  html: '<p>See you on Thursday.</p>',
  links: ['http://parley.test/home'],
  attachments: [
    { filename: 'spring-evening.ics', contentType: 'text/calendar', content: ics },
    { filename: 'Zoë "notes".txt', contentType: 'text/plain', content: 'Bring the report.' },
  ],
};

type Item = {
  id: number;
  subject: string;
  attachments: Array<{ filename: string; contentType: string; size: number }>;
};

describe('dev mailbox attachments', () => {
  let t: TestApp;
  let mail: Item;
  let plain: Item;
  const lines: string[] = [];
  beforeAll(async () => {
    t = await createTestApp();
    await enqueueMail(t.db, booking);
    await enqueueMail(t.db, { ...booking, subject: 'No files', attachments: undefined });
    expect(
      await sendDueMail(
        t.db,
        devMailboxTransport(t.db, (line) => lines.push(line)),
      ),
    ).toBe(2);
    const { items } = (await t.app.inject({ method: 'GET', url: '/api/dev/mailbox' })).json() as {
      items: Item[];
    };
    [plain, mail] = items as [Item, Item];
  });
  afterAll(() => t.close());

  const download = (id: number, index: number | string) =>
    t.app.inject({ method: 'GET', url: `/api/dev/mailbox/attachment?id=${id}&index=${index}` });

  it('logs one line per delivered mail with its links and attached file names', () => {
    expect(lines).toEqual([
      'dev mailbox: "Your booking for Spring evening" to parent@example.org (attached: spring-evening.ics, Zoë "notes".txt) http://parley.test/home',
      'dev mailbox: "No files" to parent@example.org http://parley.test/home',
    ]);
  });

  it('lists each mail’s attachments by file name, type and size, and none for a mail without', async () => {
    expect(plain).toMatchObject({ subject: 'No files', attachments: [] });
    expect(mail.subject).toBe('Your booking for Spring evening');
    expect(mail.attachments).toEqual([
      {
        filename: 'spring-evening.ics',
        contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
        size: Buffer.byteLength(ics, 'utf8'),
      },
      { filename: 'Zoë "notes".txt', contentType: 'text/plain; charset=utf-8', size: 17 },
    ]);
    const one = await t.app.inject({ method: 'GET', url: `/api/dev/mailbox/view?id=${mail.id}` });
    expect(one.statusCode).toBe(200);
    expect((one.json() as Item).attachments).toEqual(mail.attachments);
  });

  it('downloads a calendar file with its content type, as an attachment named like the file', async () => {
    const response = await download(mail.id, 0);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/calendar; charset=utf-8; method=PUBLISH');
    expect(response.headers['content-disposition']).toBe('attachment; filename="spring-evening.ics"');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.rawPayload.equals(Buffer.from(ics, 'utf8'))).toBe(true);
  });

  it('keeps quotes out of the header and gives a name beyond ASCII in its UTF-8 form too', async () => {
    const response = await download(mail.id, 1);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="Zo_ _notes_.txt"; filename*=UTF-8''Zo%C3%AB%20_notes_.txt`,
    );
    expect(response.body).toBe('Bring the report.');
  });

  it('answers 404 for an index past the last file, a mail without files and a missing mail', async () => {
    for (const response of [
      await download(mail.id, 2),
      await download(plain.id, 0),
      await download(999999, 0),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'No such attachment.' });
    }
  });

  it('refuses an index that is not a whole number from 0 with 422 on the index', async () => {
    for (const index of ['-1', '1.5', 'first']) {
      const response = await download(mail.id, index);
      expect(response.statusCode, index).toBe(422);
      expect(response.json(), index).toMatchObject({
        message: SERVER_TEXT.invalidInput,
        errors: { index: [expect.any(String)] },
      });
    }
  });

  it('documents the download in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    expect(doc.paths['/api/dev/mailbox/attachment']).toHaveProperty('get');
  });
});

describe('with SMTP_URL set', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { SMTP_URL: 'smtp://mail.example.org:587' } });
  });
  afterAll(() => t.close());

  it('has no attachment download either', async () => {
    await enqueueMail(t.db, booking);
    const response = await t.app.inject({ method: 'GET', url: '/api/dev/mailbox/attachment?id=1&index=0' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: SERVER_TEXT.notFound });
  });
});

describe('mail at rest', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('a sent mail’s outbox row holds no working link; the recipient’s copy (the dev mailbox) does', async () => {
    const { email, verifyToken } = await signedUpSchool(t.app, t.db, { verify: false });
    const before = await lastMailTo(t.db, email);
    expect(JSON.stringify(before)).toContain(verifyToken); // waiting to be sent, it must carry its link
    await sendDueMail(
      t.db,
      devMailboxTransport(t.db, () => {}),
    );
    const after = await lastMailTo(t.db, email);
    expect(after).toMatchObject({
      status: 'sent',
      subject: before?.subject,
      text_body: '',
      html_body: '',
      links: [],
    });
    const row = JSON.stringify(after);
    expect(row).not.toContain(verifyToken);
    expect(row).not.toMatch(/token=/);
    // The delivered copy's link still works: the inbox is where a link belongs.
    const { items } = (await t.app.inject({ url: '/api/dev/mailbox' })).json() as {
      items: Array<{ to: string; links: string[] }>;
    };
    const link = items.find((item) => item.to === email)?.links[0] ?? '';
    expect(new URL(link).searchParams.get('token')).toBe(verifyToken);
    const verified = await t.app.inject({ url: `/api/site/verify-school?token=${verifyToken}` });
    expect(verified.statusCode).toBe(200);
  });

  it('a mail given up after its last attempt keeps no link either', async () => {
    const { email } = await signedUpSchool(t.app, t.db, { verify: false });
    const failing = {
      send: async () => Promise.reject(new Error('550 mailbox unavailable')),
      close: () => {},
    };
    await t.db.updateTable('mail_outbox').set({ attempts: 11 }).where('to_address', '=', email).execute();
    await sendDueMail(t.db, failing);
    const row = await lastMailTo(t.db, email);
    expect(row).toMatchObject({ status: 'failed', text_body: '', html_body: '', links: [], attachments: [] });
  });

  it('delivering the same message twice (a lease that ran out mid-send) keeps one copy', async () => {
    const message = { ...booking, messageId: '<outbox-424242@parley>', links: [], attachments: [] };
    const transport = devMailboxTransport(t.db, () => {});
    await transport.send(message);
    await transport.send(message);
    const rows = await t.db
      .selectFrom('dev_mailbox')
      .select('id')
      .where('message_id', '=', message.messageId)
      .execute();
    expect(rows).toHaveLength(1);
  });
});

describe('who may read the dev mailbox', () => {
  const urls = ['/api/dev/mailbox', '/api/dev/mailbox/view?id=1', '/api/dev/mailbox/attachment?id=1&index=0'];

  it('a client on this machine only (127.0.0.0/8, ::1); any other address gets 404', async () => {
    const t = await createTestApp();
    try {
      for (const remoteAddress of ['127.0.0.1', '127.0.0.2', '::1', '::ffff:127.0.0.1'])
        expect((await t.app.inject({ url: urls[0], remoteAddress })).statusCode, remoteAddress).toBe(200);
      for (const remoteAddress of [uniqueIp(), '192.168.1.20', '::ffff:10.0.0.1', '2001:db8::1'])
        for (const url of urls) {
          const response = await t.app.inject({ url, remoteAddress });
          expect(response.statusCode, `${remoteAddress} ${url}`).toBe(404);
          expect(response.json()).toEqual({ message: SERVER_TEXT.notFound });
        }
      // A request a proxy on this machine relayed is not from this machine (trusted-proxies.test.ts).
      const proxied = await t.app.inject({
        url: urls[0],
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': '203.0.113.9' },
      });
      expect(proxied.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('DEV_MAILBOX_OPEN=true opens it to everyone (a shared demo server)', async () => {
    const t = await createTestApp({ env: { DEV_MAILBOX_OPEN: 'true' } });
    try {
      expect((await t.app.inject({ url: urls[0], remoteAddress: '203.0.113.9' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
