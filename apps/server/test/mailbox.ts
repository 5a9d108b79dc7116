import type { Db } from '../src/db/database';
import { settleBackgroundWork } from './test-app';

// Reset and resend mails are written after the answer: every helper first waits for that work.

/** The newest mail to an address, straight from the outbox. */
export async function lastMailTo(db: Db, to: string) {
  await settleBackgroundWork();
  return db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('to_address', '=', to.toLowerCase())
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

export async function mailCount(db: Db, to: string): Promise<number> {
  await settleBackgroundWork();
  const row = await db
    .selectFrom('mail_outbox')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('to_address', '=', to.toLowerCase())
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The token in the newest mail's link to an address (and the link's path, to check where it leads). */
export async function tokenFromLastMail(db: Db, to: string): Promise<{ token: string; path: string }> {
  const mail = await lastMailTo(db, to);
  const link = mail?.links[0];
  if (!link) throw new Error(`no mail with a link to ${to}`);
  const url = new URL(link);
  return { token: url.searchParams.get('token') ?? '', path: url.pathname };
}
