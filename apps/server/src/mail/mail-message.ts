import type { MailAttachment } from '../db/schema';

/**
 * One mail as an outbox row becomes it: what a transport sends (transport.ts) and what the dev mailbox
 * keeps (dev-mailbox.repository.ts). Its own module so that neither of those imports the other for it
 * (transport.ts ↔ dev-mailbox.repository.ts was an import cycle).
 */
export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  links: string[];
  attachments: MailAttachment[];
};
