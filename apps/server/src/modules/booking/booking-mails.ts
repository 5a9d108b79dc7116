import { bookingPath } from '@parley/domain/events';
import { type CalendarEntry, calendarFile, icsFileName } from '@parley/domain/ics';
import { withSettingsDefaults } from '@parley/domain/settings-defaults';
import { guestName, QR_DEFAULT_SIZE, QR_ERROR_CORRECTION, ticketPath } from '@parley/domain/tickets';
import { formatLocalTime, sectionLabel } from '@parley/domain/time-zone';
import QRCode from 'qrcode';
import type { AppContext } from '../../context';
import type { Db } from '../../db/database';
import type { MailAttachment } from '../../db/schema';
import { enqueueMessages, type OutgoingMessages } from '../../mail/messages.repository';
import type { OutgoingMail } from '../../mail/outbox.repository';
import { composeMail } from '../../mail/templates';
import { bookingChangePushes, changeTitle } from '../../push/push-messages';
import type { IssuedTicket } from '../tickets/tickets.service';
import type { BookingEventRow, PartyBookingRow } from './booking.repository';

// What a family (and, when they opted in, a teacher) is told after a booking change: one mail through the
// outbox, in the same transaction as the change, with an .ics of the family's appointments in the
// school's time zone (cancelled ones marked so the calendar drops them).

/** The family's address and settings (read with the party's lock). */
type Family = { email: string; first_name: string; settings: Record<string, Record<string, unknown>> };
type Outcome = {
  created: PartyBookingRow[];
  cancelled: PartyBookingRow[];
  /** Bookings changed in place (a ticketed booking's guests or gown). */
  changed?: PartyBookingRow[];
  all: PartyBookingRow[];
  /** The school confirmed a booking: sent whatever the family's settings say. */
  confirmation?: boolean;
  /** Tickets issued with the new bookings (ticketed events): each goes in the mail as a QR and a link. */
  tickets?: IssuedTicket[];
  /** The family's personal booking link, for a family who books without a password: it opens their booking. */
  link?: string | null;
};

/** Each ticket as an inline QR image (PNG, error correction Q, spec §9) with its name and link. */
async function ticketImages(ctx: AppContext, bookings: PartyBookingRow[], tickets: IssuedTicket[]) {
  const byId = new Map(bookings.map((booking) => [booking.id, booking]));
  const images = [];
  const attachments: MailAttachment[] = [];
  for (const ticket of tickets) {
    const booking = byId.get(ticket.bookingId);
    const attendee = booking?.student_name ?? booking?.parent_name ?? '';
    const url = `${ctx.config.appUrl}${ticketPath(ticket.code)}`;
    const cid = `ticket-${ticket.code}@parley`;
    const png = await QRCode.toBuffer(url, {
      type: 'png',
      errorCorrectionLevel: QR_ERROR_CORRECTION,
      width: QR_DEFAULT_SIZE,
      margin: 2,
    });
    const caption = ticket.guestIndex > 0 ? guestName(ticket.guestIndex, attendee) : `Ticket: ${attendee}`;
    images.push({ cid, caption, url });
    attachments.push({
      filename: `ticket-${ticket.guestIndex + 1}.png`,
      contentType: 'image/png',
      content: png.toString('base64'),
      encoding: 'base64',
      cid,
    });
  }
  return { images, attachments };
}

/** "Thu 12 Mar 2026, 16:00 – 16:10" in the school's zone. */
const when = (booking: PartyBookingRow, timeZone: string) =>
  sectionLabel(booking.starts_at, booking.ends_at, timeZone);

function line(booking: PartyBookingRow, timeZone: string): string {
  const parts = [when(booking, timeZone)];
  if (booking.teacher_name) parts.push(`with ${booking.teacher_name}`);
  if (booking.student_name && booking.parent_id !== null) parts.push(`for ${booking.student_name}`);
  if (booking.subject_name) parts.push(`(${booking.subject_name})`);
  if (booking.location) parts.push(`at ${booking.location}`);
  if (booking.video_url) parts.push(`video: ${booking.video_url}`);
  if (booking.guests > 0) parts.push(`+${booking.guests} guest${booking.guests === 1 ? '' : 's'}`);
  if (booking.gown_size) parts.push(`gown ${booking.gown_size}`);
  return parts.join(' ');
}

function entry(
  ctx: AppContext,
  event: BookingEventRow,
  booking: PartyBookingRow,
  status: 'CONFIRMED' | 'CANCELLED',
): CalendarEntry {
  const host = new URL(ctx.config.appUrl).hostname;
  const who = [booking.teacher_name, booking.student_name].filter(Boolean).join(' – ');
  return {
    uid: `booking-${booking.id}@${host}`,
    startsAt: booking.starts_at,
    endsAt: booking.ends_at,
    summary: who ? `${event.name}: ${who}` : event.name,
    description: [event.school_name, booking.subject_name, booking.video_url].filter(Boolean).join('\n'),
    location: booking.location,
    url: `${ctx.config.appUrl}${bookingPath(event.group_int, event.code)}`,
    status,
    sequence: status === 'CANCELLED' ? 1 : 0,
  };
}

/** An .ics attachment of the entries, in the school's zone. */
export function calendarAttachment(ctx: AppContext, event: BookingEventRow, entries: CalendarEntry[]) {
  const method = entries.every((item) => item.status === 'CANCELLED') ? 'CANCEL' : 'PUBLISH';
  return {
    filename: icsFileName(event.name),
    contentType: `text/calendar; charset=utf-8; method=${method}`,
    content: calendarFile({
      productName: ctx.config.appName,
      timeZone: event.timezone,
      method,
      entries,
      now: new Date(),
    }),
  };
}

export function bookingCalendar(
  ctx: AppContext,
  event: BookingEventRow,
  live: PartyBookingRow[],
  cancelled: PartyBookingRow[],
) {
  return calendarAttachment(ctx, event, [
    ...live.map((booking) => entry(ctx, event, booking, 'CONFIRMED')),
    ...cancelled.map((booking) => entry(ctx, event, booking, 'CANCELLED')),
  ]);
}

/** The bookings of one time of a teacher's schedule (siblings seen together share it) and who they are. */
function appointments(bookings: PartyBookingRow[], zone: string) {
  const byStart = new Map<number, PartyBookingRow[]>();
  for (const booking of bookings) {
    const at = booking.starts_at.getTime();
    byStart.set(at, [...(byStart.get(at) ?? []), booking]);
  }
  return [...byStart.values()].map((group) => {
    const first = group[0] as PartyBookingRow;
    const distinct = (values: Array<string | null>) => [
      ...new Set(values.filter((v): v is string => Boolean(v))),
    ];
    const students = distinct(group.map((b) => b.student_name)).join(', ');
    const subjects = distinct(group.map((b) => b.subject_name)).join(', ');
    const who = first.parent_name ? `${first.parent_name}${students ? ` (${students})` : ''}` : students;
    return {
      time: formatLocalTime(first.starts_at, zone),
      when: when(first, zone),
      who: `${who}${subjects ? `, ${subjects}` : ''}`,
    };
  });
}

/**
 * Teachers who asked (or whose event asks) for a mail per booking: one mail each per change, naming all
 * it did to their schedule (siblings booked together, a booking moved), never one mail per booking row.
 */
function teacherMails(ctx: AppContext, event: BookingEventRow, outcome: Outcome): OutgoingMail[] {
  const zone = event.timezone;
  const teachers = new Map<
    string,
    { name: string; created: PartyBookingRow[]; cancelled: PartyBookingRow[] }
  >();
  for (const kind of ['created', 'cancelled'] as const) {
    for (const booking of outcome[kind]) {
      if (!booking.teacher_email) continue;
      const optedIn = withSettingsDefaults(booking.teacher_settings ?? {}).notifications.bookingNotifications;
      if (!event.booking_notifications && !optedIn) continue;
      const teacher = teachers.get(booking.teacher_email) ?? {
        name: booking.teacher_name ?? '',
        created: [],
        cancelled: [],
      };
      teacher[kind].push(booking);
      teachers.set(booking.teacher_email, teacher);
    }
  }
  return [...teachers].map(([to, teacher]) => {
    const created = appointments(teacher.created, zone);
    const cancelled = appointments(teacher.cancelled, zone);
    const times = (list: typeof created) => list.map((item) => item.time).join(', ');
    const plural = (list: typeof created) => (list.length === 1 ? 'booking' : 'bookings');
    const subject =
      created.length > 0 && cancelled.length > 0
        ? `${plural(created)} moved from ${times(cancelled)} to ${times(created)}`
        : created.length > 0
          ? `new ${plural(created)} at ${times(created)}`
          : `cancelled ${plural(cancelled)} at ${times(cancelled)}`;
    return composeMail({
      product: ctx.config.appName,
      schoolName: event.school_name,
      schoolId: event.school_id,
      to,
      subject: `${event.name}: ${subject}`,
      greeting: `Hello ${teacher.name.split(' ')[0] ?? ''},`,
      lines: [
        ...(created.length > 0 && cancelled.length > 0
          ? [`${subject[0]?.toUpperCase()}${subject.slice(1)}.`]
          : []),
        ...cancelled.flatMap((item) => [`Cancelled booking: ${item.when}`, item.who]),
        ...created.flatMap((item) => [`New booking: ${item.when}`, item.who]),
      ],
      action: {
        label: 'Open your schedule',
        url: `${ctx.config.appUrl}/event/details-teacher?eventId=${event.id}`,
      },
    });
  });
}

/** What a booking change sends: the family's mail, teachers' mails, and the pushes. */
export async function bookingChangeMessages(
  ctx: AppContext,
  event: BookingEventRow,
  family: Family | undefined,
  outcome: Outcome,
): Promise<OutgoingMessages> {
  const zone = event.timezone;
  const url = `${ctx.config.appUrl}${bookingPath(event.group_int, event.code)}`;
  const mails: OutgoingMail[] = [];
  const wantsIt =
    outcome.confirmation || withSettingsDefaults(family?.settings ?? {}).notifications.bookingConfirmations;
  if (family && wantsIt) {
    const subject = outcome.confirmation ? 'your booking is confirmed' : changeTitle(outcome);
    const issued = await ticketImages(ctx, outcome.all, outcome.tickets ?? []);
    const mail = composeMail({
      product: ctx.config.appName,
      schoolName: event.school_name,
      schoolId: event.school_id,
      to: family.email,
      subject: `${event.name}: ${subject}`,
      greeting: `Hello ${family.first_name},`,
      lines: [
        ...(outcome.cancelled.length > 0
          ? ['Cancelled:', ...outcome.cancelled.map((booking) => line(booking, zone))]
          : []),
        ...(outcome.all.length > 0
          ? ['Your appointments:', ...outcome.all.map((booking) => line(booking, zone))]
          : ['You have no appointments booked at this event now.']),
        `Times are in ${zone}. The attached calendar file adds them to your calendar.`,
      ],
      action: {
        label: 'View or change your booking',
        url: outcome.link ? `${url}?link=${outcome.link}` : url,
      },
      ...(issued.images.length > 0 && {
        images: issued.images,
        after: 'Show each ticket’s QR code at the door, on your phone or printed.',
      }),
    });
    mail.attachments = [bookingCalendar(ctx, event, outcome.all, outcome.cancelled), ...issued.attachments];
    mails.push(mail);
  }
  // A school's confirmation tells the family; the teacher heard of the booking when it was made.
  if (!outcome.confirmation) mails.push(...teacherMails(ctx, event, outcome));
  return { mails, pushes: bookingChangePushes(event, family, outcome) };
}

/** The messages of a change, written in its transaction (a booking writes them with its COMMIT). */
export async function mailBookingChange(
  ctx: AppContext,
  trx: Db,
  event: BookingEventRow,
  family: Family | undefined,
  outcome: Outcome,
): Promise<void> {
  await enqueueMessages(trx, event.school_id, await bookingChangeMessages(ctx, event, family, outcome));
}
