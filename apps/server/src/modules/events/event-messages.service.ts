import { bookingPath, EVENT_TEXT, type EventMessageType } from '@parley/domain/events';
import { sectionLabel } from '@parley/domain/time-zone';
import type { AppContext } from '../../context';
import type { Actor } from '../../lib/actor';
import { conflict, notFound } from '../../lib/http-error';
import { enqueueMails } from '../../mail/outbox.repository';
import { eventMessageMail } from '../../mail/templates';
import { pushEventNews } from '../../push/push-messages';
import { recordAudit } from '../audit/audit.service';
import { eventSubject } from '../audit/audit-entries';
import { issueEventLinks } from '../tokens/tokens.repository';
import * as repo from './events.repository';
import { loadSchool } from './sections.service';

// "Invite to book" and "reminder" (spec §7 Messages): one mail per recipient through the outbox, each with
// the event's booking page. A disabled event sends nothing: its booking page would refuse them.

type Audience = { notBooked: boolean; userId?: number };

async function send(
  ctx: AppContext,
  schoolId: number,
  eventId: number,
  kind: EventMessageType,
  audience: Audience,
  actor: Actor,
) {
  return ctx.db.transaction().execute(async (trx) => {
    const event = await repo.findEvent(trx, schoolId, eventId);
    if (!event) throw notFound(EVENT_TEXT.notFound);
    if (event.status !== 1) throw conflict(EVENT_TEXT.disabledNoMessages);
    const [school, sections, recipients] = await Promise.all([
      loadSchool(trx, schoolId),
      repo.listSections(trx, schoolId, eventId),
      repo.messageRecipients(trx, schoolId, eventId, audience),
    ]);
    if (audience.userId !== undefined && recipients.length === 0)
      throw notFound(EVENT_TEXT.recipientNotFound);
    const times = sections.map((section) =>
      sectionLabel(section.starts_at, section.ends_at, school.timezone),
    );
    const url = `${ctx.config.appUrl}${bookingPath(event.group_int, event.code)}`;
    // Each mail carries a personal link: an invited parent or student books from it without a password.
    const links = await issueEventLinks(trx, {
      schoolId,
      eventId,
      userIds: recipients.map((recipient) => recipient.id),
    });
    await enqueueMails(
      trx,
      recipients.map((recipient) =>
        eventMessageMail(
          {
            product: ctx.config.appName,
            appUrl: ctx.config.appUrl,
            schoolName: school.name,
            schoolId,
            to: recipient.email,
            firstName: recipient.first_name,
          },
          {
            kind,
            eventName: event.name,
            times,
            bookingPageMessage: event.booking_page_message,
            url: `${url}?link=${links.get(recipient.id)}`,
          },
        ),
      ),
    );
    await pushEventNews(
      trx,
      schoolId,
      event,
      kind,
      recipients.map((recipient) => recipient.id),
    );
    if (recipients.length > 0)
      await recordAudit(trx, actor, {
        action: 'message.sent',
        subject: eventSubject(event),
        eventId,
        people: recipients.map((recipient) => recipient.id),
        detail: {
          message: kind,
          audience: audience.userId !== undefined ? 'one' : audience.notBooked ? 'notBooked' : 'all',
          recipients: recipients.length,
        },
      });
    const what = kind === 'inviteToBook' ? 'Invitation' : 'Reminder';
    const sent = recipients.length;
    return {
      sent,
      message:
        sent === 0
          ? 'No recipients to message.'
          : `${what} sent to ${sent === 1 ? '1 recipient' : `${sent} recipients`}.`,
    };
  });
}

export function sendToRecipients(
  ctx: AppContext,
  schoolId: number,
  eventId: number,
  kind: EventMessageType,
  audience: 'all' | 'notBooked',
  actor: Actor,
) {
  return send(ctx, schoolId, eventId, kind, { notBooked: audience === 'notBooked' }, actor);
}

export function sendToOneRecipient(
  ctx: AppContext,
  schoolId: number,
  eventId: number,
  userId: number,
  kind: EventMessageType,
  actor: Actor,
) {
  return send(ctx, schoolId, eventId, kind, { notBooked: false, userId }, actor);
}
