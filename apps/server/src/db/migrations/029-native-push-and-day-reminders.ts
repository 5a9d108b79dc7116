import { type Kysely, sql } from 'kysely';

// Issue 40. Native push: a subscription is a channel's address, a browser's Web Push endpoint with its
// keys, or a phone's device token for Firebase Cloud Messaging (Android) or the Apple Push Notification
// service (iOS), worked by the same outbox. The day-before reminder: once per person and day at the time
// the school sets (one mail and one push listing all their appointments), which an event can turn off;
// the primary key of day_before_reminders decides that each goes once across processes. The per-booking
// rows of migration 012 give way to it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE push_subscriptions
    ADD COLUMN channel text NOT NULL DEFAULT 'web' CHECK (channel IN ('web', 'fcm', 'apns')),
    ALTER COLUMN p256dh DROP NOT NULL,
    ALTER COLUMN auth DROP NOT NULL`.execute(db);
  await sql`ALTER TABLE push_subscriptions ADD CONSTRAINT push_subscriptions_keys
    CHECK ((channel = 'web') = (p256dh IS NOT NULL AND auth IS NOT NULL))`.execute(db);

  await sql`ALTER TABLE schools ADD COLUMN reminder_time time NOT NULL DEFAULT '18:00'`.execute(db);
  await sql`ALTER TABLE events ADD COLUMN day_before_reminder boolean NOT NULL DEFAULT true`.execute(db);
  await sql`CREATE TABLE day_before_reminders (
    school_id integer NOT NULL,
    user_id integer NOT NULL,
    day date NOT NULL,
    queued_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (school_id, user_id, day),
    CONSTRAINT day_before_reminders_user_fk FOREIGN KEY (user_id, school_id)
      REFERENCES users (id, school_id) ON DELETE CASCADE
  )`.execute(db);
  await sql`ALTER TABLE day_before_reminders ENABLE ROW LEVEL SECURITY`.execute(db);
  await sql`CREATE POLICY school_wall ON day_before_reminders TO parley_app
    USING (school_id = parley_school() OR parley_all_schools())
    WITH CHECK (school_id = parley_school() OR parley_all_schools())`.execute(db);
  await sql`DROP TABLE booking_reminders`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE booking_reminders (
    booking_id integer PRIMARY KEY REFERENCES bookings (id) ON DELETE CASCADE,
    school_id integer NOT NULL,
    queued_at timestamptz NOT NULL DEFAULT now()
  )`.execute(db);
  await sql`DROP TABLE day_before_reminders`.execute(db);
  await sql`ALTER TABLE events DROP COLUMN day_before_reminder`.execute(db);
  await sql`ALTER TABLE schools DROP COLUMN reminder_time`.execute(db);
  await sql`DELETE FROM push_subscriptions WHERE channel <> 'web'`.execute(db);
  await sql`ALTER TABLE push_subscriptions DROP CONSTRAINT push_subscriptions_keys,
    DROP COLUMN channel,
    ALTER COLUMN p256dh SET NOT NULL,
    ALTER COLUMN auth SET NOT NULL`.execute(db);
}
