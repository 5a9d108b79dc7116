import { EVENT_STATUS } from '@parley/domain/events';
import type { PUSH_SETTINGS_DEFAULTS } from '@parley/domain/push';
import { sql } from 'kysely';
import type { Db } from '../db/database';
import type { PushUrgency } from '../db/schema';
import { claimDueIds } from '../mail/outbox.repository';

// Subscriptions, the push outbox and app-wide settings. SQL only here.

export async function readSetting(db: Db, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('app_settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}

export async function insertSettingIfAbsent(db: Db, key: string, value: string): Promise<void> {
  await db
    .insertInto('app_settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
}

export type NewSubscription = {
  schoolId: number;
  userId: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  userAgent: string | null;
};

/** The subscriptions one user may have (issue 35): a sixth replaces the oldest. */
export const MAX_SUBSCRIPTIONS_PER_USER = 5;

/**
 * One row per endpoint, bound to one user, at most MAX_SUBSCRIPTIONS_PER_USER per user, in the caller's
 * transaction (it opens one when given none). The caller's own endpoint is renewed (new keys). Another
 * user's moves to the caller only when the keys are that row's too: the same browser, signed in as someone
 * else now (a shared computer), proven by its secret auth key; its queued pushes, written for the other
 * user, go with the old row. Any other user's endpoint is left alone: 'taken'. Runs in the system scope:
 * the endpoint may be another school's row.
 *
 * The user's row is locked first, so two subscribes of one user run one after the other and the second's
 * statement counts the first's row; the insert and the trim of the oldest are then one statement.
 */
export async function upsertSubscription(db: Db, s: NewSubscription): Promise<'saved' | 'taken'> {
  if (!db.isTransaction) return db.transaction().execute((trx) => upsertSubscription(trx, s));
  await db
    .selectFrom('users')
    .select('id')
    .where('id', '=', s.userId)
    .where('school_id', '=', s.schoolId)
    .forNoKeyUpdate()
    .execute();
  await db
    .deleteFrom('push_subscriptions')
    .where('endpoint', '=', s.endpoint)
    .where('p256dh', '=', s.p256dh)
    .where('auth', '=', s.auth)
    .where((eb) => eb.or([eb('user_id', '<>', s.userId), eb('school_id', '<>', s.schoolId)]))
    .execute();
  // The DELETE sees the rows as they were before the INSERT (one snapshot): the caller's others, less the
  // renewed one, of which the newest MAX - 1 stay beside it. created_at is when the browser last
  // subscribed (a renewal counts as new), and orders the trim.
  const { rows } = await sql<{ id: number }>`
    WITH saved AS (
      INSERT INTO push_subscriptions AS s (school_id, user_id, endpoint, p256dh, auth, user_agent)
      VALUES (${s.schoolId}, ${s.userId}, ${s.endpoint}, ${s.p256dh}, ${s.auth}, ${s.userAgent})
      ON CONFLICT (endpoint) DO UPDATE SET
        p256dh = excluded.p256dh,
        auth = excluded.auth,
        user_agent = excluded.user_agent,
        last_success_at = NULL,
        created_at = now()
      WHERE s.user_id = excluded.user_id AND s.school_id = excluded.school_id
      RETURNING id
    ), oldest AS (
      DELETE FROM push_subscriptions
      WHERE EXISTS (SELECT FROM saved)
        AND id IN (
          SELECT id FROM push_subscriptions
          WHERE user_id = ${s.userId} AND school_id = ${s.schoolId} AND id NOT IN (SELECT id FROM saved)
          ORDER BY created_at DESC, id DESC
          OFFSET ${MAX_SUBSCRIPTIONS_PER_USER - 1}
        )
    )
    SELECT id FROM saved`.execute(db);
  return rows.length > 0 ? 'saved' : 'taken';
}

/** The caller's own subscription only: another user's (or school's) endpoint is left alone. */
export async function deleteOwnSubscription(
  db: Db,
  schoolId: number,
  userId: number,
  endpoint: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('push_subscriptions')
    .where('school_id', '=', schoolId)
    .where('user_id', '=', userId)
    .where('endpoint', '=', endpoint)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** The push service said the subscription is gone (404/410): it and its queued pushes go. */
export async function deleteSubscription(db: Db, id: number): Promise<void> {
  await db.deleteFrom('push_subscriptions').where('id', '=', id).execute();
}

export async function markDelivered(db: Db, subscriptionId: number): Promise<void> {
  await db
    .updateTable('push_subscriptions')
    .set({ last_success_at: sql`now()` })
    .where('id', '=', subscriptionId)
    .execute();
}

export type OutgoingPush = {
  userIds: number[];
  payload: Record<string, unknown>;
  ttlSeconds: number;
  urgency: PushUrgency;
  /** Only to users whose push setting (group `push`, default on) is `want`; absent: to all of them. */
  setting?: { key: keyof typeof PUSH_SETTINGS_DEFAULTS; want: boolean };
};

/**
 * One outbox row per subscription of the users, in the caller's transaction (committed with the change
 * or not at all). Users without a subscription cost nothing.
 */
export async function enqueuePush(db: Db, schoolId: number, push: OutgoingPush): Promise<void> {
  const users = [...new Set(push.userIds)];
  if (users.length === 0) return;
  await db
    .insertInto('push_outbox')
    .columns(['school_id', 'subscription_id', 'payload', 'ttl_seconds', 'urgency'])
    .expression(
      db
        .selectFrom('push_subscriptions')
        .select([
          'school_id',
          'id',
          sql<string>`${JSON.stringify(push.payload)}::jsonb`.as('payload'),
          sql<number>`${push.ttlSeconds}::integer`.as('ttl_seconds'),
          sql<string>`${push.urgency}::text`.as('urgency'),
        ])
        .where('school_id', '=', schoolId)
        .where('user_id', 'in', users)
        .$if(push.setting !== undefined, (qb) =>
          qb.where(({ exists, selectFrom }) =>
            exists(
              selectFrom('users as u')
                .select('u.id')
                .whereRef('u.id', '=', 'push_subscriptions.user_id')
                .where(
                  sql<boolean>`coalesce((u.settings -> 'push' ->> ${push.setting?.key ?? ''})::boolean, true)`,
                  '=',
                  push.setting?.want ?? true,
                ),
            ),
          ),
        ),
    )
    .execute();
}

/** Leases due pushes (the mail outbox's rules) with the subscription each goes to. */
export async function claimDuePush(db: Db, limit: number, leaseSeconds: number) {
  const leases = await claimDueIds(db, 'push_outbox', limit, leaseSeconds);
  if (leases.length === 0) return [];
  const rows = await db
    .selectFrom('push_outbox as o')
    .innerJoin('push_subscriptions as s', 's.id', 'o.subscription_id')
    .select([
      'o.id',
      'o.payload',
      'o.ttl_seconds',
      'o.urgency',
      'o.subscription_id',
      's.endpoint',
      's.p256dh',
      's.auth',
    ])
    .where(
      'o.id',
      'in',
      leases.map((lease) => lease.id),
    )
    .execute();
  const attempts = new Map(leases.map((lease) => [lease.id, lease.attempts]));
  // A row whose subscription went meanwhile went with it (cascade): nothing to send.
  return rows.map((row) => ({ ...row, attempts: attempts.get(row.id) ?? 0 }));
}

export type DueReminder = {
  school_id: number;
  event_id: number;
  event_name: string;
  group_int: number;
  code: string;
  timezone: string;
  starts_at: Date;
  party_id: number | null;
  teacher_id: number | null;
};

/**
 * Marks the live bookings of enabled events that start within a day of `now` as reminded and returns
 * them, in the caller's transaction: the primary key makes each reminder once across instances. A booking
 * made less than a day before its start is not reminded (it was just booked). Runs in the system scope.
 */
export async function claimDueReminders(db: Db, now: Date, limit: number): Promise<DueReminder[]> {
  const claimed = await db
    .insertInto('booking_reminders')
    .columns(['booking_id', 'school_id'])
    .expression(
      db
        .selectFrom('bookings as b')
        .innerJoin('events as e', (join) =>
          join.onRef('e.id', '=', 'b.event_id').onRef('e.school_id', '=', 'b.school_id'),
        )
        .select(['b.id', 'b.school_id'])
        .where('b.status', '=', 'booked')
        .where('e.status', '=', EVENT_STATUS.enabled)
        .where('b.starts_at', '>', now)
        .where('b.starts_at', '<=', sql<Date>`${now}::timestamptz + interval '1 day'`)
        .where('b.created_at', '<=', sql<Date>`b.starts_at - interval '1 day'`)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('booking_reminders as r')
                .select('r.booking_id')
                .whereRef('r.booking_id', '=', 'b.id'),
            ),
          ),
        )
        .orderBy('b.starts_at')
        .limit(limit),
    )
    .onConflict((oc) => oc.column('booking_id').doNothing())
    .returning('booking_id')
    .execute();
  if (claimed.length === 0) return [];
  return db
    .selectFrom('bookings as b')
    .innerJoin('events as e', (join) =>
      join.onRef('e.id', '=', 'b.event_id').onRef('e.school_id', '=', 'b.school_id'),
    )
    .innerJoin('event_types as t', (join) =>
      join.onRef('t.id', '=', 'e.event_type_id').onRef('t.school_id', '=', 'e.school_id'),
    )
    .innerJoin('schools as s', 's.id', 'b.school_id')
    .select([
      'b.school_id',
      'b.event_id',
      'e.name as event_name',
      't.group_int',
      'e.code',
      's.timezone',
      'b.starts_at',
      'b.teacher_id',
    ])
    .select(sql<number | null>`coalesce(b.parent_id, b.student_id)`.as('party_id'))
    .where(
      'b.id',
      'in',
      claimed.map((row) => row.booking_id),
    )
    .orderBy('b.starts_at')
    .execute();
}
