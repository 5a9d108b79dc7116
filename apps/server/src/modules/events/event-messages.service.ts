import { bookingPath, EVENT_TEXT, type EventMessageType } from '@parley/domain/events';
import { eventMessageJob, eventMessageProgress } from '@parley/domain/jobs';
import { ROLES } from '@parley/domain/roles';
import { sectionLabel } from '@parley/domain/time-zone';
import { z } from 'zod';
import type { AppContext } from '../../context';
import type { Db } from '../../db/database';
import type { Actor } from '../../lib/actor';
import { conflict, notFound } from '../../lib/http-error';
import { enqueueMails } from '../../mail/outbox.repository';
import { eventMessageMail } from '../../mail/templates';
import { pushEventNews } from '../../push/push-messages';
import { recordAudit } from '../audit/audit.service';
import { eventSubject } from '../audit/audit-entries';
import { type JobDeps, type JobStep, type NewJob, startJob } from '../jobs/jobs.service';
import { issueEventLinks } from '../tokens/tokens.repository';
import * as repo from './events.repository';
import { loadSchool } from './sections.service';

// "Invite to book" and "reminder" (spec §7 Messages): one mail per recipient through the outbox, each with
// the event's booking page. A disabled event sends nothing: its booking page would refuse them. To all
// recipients it is a job (decision 037): a district's 40,000 go in batches after the answer.

type Event = repo.EventRow;
type Recipient = Awaited<ReturnType<typeof repo.messageRecipients>>[number];

/** The job's payload: what to send, to whom, and who sent it (for the audit trail of every batch). */
const messageJob = eventMessageJob.extend({
  actor: z.object({
    userId: z.number().int(),
    schoolId: z.number().int(),
    roles: z.array(z.enum(ROLES)),
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
  }),
});

/** Mails (each with a personal link), pushes and the audit entry for these recipients, in `trx`. */
async function deliver(
  trx: Db,
  deps: JobDeps,
  event: Event,
  kind: EventMessageType,
  recipients: Recipient[],
  input: { actor: Actor; audience: 'all' | 'notBooked' | 'one' },
): Promise<void> {
  if (recipients.length === 0) return;
  const schoolId = event.school_id;
  const [school, sections] = await Promise.all([
    loadSchool(trx, schoolId),
    repo.listSections(trx, schoolId, event.id),
  ]);
  const times = sections.map((section) => sectionLabel(section.starts_at, section.ends_at, school.timezone));
  const url = `${deps.config.appUrl}${bookingPath(event.group_int, event.code)}`;
  // Each mail carries a personal link: an invited parent or student books from it without a password.
  const links = await issueEventLinks(trx, {
    schoolId,
    eventId: event.id,
    userIds: recipients.map((recipient) => recipient.id),
  });
  await enqueueMails(
    trx,
    recipients.map((recipient) =>
      eventMessageMail(
        {
          product: deps.config.appName,
          appUrl: deps.config.appUrl,
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
  const ids = recipients.map((recipient) => recipient.id);
  await pushEventNews(trx, schoolId, event, kind, ids);
  await recordAudit(trx, input.actor, {
    action: 'message.sent',
    subject: eventSubject(event),
    eventId: event.id,
    people: ids,
    detail: { message: kind, audience: input.audience, recipients: recipients.length },
  });
}

/** One batch of a message job: the next recipients after the cursor, by user id. */
const eventMessageStep: JobStep = async (trx, deps, job, limit) => {
  const payload = messageJob.parse(job.payload);
  const event = await repo.findEvent(trx, job.school_id, job.event_id ?? 0);
  // Disabled since it started: the booking page would refuse its links, so the job ends where it is.
  if (event?.status !== 1) return { handled: 0, cursor: job.cursor };
  const recipients = await repo.messageRecipients(
    trx,
    job.school_id,
    event.id,
    { notBooked: payload.notBooked },
    { after: job.cursor, limit },
  );
  await deliver(trx, deps, event, payload.message, recipients, {
    actor: payload.actor,
    audience: payload.notBooked ? 'notBooked' : 'all',
  });
  return { handled: recipients.length, cursor: recipients.at(-1)?.id ?? job.cursor };
};

/** The kinds of job the events module runs (modules/jobs/job-worker.ts resumes them). */
export const EVENT_JOB_STEPS = { 'event-message': eventMessageStep } as const;

async function openEvent(trx: Db, schoolId: number, eventId: number): Promise<Event> {
  const event = await repo.findEvent(trx, schoolId, eventId);
  if (!event) throw notFound(EVENT_TEXT.notFound);
  if (event.status !== 1) throw conflict(EVENT_TEXT.disabledNoMessages);
  return event;
}

/** A message job to create (startJob's `create`): checks the event and counts the recipients now. */
export const eventMessageJobOf =
  (schoolId: number, eventId: number, kind: EventMessageType, audience: 'all' | 'notBooked', actor: Actor) =>
  async (trx: Db): Promise<NewJob | null> => {
    await openEvent(trx, schoolId, eventId);
    const notBooked = audience === 'notBooked';
    const total = await repo.countMessageRecipients(trx, schoolId, eventId, { notBooked });
    if (total === 0) return null;
    const payload: z.input<typeof messageJob> = {
      message: kind,
      notBooked,
      actor: { ...actor, roles: [...actor.roles] },
    };
    return { schoolId, eventId, kind: 'event-message', payload, total };
  };

/** To every recipient, or to those not booked: done before the answer for a school, as a job beyond. */
export async function sendToRecipients(
  ctx: AppContext,
  schoolId: number,
  eventId: number,
  kind: EventMessageType,
  audience: 'all' | 'notBooked',
  actor: Actor,
) {
  const progress = await startJob(
    ctx,
    eventMessageJobOf(schoolId, eventId, kind, audience, actor),
    eventMessageStep,
  );
  if (!progress)
    return { sent: 0, message: eventMessageProgress(kind, { status: 'done', done: 0, total: 0 }) };
  return {
    sent: progress.done,
    message: progress.message,
    ...(progress.status === 'running' && { job: progress }),
  };
}

/** To one recipient of the event, at once. */
export function sendToOneRecipient(
  ctx: AppContext,
  schoolId: number,
  eventId: number,
  userId: number,
  kind: EventMessageType,
  actor: Actor,
) {
  return ctx.db.transaction().execute(async (trx) => {
    const event = await openEvent(trx, schoolId, eventId);
    const recipients = await repo.messageRecipients(
      trx,
      schoolId,
      eventId,
      { notBooked: false, userId },
      { after: 0, limit: 1 },
    );
    if (recipients.length === 0) throw notFound(EVENT_TEXT.recipientNotFound);
    await deliver(trx, ctx, event, kind, recipients, { actor, audience: 'one' });
    return { sent: 1, message: eventMessageProgress(kind, { status: 'done', done: 1, total: 1 }) };
  });
}
