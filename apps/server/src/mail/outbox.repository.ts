import { sql } from 'kysely';
import type { Db } from '../db/database';
import type { MailAttachment } from '../db/schema';

export type OutgoingMail = {
  schoolId: number | null;
  to: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
  /** Files sent with the mail (a calendar file for a booking), stored with it in the outbox. */
  attachments?: MailAttachment[];
};

const outboxRow = (mail: OutgoingMail) => ({
  school_id: mail.schoolId,
  to_address: mail.to,
  subject: mail.subject,
  text_body: mail.text,
  html_body: mail.html,
  links: JSON.stringify(mail.links),
  attachments: JSON.stringify(mail.attachments ?? []),
});

/** Mail is written in the same transaction as the change it announces: committed together or not at all. */
export async function enqueueMail(db: Db, mail: OutgoingMail): Promise<void> {
  await db.insertInto('mail_outbox').values(outboxRow(mail)).execute();
}

/** Leases due mail: a row leased by one worker is invisible to the others until the lease ends. */
export function claimDueMail(db: Db, limit: number, leaseSeconds: number) {
  return db
    .updateTable('mail_outbox')
    .set({
      locked_until: sql`now() + make_interval(secs => ${leaseSeconds})`,
      attempts: sql`attempts + 1`,
    })
    .where(
      'id',
      'in',
      db
        .selectFrom('mail_outbox')
        .select('id')
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', sql<Date>`now()`)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', sql<Date>`now()`)]))
        .orderBy('id')
        .limit(limit)
        .forUpdate()
        .skipLocked(),
    )
    .returning(['id', 'to_address', 'subject', 'text_body', 'html_body', 'links', 'attachments', 'attempts'])
    .execute();
}

/** Once a mail has left (or is given up), its row keeps who, what and when, never a usable link. */
const dropContent = { text_body: '', html_body: '', links: '[]', attachments: '[]' } as const;

export async function markSent(db: Db, id: number): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({ status: 'sent', sent_at: sql`now()`, locked_until: null, last_error: null, ...dropContent })
    .where('id', '=', id)
    .execute();
}

export async function markFailedAttempt(
  db: Db,
  id: number,
  input: { error: string; retryInSeconds: number | null },
): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({
      status: input.retryInSeconds === null ? 'failed' : 'pending',
      next_attempt_at: sql`now() + make_interval(secs => ${input.retryInSeconds ?? 0})`,
      locked_until: null,
      last_error: input.error.slice(0, 1000),
      ...(input.retryInSeconds === null && dropContent),
    })
    .where('id', '=', id)
    .execute();
}

/** Many mails in one statement per 1,000 (invitations to a whole year group), in the caller's transaction. */
export async function enqueueMails(db: Db, mails: OutgoingMail[]): Promise<void> {
  for (let i = 0; i < mails.length; i += 1000) {
    await db
      .insertInto('mail_outbox')
      .values(mails.slice(i, i + 1000).map(outboxRow))
      .execute();
  }
}
