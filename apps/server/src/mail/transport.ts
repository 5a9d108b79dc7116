import nodemailer from 'nodemailer';
import type { Config } from '../config';

export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  links: string[];
};
export type MailTransport = { send(message: MailMessage): Promise<void>; close(): void };

/** SMTP through a pooled nodemailer transport; timeouts stay well inside the worker's lease. */
export function smtpTransport(config: Config): MailTransport {
  const transporter = nodemailer.createTransport(config.smtpUrl, {
    pool: true,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  } as never);
  return {
    async send(message) {
      const { links: _links, ...mail } = message;
      await transporter.sendMail({ from: config.mailFrom, ...mail });
    },
    close: () => transporter.close(),
  };
}

/** The dev mailbox: mail stays in the outbox table for /dev/mailbox; one log line carries the links. */
export function devMailboxTransport(log: (line: string) => void): MailTransport {
  return {
    async send(message) {
      log(`dev mailbox: "${message.subject}" to ${message.to} ${message.links.join(' ')}`.trim());
    },
    close: () => {},
  };
}
