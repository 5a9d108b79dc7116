import { bookingPath } from '@parley/domain/events';
import type { PushPayload } from '@parley/domain/push';
import { withSettingsDefaults } from '@parley/domain/settings-defaults';
import { formatLocalTime } from '@parley/domain/time-zone';
import type { Db } from '../db/database';
import type { BookingEventRow, PartyBookingRow } from '../modules/booking/booking.repository';
import { enqueuePush, type OutgoingPush } from './push.repository';

// What is pushed, enqueued in the transaction of the change (like its mail). A notification for whoever
// wants one (Settings, group `push`); `refresh_home` (spec §4) for everyone else whose home changed.

const DAY = 86_400;
const HOUR = 3_600;

type Settings = Record<string, Record<string, unknown>>;
type Outcome = {
  created: PartyBookingRow[];
  cancelled: PartyBookingRow[];
  /** Bookings changed in place (a ticketed booking's guests or gown). */
  changed?: PartyBookingRow[];
  all: PartyBookingRow[];
};

/** What a change did, as a mail's subject and a push's title say it. */
export function changeTitle(outcome: Outcome): string {
  if ((outcome.created.length > 0 && outcome.cancelled.length > 0) || (outcome.changed ?? []).length > 0)
    return 'booking changed';
  return outcome.created.length > 0 ? 'booking confirmed' : 'booking cancelled';
}

const pushWanted = (settings: Settings | null | undefined) => withSettingsDefaults(settings ?? {}).push;

/** A booking change's pushes, written with its mail (booking-mails.ts): none for a change of nothing. */
export function bookingChangePushes(
  event: BookingEventRow,
  family: { settings: Settings } | undefined,
  outcome: Outcome,
): OutgoingPush[] {
  const changed = [...outcome.created, ...(outcome.changed ?? []), ...outcome.cancelled];
  if (changed.length === 0) return [];
  const pushes: OutgoingPush[] = [];
  const url = bookingPath(event.group_int, event.code);
  const party = [...new Set(changed.map((b) => b.parent_id ?? b.student_id))].filter(
    (id): id is number => id !== null,
  );
  const title = `${event.name}: ${changeTitle(outcome)}`;
  const notified = new Set<number>();
  if (family && pushWanted(family.settings).bookings) {
    const first = outcome.all[0] ?? outcome.cancelled[0];
    const body = first
      ? `${outcome.all.length} appointment${outcome.all.length === 1 ? '' : 's'} booked; first at ${formatLocalTime(first.starts_at, event.timezone)}`
      : '';
    pushes.push(notice(party, { action: 'booking', title, body, url }));
    for (const id of party) notified.add(id);
  }
  // Teachers who opted in to a notice per booking (or whose event asks for it), as with mail.
  for (const booking of changed) {
    if (booking.teacher_id === null || notified.has(booking.teacher_id)) continue;
    const optedIn = withSettingsDefaults(booking.teacher_settings ?? {}).notifications.bookingNotifications;
    if (!(event.booking_notifications || optedIn) || !pushWanted(booking.teacher_settings).bookings) continue;
    // One notice per teacher per change, as with mail: a booking moved says from when to when.
    const times = (list: PartyBookingRow[]) =>
      [
        ...new Set(
          list
            .filter((b) => b.teacher_id === booking.teacher_id)
            .map((b) => formatLocalTime(b.starts_at, event.timezone)),
        ),
      ].join(', ');
    const [made, gone] = [times(outcome.created), times(outcome.cancelled)];
    const [what, body] =
      made && gone
        ? ['Booking moved', `Booking moved from ${gone} to ${made}`]
        : made
          ? ['New booking', `New booking at ${made}`]
          : gone
            ? ['Cancelled booking', `Cancelled booking at ${gone}`]
            : ['Changed booking', `Changed booking at ${formatLocalTime(booking.starts_at, event.timezone)}`];
    pushes.push(
      notice([booking.teacher_id], {
        action: 'booking',
        title: `${event.name}: ${what.toLowerCase()}`,
        body,
        url: `/event/details-teacher?eventId=${event.id}`,
      }),
    );
    notified.add(booking.teacher_id);
  }
  // Everyone else whose home lists these bookings: the party, the children booked for, the teachers.
  const homes = new Set(
    [...party, ...changed.map((b) => b.student_id), ...changed.map((b) => b.teacher_id)].filter(
      (id): id is number => id !== null && !notified.has(id),
    ),
  );
  if (homes.size > 0) pushes.push(homeRefresh([...homes]));
  return pushes;
}

/** spec §4: the page refreshes home; nothing is shown. Short-lived: a stale refresh is worthless. */
const homeRefresh = (userIds: number[]): OutgoingPush => ({
  userIds,
  payload: { action: 'refresh_home', title: '', body: '', url: '/home' } satisfies PushPayload,
  ttlSeconds: HOUR,
  urgency: 'normal',
});

/** A notice someone sees, kept a day. */
const notice = (userIds: number[], payload: PushPayload): OutgoingPush => ({
  userIds,
  payload,
  ttlSeconds: DAY,
  urgency: 'high',
});

/**
 * An event's news for its recipients (bounded by the event's recipient list): it opened for booking, an
 * invitation to book or a reminder from the school. Who turned that push off gets a home refresh instead.
 */
export async function pushEventNews(
  trx: Db,
  schoolId: number,
  event: { name: string; group_int: number; code: string },
  kind: 'opened' | 'inviteToBook' | 'reminder',
  userIds: number[],
): Promise<void> {
  if (userIds.length === 0) return;
  const key = kind === 'reminder' ? 'reminders' : 'eventOpening';
  const payload: PushPayload = {
    action: kind === 'reminder' ? 'reminder' : 'event_open',
    title: event.name,
    body:
      kind === 'opened'
        ? 'Booking is open.'
        : kind === 'inviteToBook'
          ? 'You are invited to book.'
          : 'A reminder to book.',
    url: bookingPath(event.group_int, event.code),
  };
  await enqueuePush(trx, schoolId, {
    userIds,
    payload,
    ttlSeconds: DAY,
    urgency: 'normal',
    setting: { key, want: true },
  });
  await enqueuePush(trx, schoolId, {
    userIds,
    payload: { action: 'refresh_home', title: '', body: '', url: '/home' },
    ttlSeconds: HOUR,
    urgency: 'normal',
    setting: { key, want: false },
  });
}

/**
 * An invitation to a further role, for someone who already has an account here (only they can have a
 * subscription). The link itself is a credential: it stays in the mail; the push says where to look.
 */
export function pushInvitation(
  trx: Db,
  schoolId: number,
  userId: number,
  schoolName: string,
  role: string,
  /** The role is theirs already (an account with a password): nothing to accept. */
  added = false,
) {
  return enqueuePush(trx, schoolId, {
    userIds: [userId],
    payload: {
      action: 'invitation',
      title: added ? `${schoolName}: a new role` : `${schoolName}: an invitation`,
      body: added
        ? `You are now also ${role}.`
        : `You are invited as ${role}. Open the invitation mail to accept.`,
      url: '/home',
    } satisfies PushPayload,
    ttlSeconds: DAY,
    urgency: 'normal',
    setting: { key: 'invitations', want: true },
  });
}

/**
 * The reminder the day before (setting `reminders`; modules/reminders): one push per person and day,
 * whatever their appointments, as their mail.
 */
export function pushDayBeforeReminder(
  trx: Db,
  schoolId: number,
  userId: number,
  reminder: { title: string; body: string; url: string },
): Promise<void> {
  return enqueuePush(trx, schoolId, {
    userIds: [userId],
    payload: { action: 'reminder', ...reminder } satisfies PushPayload,
    ttlSeconds: DAY,
    urgency: 'normal',
    setting: { key: 'reminders', want: true },
  });
}
