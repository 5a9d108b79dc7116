import { CompiledQuery } from 'kysely';
import type { Db } from '../db/database';
import type { OutgoingPush } from '../push/push.repository';
import { deliverableMails, type OutgoingMail } from './outbox.repository';

// A change's messages, mails and pushes, written by one statement in the change's transaction (issue 14:
// each statement is a round trip, the largest cost of a booking). The statement's text is fixed, the rows
// go as one JSON document per table, so PostgreSQL plans it once per connection; JSON because V8 writes it
// natively, where pg escaped each mail's text, HTML and calendar into an array literal in JavaScript (2 % of
// a booking rush's server CPU). The booking path sends these CTEs with the read that ends its transaction
// (booking.repository.ts sendMessages): the same rows, one round trip fewer.

/** Mails, and pushes to every subscription of their users (a user without one costs nothing). */
export type OutgoingMessages = {
  mails: OutgoingMail[];
  /** Pushes filtered by a setting go through enqueuePush, which reads it: these go to everyone named. */
  pushes: Array<Omit<OutgoingPush, 'setting'>>;
};

/**
 * The CTEs `mails` and `pushes` inserting the messages; `$school` is the school's parameter and the
 * messages' own parameters are numbered from `first` (see messageParameters). Every row is the given
 * school's, whatever school a mail names: a change writes into its own school only.
 */
export function messageCtes(school: number, first: number): string {
  const p = (n: number) => `$${first + n}`;
  return `
  mails as (
    insert into mail_outbox (school_id, to_address, subject, text_body, html_body, links, attachments)
    select $${school}::int, m.to_address, m.subject, m.text_body, m.html_body, m.links, m.attachments
    from json_to_recordset(${p(0)}::json)
      as m(to_address text, subject text, text_body text, html_body text, links jsonb, attachments jsonb)
    returning id),
  pushes as (
    insert into push_outbox (school_id, subscription_id, payload, ttl_seconds, urgency)
    select ps.school_id, ps.id, p.payload, p.ttl_seconds, p.urgency
    from json_to_recordset(${p(1)}::json) as p(user_id int, payload jsonb, ttl_seconds int, urgency text)
    join push_subscriptions ps on ps.school_id = $${school} and ps.user_id = p.user_id
    returning id)`;
}

/**
 * Text as pg would have sent it: a lone surrogate (which JSON writes as an escape PostgreSQL refuses) as
 * U+FFFD, as UTF-8 encoding replaces it.
 */
const wellFormed = (text: string) => (text.isWellFormed() ? text : text.toWellFormed());

/** The values for messageCtes's parameters, in order: the mails' rows, then one row per push and user. */
export function messageParameters(messages: OutgoingMessages): unknown[] {
  const mails = deliverableMails(messages.mails).map((mail) => ({
    to_address: wellFormed(mail.to),
    subject: wellFormed(mail.subject),
    text_body: wellFormed(mail.text),
    html_body: wellFormed(mail.html),
    links: mail.links,
    attachments: mail.attachments ?? [],
  }));
  const pushes = messages.pushes.flatMap((push) =>
    [...new Set(push.userIds)].map((userId) => ({
      user_id: userId,
      payload: push.payload,
      ttl_seconds: push.ttlSeconds,
      urgency: push.urgency,
    })),
  );
  return [JSON.stringify(mails), JSON.stringify(pushes)];
}

const ENQUEUE = `with ${messageCtes(1, 2)} select 1`;

/** Writes the messages in the caller's transaction (committed with the change or not at all). */
export async function enqueueMessages(db: Db, schoolId: number, messages: OutgoingMessages): Promise<void> {
  if (messages.mails.length === 0 && messages.pushes.every((push) => push.userIds.length === 0)) return;
  await db.executeQuery(CompiledQuery.raw(ENQUEUE, [schoolId, ...messageParameters(messages)]));
}
