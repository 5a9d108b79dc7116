import nodemailer, { type SendMailOptions } from 'nodemailer';
import type { Config } from '../config';
import type { Db } from '../db/database';
import { attachmentBytes, type MailAttachment } from '../db/schema';
import { keepInDevMailbox } from './dev-mailbox.repository';
import type { MailMessage } from './mail-message';

export type MailTransport = {
  /** Sends one message; once `signal` aborts, the send is given up (its connection closed) and fails. */
  send(message: MailMessage, signal?: AbortSignal): Promise<void>;
  close(): void;
};

/**
 * The content type an attachment travels with. Its content is UTF-8 text, so a text type says so; a
 * calendar file names the iTIP method its own METHOD line declares (RFC 6047), PUBLISH when it has none.
 */
export function attachmentContentType(attachment: MailAttachment): string {
  const given = attachment.contentType.trim();
  const type =
    given ||
    (attachment.filename.toLowerCase().endsWith('.ics') ? 'text/calendar' : 'application/octet-stream');
  const params = type.toLowerCase();
  let result = type;
  if (params.startsWith('text/') && !params.includes('charset=')) result += '; charset=utf-8';
  if (params.startsWith('text/calendar') && !params.includes('method=')) {
    const method = /^METHOD:([A-Za-z-]+)\s*$/m.exec(attachment.content)?.[1]?.toUpperCase() ?? 'PUBLISH';
    result += `; method=${method}`;
  }
  return result;
}

/** The message as nodemailer takes it: the links are ours only, the attachments real MIME parts. */
export function nodemailerMessage(from: string, message: MailMessage): SendMailOptions {
  const { links: _links, attachments, ...mail } = message;
  return {
    from,
    ...mail,
    ...(attachments.length > 0 && {
      attachments: attachments.map((attachment) => ({
        filename: attachment.filename,
        content: attachmentBytes(attachment),
        contentType: attachmentContentType(attachment),
        ...(attachment.cid && { cid: attachment.cid }),
      })),
    }),
  };
}

/**
 * SMTP through a pooled nodemailer transport; timeouts stay well inside the worker's lease. The options
 * go in the first argument with the URL: a second argument is only defaults for each message, where
 * `pool` and the timeouts did nothing (the transport was unpooled, with nodemailer's 10-minute timeout).
 */
export function smtpTransport(config: Config): MailTransport {
  const transporter = nodemailer.createTransport({
    url: config.smtpUrl,
    pool: true,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    async send(message, signal) {
      // nodemailer (10.5+) abandons a send whose signal aborts: queued, or its connection is closed.
      const options: SendMailOptions & { signal?: AbortSignal } = nodemailerMessage(config.mailFrom, message);
      if (signal) options.signal = signal;
      await transporter.sendMail(options);
    },
    close: () => transporter.close(),
  };
}

/**
 * The dev mailbox: each mail (attachments included) is delivered into the dev_mailbox table for
 * /dev/mailbox; one log line carries the links and names the attached files.
 */
export function devMailboxTransport(db: Db, log: (line: string) => void): MailTransport {
  return {
    async send(message) {
      await keepInDevMailbox(db, message);
      const files = message.attachments.map((attachment) => attachment.filename);
      const attached = files.length > 0 ? ` (attached: ${files.join(', ')})` : '';
      log(`dev mailbox: "${message.subject}" to ${message.to}${attached} ${message.links.join(' ')}`.trim());
    },
    close: () => {},
  };
}
