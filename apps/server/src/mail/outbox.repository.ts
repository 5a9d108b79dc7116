import { isSyntheticAddress } from '@parley/domain/load-test';
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

/** The mails that may leave: a load-test rehearsal's synthetic people (decision 022) are never mailed. */
export const deliverableMails = (mails: OutgoingMail[]) =>
  mails.filter((mail) => !isSyntheticAddress(mail.to));

/** Mail is written in the same transaction as the change it announces: committed together or not at all. */
export async function enqueueMail(db: Db, mail: OutgoingMail): Promise<void> {
  if (deliverableMails([mail]).length === 0) return;
  await db.insertInto('mail_outbox').values(outboxRow(mail)).execute();
}

/** The outboxes worked by the same lease rules (decision 004): mail, and push (one row per subscription). */
export type OutboxTable = 'mail_outbox' | 'push_outbox';

// Both tables share the lease columns; typed through mail_outbox's for the builder.
const leaseTable = (table: OutboxTable) => table as 'mail_outbox';

/** Leases due rows: a row leased by one worker is invisible to the others until the lease ends. */
function leaseDue(db: Db, table: OutboxTable, limit: number, leaseSeconds: number) {
  return db
    .updateTable(leaseTable(table))
    .set({
      locked_until: sql`now() + make_interval(secs => ${leaseSeconds})`,
      attempts: sql`attempts + 1`,
    })
    .where(
      'id',
      'in',
      db
        .selectFrom(leaseTable(table))
        .select('id')
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', sql<Date>`now()`)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', sql<Date>`now()`)]))
        .orderBy('id')
        .limit(limit)
        .forUpdate()
        .skipLocked(),
    );
}

/** Leases due mail: a row leased by one worker is invisible to the others until the lease ends. */
export function claimDueMail(db: Db, limit: number, leaseSeconds: number) {
  return leaseDue(db, 'mail_outbox', limit, leaseSeconds)
    .returning(['id', 'to_address', 'subject', 'text_body', 'html_body', 'links', 'attachments', 'attempts'])
    .execute();
}

/** Leases due pushes; the caller reads what they carry by id. */
export function claimDueIds(db: Db, table: OutboxTable, limit: number, leaseSeconds: number) {
  return leaseDue(db, table, limit, leaseSeconds).returning(['id', 'attempts']).execute();
}

/** Once a mail has left (or is given up), its row keeps who, what and when, never a usable link. */
const dropContent = { text_body: '', html_body: '', links: '[]', attachments: '[]' } as const;
// A push carries no link that signs anyone in: its payload stays for the record.
const dropped = (table: OutboxTable) => (table === 'mail_outbox' ? dropContent : {});

/** A claimed row as its worker holds it: `attempts` as the claim left it tells this claim from a later one. */
export type Lease = { id: number; attempts: number };

/** A row leaves the outbox once it was handed to SMTP, whoever's lease it was sent under. */
export async function markSent(db: Db, id: number, table: OutboxTable = 'mail_outbox'): Promise<void> {
  await db
    .updateTable(leaseTable(table))
    .set({ status: 'sent', sent_at: sql`now()`, locked_until: null, last_error: null, ...dropped(table) })
    .where('id', '=', id)
    .execute();
}

/**
 * Only under the lease it was claimed with: a worker whose lease ran out (another claimed the row since,
 * and may have sent it) changes nothing, so a sent mail is never put back to pending and sent again.
 */
export async function markFailedAttempt(
  db: Db,
  lease: Lease,
  input: { error: string; retryInSeconds: number | null },
  table: OutboxTable = 'mail_outbox',
): Promise<void> {
  await db
    .updateTable(leaseTable(table))
    .set({
      status: input.retryInSeconds === null ? 'failed' : 'pending',
      next_attempt_at: sql`now() + make_interval(secs => ${input.retryInSeconds ?? 0})`,
      locked_until: null,
      last_error: input.error.slice(0, 1000),
      ...(input.retryInSeconds === null && dropped(table)),
    })
    .where('id', '=', lease.id)
    .where('attempts', '=', lease.attempts)
    .where('status', '=', 'pending')
    .execute();
}

/** Gives back leases not used (too little of the lease left to start a send): not counted as attempts. */
export async function releaseLeases(
  db: Db,
  leases: Lease[],
  table: OutboxTable = 'mail_outbox',
): Promise<void> {
  for (const lease of leases) {
    await db
      .updateTable(leaseTable(table))
      .set({ locked_until: null, attempts: sql`attempts - 1` })
      .where('id', '=', lease.id)
      .where('attempts', '=', lease.attempts)
      .where('status', '=', 'pending')
      .execute();
  }
}

/** Many mails in one statement per 1,000 (invitations to a whole year group), in the caller's transaction. */
export async function enqueueMails(db: Db, all: OutgoingMail[]): Promise<void> {
  const mails = deliverableMails(all);
  for (let i = 0; i < mails.length; i += 1000) {
    await db
      .insertInto('mail_outbox')
      .values(mails.slice(i, i + 1000).map(outboxRow))
      .execute();
  }
}

/**
 * Rows waiting (pending) and given up on (failed) in an outbox, and how long the oldest waiting one has
 * waited (0 when none), for /api/metrics. System scope: all schools.
 */
export async function outboxBacklog(
  db: Db,
  table: OutboxTable,
): Promise<{ pending: number; failed: number; oldestPendingSeconds: number }> {
  const row = await db
    .selectFrom(leaseTable(table))
    .select([
      sql<number>`count(*) filter (where status = 'pending')::int`.as('pending'),
      sql<number>`count(*) filter (where status = 'failed')::int`.as('failed'),
      sql<number>`coalesce(extract(epoch from now() - min(created_at) filter (where status = 'pending')), 0)::float8`.as(
        'oldest',
      ),
    ])
    .executeTakeFirstOrThrow();
  return {
    pending: Number(row.pending),
    failed: Number(row.failed),
    oldestPendingSeconds: Math.max(Number(row.oldest), 0),
  };
}
