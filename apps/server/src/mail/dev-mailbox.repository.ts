import type { Db } from '../db/database';
import type { MailMessage } from './mail-message';

/** Delivers a mail into the dev mailbox; a second delivery of the same message is a no-op. */
export async function keepInDevMailbox(db: Db, message: MailMessage): Promise<void> {
  await db
    .insertInto('dev_mailbox')
    .values({
      message_id: message.messageId,
      to_address: message.to,
      subject: message.subject,
      text_body: message.text,
      html_body: message.html,
      links: JSON.stringify(message.links),
      attachments: JSON.stringify(message.attachments),
    })
    .onConflict((oc) => oc.column('message_id').doNothing())
    .execute();
}

const columns = [
  'id',
  'to_address',
  'subject',
  'text_body',
  'html_body',
  'links',
  'attachments',
  'created_at',
] as const;

export function listDevMail(db: Db, limit: number) {
  return db.selectFrom('dev_mailbox').select(columns).orderBy('id', 'desc').limit(limit).execute();
}

export function findDevMail(db: Db, id: number) {
  return db.selectFrom('dev_mailbox').select(columns).where('id', '=', id).executeTakeFirst();
}
