import { EVENT_MESSAGE_TYPES, type EventMessageType } from './events';
import { z } from './zod';

// Work done in batches after its request has answered (decision 037): a message to every recipient of a
// district's event. The messages card shows each one's progress.

export const JOB_KINDS = ['event-message'] as const;
export const JOB_STATUSES = ['running', 'done', 'failed'] as const;
/** How often the messages card asks for progress while a job of its event runs. */
export const JOB_POLL_MS = 1000;

export const jobProgress = z.object({
  id: z.number().int(),
  kind: z.enum(JOB_KINDS),
  status: z.enum(JOB_STATUSES),
  done: z.number().int(),
  total: z.number().int(),
  /** What it is and how far it got, in words: "Sending reminder: 1,200 of 4,000 recipients." */
  message: z.string(),
  createdAt: z.string(),
});
export type JobProgress = z.infer<typeof jobProgress>;

export const jobsOfEvent = z.object({ items: z.array(jobProgress) });

/** What an event message job sends: its message type and audience. */
export const eventMessageJob = z.object({
  message: z.enum(EVENT_MESSAGE_TYPES),
  notBooked: z.boolean(),
});

/** A count as the school reads it: 40,000 rather than 40000. */
const counted = (count: number) => count.toLocaleString('en-GB');
const recipients = (count: number) => (count === 1 ? '1 recipient' : `${counted(count)} recipients`);

/** The words for a message sent (or being sent) to `done` of `total` recipients. */
export function eventMessageProgress(
  message: EventMessageType,
  progress: { status: (typeof JOB_STATUSES)[number]; done: number; total: number },
): string {
  const what = message === 'inviteToBook' ? 'Invitation' : 'Reminder';
  if (progress.status === 'running')
    return `Sending ${what.toLowerCase()}: ${counted(progress.done)} of ${recipients(progress.total)}.`;
  if (progress.status === 'failed')
    return `${what} stopped after ${counted(progress.done)} of ${recipients(progress.total)}.`;
  return progress.done === 0 ? 'No recipients to message.' : `${what} sent to ${recipients(progress.done)}.`;
}
