import type { Db } from '../../db/database';
import { attachmentBytes } from '../../db/schema';
import { notFound } from '../../lib/http-error';
import { findDevMail, listDevMail } from '../../mail/dev-mailbox.repository';
import { attachmentContentType } from '../../mail/transport';

// The dev mailbox's reads: the mail as the mailbox shows it, and an attached file as the mail carries it.

type DevMail = Awaited<ReturnType<typeof listDevMail>>[number];

const toItem = (row: DevMail) => ({
  id: row.id,
  to: row.to_address,
  subject: row.subject,
  text: row.text_body,
  html: row.html_body,
  links: row.links,
  attachments: row.attachments.map((attachment) => ({
    filename: attachment.filename,
    contentType: attachmentContentType(attachment),
    size: attachmentBytes(attachment).length,
  })),
  status: 'sent',
  createdAt: row.created_at,
});

/** The newest mail first, at most `limit`. */
export async function listMail(db: Db, limit: number) {
  return (await listDevMail(db, limit)).map(toItem);
}

export async function viewMail(db: Db, id: number) {
  const mail = await findDevMail(db, id);
  if (!mail) throw notFound('No such mail.');
  return toItem(mail);
}

export async function mailAttachment(db: Db, id: number, index: number) {
  const mail = await findDevMail(db, id);
  const attachment = mail?.attachments[index];
  if (!attachment) throw notFound('No such attachment.');
  return {
    filename: attachment.filename,
    contentType: attachmentContentType(attachment),
    bytes: attachmentBytes(attachment),
  };
}
