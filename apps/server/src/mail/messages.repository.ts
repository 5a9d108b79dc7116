import { CompiledQuery } from 'kysely';
import type { Db } from '../db/database';
import type { OutgoingPush } from '../push/push.repository';
import { deliverableMails, type OutgoingMail } from './outbox.repository';

// A change's messages, mails and pushes, written by one statement in the change's transaction (issue 14:
// each statement is a round trip, the largest cost of a booking). The statement's text is fixed, the rows
// go as arrays, so PostgreSQL plans it once per connection. The booking path appends these CTEs to the
// statement that takes its places (booking.repository.ts): the same rows, one round trip fewer.

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
    select $${school}::int, m.to_address, m.subject, m.text_body, m.html_body, m.links::jsonb, m.attachments::jsonb
    from unnest(${p(0)}::text[], ${p(1)}::text[], ${p(2)}::text[], ${p(3)}::text[], ${p(4)}::text[],
      ${p(5)}::text[])
      as m(to_address, subject, text_body, html_body, links, attachments)
    returning id),
  pushes as (
    insert into push_outbox (school_id, subscription_id, payload, ttl_seconds, urgency)
    select ps.school_id, ps.id, p.payload::jsonb, p.ttl_seconds, p.urgency
    from unnest(${p(6)}::int[], ${p(7)}::text[], ${p(8)}::int[], ${p(9)}::text[])
      as p(user_id, payload, ttl_seconds, urgency)
    join push_subscriptions ps on ps.school_id = $${school} and ps.user_id = p.user_id
    returning id)`;
}

/** The values for messageCtes's parameters, in order: the mails' columns, then one row per push and user. */
export function messageParameters(messages: OutgoingMessages): unknown[] {
  const mails = deliverableMails(messages.mails);
  const pushes = messages.pushes.flatMap((push) =>
    [...new Set(push.userIds)].map((userId) => ({ userId, push })),
  );
  return [
    mails.map((mail) => mail.to),
    mails.map((mail) => mail.subject),
    mails.map((mail) => mail.text),
    mails.map((mail) => mail.html),
    mails.map((mail) => JSON.stringify(mail.links)),
    mails.map((mail) => JSON.stringify(mail.attachments ?? [])),
    pushes.map(({ userId }) => userId),
    pushes.map(({ push }) => JSON.stringify(push.payload)),
    pushes.map(({ push }) => push.ttlSeconds),
    pushes.map(({ push }) => push.urgency),
  ];
}

const ENQUEUE = `with ${messageCtes(1, 2)} select 1`;

/** Writes the messages in the caller's transaction (committed with the change or not at all). */
export async function enqueueMessages(db: Db, schoolId: number, messages: OutgoingMessages): Promise<void> {
  if (messages.mails.length === 0 && messages.pushes.every((push) => push.userIds.length === 0)) return;
  await db.executeQuery(CompiledQuery.raw(ENQUEUE, [schoolId, ...messageParameters(messages)]));
}
