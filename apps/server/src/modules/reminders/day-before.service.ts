import {
  type ReminderItem,
  reminderDay,
  reminderLine,
  reminderPush,
} from '@parley/domain/day-before-reminder';
import { bookingPath } from '@parley/domain/events';
import { withSettingsDefaults } from '@parley/domain/settings-defaults';
import type { Db } from '../../db/database';
import { enqueueMails } from '../../mail/outbox.repository';
import { dayBeforeReminderMail } from '../../mail/templates';
import { pushDayBeforeReminder } from '../../push/push-messages';
import { issueEventLinksWithoutPassword } from '../tokens/tokens.repository';
import {
  type ClaimedReminder,
  claimDayBeforeReminders,
  type ReminderAppointment,
  reminderAppointments,
} from './day-before.repository';

// The reminder the day before (issue 40, decision 038): at the school's reminder time (18:00 in its zone
// unless it set another), one mail and one push to each family and teacher with appointments or tickets
// the next day, listing them all. Claimed and queued in one transaction per batch: a process that stops
// midway leaves the rest to the next sweep (any process's), and nobody is reminded twice.

const BATCH = 200;

export type ReminderSender = { product: string; appUrl: string };

const itemOf = (row: ReminderAppointment): ReminderItem => ({
  startsAt: row.starts_at,
  endsAt: row.ends_at,
  eventName: row.event_name,
  asTeacher: row.as_teacher,
  teacherName: row.teacher_name,
  studentName: row.student_name,
  location: row.location,
  guests: row.guests,
});

/** The mail and push of each claimed person (someone whose bookings were all cancelled meanwhile: none). */
async function remind(trx: Db, sender: ReminderSender, claimed: ClaimedReminder[]): Promise<void> {
  const rows = await reminderAppointments(trx, claimed);
  const people = new Map<string, ReminderAppointment[]>();
  for (const row of rows) {
    const key = `${row.school_id}:${row.user_id}`;
    const list = people.get(key);
    if (list) list.push(row);
    else people.set(key, [row]);
  }
  const mails = [];
  for (const appointments of people.values()) {
    const [first] = appointments as [ReminderAppointment];
    const events = new Set(appointments.map((row) => row.event_id));
    const teacherOnly = appointments.every((row) => row.as_teacher);
    // One event: its page (a family without a password gets a personal link to it); several: home.
    // The push opens the path; the mail's link carries the personal link too.
    let path = '/home';
    let personal = '';
    let label = `Open ${sender.product}`;
    if (events.size === 1 && teacherOnly) {
      path = `/event/details-teacher?eventId=${first.event_id}`;
      label = 'View your schedule';
    } else if (events.size === 1 && !teacherOnly) {
      path = bookingPath(first.group_int, first.code);
      label = 'View or change your booking';
      if (!first.has_password) {
        const links = await issueEventLinksWithoutPassword(trx, {
          schoolId: first.school_id,
          eventId: first.event_id,
          userIds: [first.user_id],
        });
        const link = links.get(first.user_id);
        if (link) personal = `?link=${link}`;
      }
    }
    const items = appointments.map(itemOf);
    // The mail as their settings say (Settings → Notifications → event reminders); the push as theirs.
    const notifications: Record<string, unknown> = withSettingsDefaults(first.settings ?? {}).notifications;
    if (notifications.eventReminders !== false)
      mails.push(
        dayBeforeReminderMail(
          {
            product: sender.product,
            appUrl: sender.appUrl,
            schoolName: first.school_name,
            schoolId: first.school_id,
            to: first.email,
            firstName: first.first_name,
          },
          {
            day: reminderDay(items, first.timezone),
            lines: items.map((item) => reminderLine(item, first.timezone)),
            action: { label, url: `${sender.appUrl}${path}${personal}` },
          },
        ),
      );
    await pushDayBeforeReminder(trx, first.school_id, first.user_id, {
      ...reminderPush(items, first.timezone),
      url: path,
    });
  }
  await enqueueMails(trx, mails);
}

/** Queues the reminders due at `now`, a batch per transaction; returns how many people were reminded. */
export async function queueDayBeforeReminders(
  db: Db,
  sender: ReminderSender,
  now = new Date(),
): Promise<number> {
  let total = 0;
  for (;;) {
    const claimed = await db.transaction().execute(async (trx) => {
      const batch = await claimDayBeforeReminders(trx, now, BATCH);
      await remind(trx, sender, batch);
      return batch.length;
    });
    total += claimed;
    if (claimed < BATCH) return total;
  }
}
