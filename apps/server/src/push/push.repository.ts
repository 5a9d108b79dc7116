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
 * Locks the user's row (two subscribes of one user then run one after the other, and the second's
 * statement counts the first's row), and takes the endpoint from another user who holds it: a browser's
 * only with its keys (`keys`), a phone's token always (null).
 */
async function takeEndpoint(
  db: Db,
  s: { schoolId: number; userId: number; endpoint: string },
  keys: { p256dh: string; auth: string } | null,
): Promise<void> {
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
    .$if(keys !== null, (qb) =>
      qb.where('p256dh', '=', keys?.p256dh ?? '').where('auth', '=', keys?.auth ?? ''),
    )
    .where((eb) => eb.or([eb('user_id', '<>', s.userId), eb('school_id', '<>', s.schoolId)]))
    .execute();
}

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
  await takeEndpoint(db, s, { p256dh: s.p256dh, auth: s.auth });
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

/**
 * A phone's push token (FCM or APNs) as the user's subscription, in the caller's transaction: the token
 * moves to this user from whoever held it (the phone is now signed in as them), renewed if already theirs;
 * at most MAX_SUBSCRIPTIONS_PER_USER per user, the oldest going. Runs in the system scope.
 */
export async function upsertDeviceSubscription(
  db: Db,
  s: { schoolId: number; userId: number; channel: 'fcm' | 'apns'; token: string },
): Promise<void> {
  if (!db.isTransaction) return db.transaction().execute((trx) => upsertDeviceSubscription(trx, s));
  await takeEndpoint(db, { schoolId: s.schoolId, userId: s.userId, endpoint: s.token }, null);
  await sql`
    WITH saved AS (
      INSERT INTO push_subscriptions AS p (school_id, user_id, channel, endpoint)
      VALUES (${s.schoolId}, ${s.userId}, ${s.channel}, ${s.token})
      ON CONFLICT (endpoint) DO UPDATE SET channel = excluded.channel, last_success_at = NULL, created_at = now()
      RETURNING id
    )
    DELETE FROM push_subscriptions
    WHERE id IN (
      SELECT id FROM push_subscriptions
      WHERE user_id = ${s.userId} AND school_id = ${s.schoolId} AND id NOT IN (SELECT id FROM saved)
      ORDER BY created_at DESC, id DESC
      OFFSET ${MAX_SUBSCRIPTIONS_PER_USER - 1}
    )`.execute(db);
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
      's.channel',
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
