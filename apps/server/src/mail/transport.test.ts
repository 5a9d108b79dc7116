import nodemailer from 'nodemailer';
import { describe, expect, it } from 'vitest';
import type { MailMessage } from './mail-message';
import { attachmentContentType, nodemailerMessage } from './transport';

const ics = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//Parley//EN',
  'METHOD:PUBLISH',
  'BEGIN:VEVENT',
  'UID:booking-42@parley',
  'SUMMARY:Parents’ evening with Ms Ó Súilleabháin',
  'DTSTART:20260312T200000Z',
  'DTEND:20260312T201000Z',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

const message: MailMessage = {
  to: 'parent@example.org',
  subject: 'Your booking',
  text: 'See you on Thursday.',
  html: '<p>See you on Thursday.</p>',
  messageId: '<outbox-42@parley>',
  links: ['http://parley.test/home'],
  attachments: [{ filename: 'parents-evening.ics', contentType: 'text/calendar', content: ics }],
};

/** The MIME message nodemailer would hand the SMTP server, built without a server. */
async function rawMime(mail: MailMessage): Promise<string> {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  const info = await transporter.sendMail(nodemailerMessage('Parley <no-reply@parley.test>', mail));
  return (info.message as Buffer).toString('utf8');
}

/** The MIME part whose headers name the file, as its headers and decoded body. */
function partNamed(mime: string, filename: string): { headers: string; body: string } {
  const part = mime
    .split(/\r\n--[^\r\n]+\r\n/)
    .find((chunk) => chunk.includes(`filename=${filename}`) || chunk.includes(`filename="${filename}"`));
  if (!part) throw new Error(`no part named ${filename} in\n${mime}`);
  const [headers = '', body = ''] = part.split('\r\n\r\n');
  const unfolded = headers.replace(/\r\n[ \t]+/g, ' ');
  const encoded = body.split(/\r\n--/)[0] ?? '';
  const decoded = /content-transfer-encoding: base64/i.test(unfolded)
    ? Buffer.from(encoded.replace(/\s+/g, ''), 'base64').toString('utf8')
    : encoded;
  return { headers: unfolded, body: decoded };
}

describe('the SMTP message', () => {
  it('carries a calendar file as a real attachment: its name, a text/calendar type and the content unchanged', async () => {
    const mime = await rawMime(message);
    expect(mime).toMatch(/^Content-Type: multipart\/mixed;/m);
    expect(mime).toContain('Message-ID: <outbox-42@parley>');
    const part = partNamed(mime, 'parents-evening.ics');
    expect(part.headers).toMatch(/Content-Type: text\/calendar; charset=utf-8; method=PUBLISH/i);
    expect(part.headers).toMatch(/Content-Disposition: attachment; filename=("?)parents-evening\.ics\1/i);
    expect(part.body).toBe(ics);
    // The links are the outbox's own bookkeeping, not a header of the mail.
    expect(mime).not.toMatch(/^links:/im);
  });

  it('is a plain text-and-HTML mail when nothing is attached', async () => {
    const mime = await rawMime({ ...message, attachments: [] });
    expect(mime).toMatch(/^Content-Type: multipart\/alternative;/m);
    expect(mime).not.toMatch(/Content-Disposition: attachment/i);
    expect(nodemailerMessage('x@parley.test', { ...message, attachments: [] })).not.toHaveProperty(
      'attachments',
    );
  });

  it('names each attachment type with its charset, and a calendar with its own iTIP method', () => {
    const file = (filename: string, contentType: string, content = 'x') => ({
      filename,
      contentType,
      content,
    });
    expect(attachmentContentType(file('a.ics', 'text/calendar', ics))).toBe(
      'text/calendar; charset=utf-8; method=PUBLISH',
    );
    expect(
      attachmentContentType(file('a.ics', 'text/calendar', 'BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\n')),
    ).toBe('text/calendar; charset=utf-8; method=REQUEST');
    expect(attachmentContentType(file('a.ics', 'text/calendar; charset=utf-8; method=PUBLISH'))).toBe(
      'text/calendar; charset=utf-8; method=PUBLISH',
    );
    expect(attachmentContentType(file('a.ics', ''))).toBe('text/calendar; charset=utf-8; method=PUBLISH');
    expect(attachmentContentType(file('a.txt', 'text/plain'))).toBe('text/plain; charset=utf-8');
    expect(attachmentContentType(file('a.json', 'application/json'))).toBe('application/json');
    expect(attachmentContentType(file('a.bin', ''))).toBe('application/octet-stream');
  });
});
