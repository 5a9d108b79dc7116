import { idParam } from './fields';
import { ROLE_LABELS, ROLES, type Role } from './roles';
import { z } from './zod';

// The audit trail (issue 11, decision 014): every change an admin or teacher makes to someone else's data,
// with who, when, what and from where. Entries keep snapshots (names, labels) so they outlive the people
// and events they are about. The summary a screen or the CSV shows is made here, once for both sides.

// ── what is recorded ─────────────────────────────────────────────────────────────────────────────────

export const AUDIT_ACTIONS = [
  'booking.created',
  'booking.moved',
  'booking.changed',
  'booking.cancelled',
  'booking.confirmed',
  'person.created',
  'person.role_added',
  'person.updated',
  'person.role_removed',
  'person.deleted',
  'person.links_revoked',
  'event.enabled',
  'event.disabled',
  'event.updated',
  'event.deleted',
  'message.sent',
  'ticket.scan_undone',
  'tickets.reissued',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_SUBJECT_TYPES = ['person', 'event', 'booking', 'ticket'] as const;
export type AuditSubjectType = (typeof AUDIT_SUBJECT_TYPES)[number];

/** A changed field's value: text, a number, yes/no, nothing, or a list (ids, sizes). */
export const auditValue = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.null(),
  z.array(z.union([z.string(), z.number()])),
]);
export type AuditValue = z.infer<typeof auditValue>;
export const auditChange = z.object({ from: auditValue.optional(), to: auditValue.optional() });
export type AuditChange = z.infer<typeof auditChange>;

/** What changed, kept small: a booking's times, the fields edited (old → new), a message's reach. */
export const auditDetail = z.object({
  /** A booking's time and teacher, in the school's time zone (created, cancelled, confirmed). */
  at: z.string().optional(),
  /** A moved booking: where it was and where it is now. */
  from: z.string().optional(),
  to: z.string().optional(),
  /** Fields edited, by the API's names: old → new. */
  changes: z.record(z.string(), auditChange).optional(),
  role: z.enum(ROLES).optional(),
  /** Added by a bulk add (CSV) rather than one by one. */
  via: z.literal('bulk-add').optional(),
  /** The message sent: inviteToBook, reminder, or an invitation to sign up. */
  message: z.string().optional(),
  audience: z.string().optional(),
  recipients: z.number().optional(),
  bookingsCancelled: z.number().optional(),
  /** A removed person whose past bookings keep their account (deactivated). */
  accountKept: z.boolean().optional(),
  tickets: z.number().optional(),
  /** Personal booking links ended. */
  links: z.number().optional(),
});
export type AuditDetail = z.infer<typeof auditDetail>;

// ── the rule ─────────────────────────────────────────────────────────────────────────────────────────

/**
 * Recorded: a change by an admin or a teacher (not by a personal link) to someone else's data — an event
 * (the school's), or anything touching a person other than themselves. A parent booking for their own
 * family, or an admin editing their own name, is not an audit entry.
 */
export function isAuditable(
  actor: { userId: number; roles: readonly Role[] },
  entry: { subjectType: AuditSubjectType; people: readonly number[] },
): boolean {
  if (!actor.roles.includes('admin') && !actor.roles.includes('teacher')) return false;
  if (entry.subjectType === 'event') return true;
  return entry.people.some((id) => id !== actor.userId);
}

// ── the wire contract (GET audit/person, audit/event, audit/export) ───────────────────────────────────

/** Entries a screen lists at most (newest first); the CSV has them all. */
export const AUDIT_PAGE_MAX = 200;

export const auditPersonQuery = z.strictObject({ id: idParam });
export const auditEventQuery = z.strictObject({ id: idParam });
export const auditExportQuery = z.strictObject({ personId: idParam.optional(), eventId: idParam.optional() });

export const auditEntry = z.object({
  id: z.number(),
  /** ISO 8601, UTC. */
  at: z.string(),
  /** The same instant on the school's wall clock. */
  atLabel: z.string(),
  actor: z.object({ id: z.number().nullable(), name: z.string(), email: z.string() }),
  action: z.enum(AUDIT_ACTIONS),
  subject: z.object({ type: z.enum(AUDIT_SUBJECT_TYPES), id: z.number(), label: z.string() }),
  eventId: z.number().nullable(),
  /** Everyone the change touched (the family of a booking, a message's recipients). */
  people: z.array(z.number()),
  detail: auditDetail,
  /** One line: what was done, to whom, and what changed. */
  summary: z.string(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntry>;

export const auditListResponse = z.object({
  items: z.array(auditEntry),
  /** More entries than listed: the CSV has them all. */
  more: z.boolean(),
});
export type AuditListResponse = z.infer<typeof auditListResponse>;

// ── texts ────────────────────────────────────────────────────────────────────────────────────────────

export const AUDIT_TEXT = {
  title: 'Activity',
  help: 'Changes made by admins and teachers, newest first.',
  empty: 'No changes recorded yet.',
  more: (shown: number) => `Showing the latest ${shown}. Download the CSV for all of them.`,
  download: 'Download CSV',
  downloadFailed: 'Could not download the activity.',
  loadFailed: 'Could not load the activity.',
  when: 'When',
  who: 'Who',
  what: 'What',
  where: 'From where',
  personNotFound: 'Person not found.',
  eventNotFound: 'Event not found.',
} as const;

export const AUDIT_CSV_COLUMNS = [
  'When',
  'When (UTC)',
  'Who',
  'Who email',
  'Action',
  'What',
  'Subject type',
  'Subject id',
  'Subject',
  'Event id',
  'People',
  'Detail',
  'IP address',
  'User agent',
] as const;

export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  'booking.created': 'Booked for a family',
  'booking.moved': 'Moved a booking',
  'booking.changed': 'Changed a booking',
  'booking.cancelled': 'Cancelled a booking',
  'booking.confirmed': 'Confirmed a booking',
  'person.created': 'Added a person',
  'person.role_added': 'Added a role',
  'person.updated': 'Edited a person',
  'person.role_removed': 'Removed a role',
  'person.deleted': 'Removed a person',
  'person.links_revoked': 'Revoked personal links',
  'event.enabled': 'Enabled an event',
  'event.disabled': 'Disabled an event',
  'event.updated': 'Edited an event',
  'event.deleted': 'Deleted an event',
  'message.sent': 'Sent a message',
  'ticket.scan_undone': 'Undid a ticket scan',
  'tickets.reissued': 'Re-issued tickets',
};

const FIELD_LABELS: Record<string, string> = {
  title: 'title',
  firstName: 'first name',
  lastName: 'last name',
  email: 'email',
  status: 'status',
  subjectIds: 'subjects',
  studentIds: 'children',
  parentIds: 'parents',
  studies: 'studies',
  videoConferenceUrl: 'video link',
  name: 'name',
  eventTypeId: 'event type',
  opensAt: 'booking opens',
  closesAt: 'booking closes',
  bookingPageMessage: 'booking page message',
  slotMinutes: 'slot minutes',
  breakMinutes: 'break minutes',
  travelMinutes: 'travel minutes',
  usersPerSlot: 'places per slot',
  guestAllowance: 'guests',
  gownSizes: 'gown sizes',
  maxAppointmentsPerChild: 'appointments per child',
  bookingNotifications: 'booking notifications',
  dayBeforeReminder: 'day-before reminder',
  meetingMode: 'held in person or by video',
  scanOpensHoursBefore: 'scanning opens (hours before)',
  scanClosesHoursAfter: 'scanning closes (hours after)',
};

const MESSAGE_LABELS: Record<string, string> = {
  inviteToBook: 'the invitation to book',
  reminder: 'a reminder',
  invitation: 'an invitation to sign up',
};

function valueText(field: string, value: AuditValue | undefined, subjectType: AuditSubjectType): string {
  if (value === undefined || value === null || value === '') return '(none)';
  if (field === 'status' && typeof value === 'number') {
    if (subjectType === 'event') return value === 1 ? 'Enabled' : 'Disabled';
    return value === 1 ? 'Active' : 'Inactive';
  }
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  if (Array.isArray(value)) return value.length === 0 ? '(none)' : value.join(', ');
  return String(value);
}

/** "first name Ann → Anne; status Active → Inactive" */
export function changesText(
  changes: Record<string, AuditChange> | undefined,
  subjectType: AuditSubjectType,
): string {
  return Object.entries(changes ?? {})
    .map(([field, change]) => {
      const label = FIELD_LABELS[field] ?? field;
      const to = valueText(field, change.to, subjectType);
      return 'from' in change
        ? `${label} ${valueText(field, change.from, subjectType)} → ${to}`
        : `${label} now ${to}`;
    })
    .join('; ');
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;
const roleText = (role: Role | undefined) => (role ? ROLE_LABELS[role].toLowerCase() : 'person');

/** One line for a screen or the CSV: what was done, to whom or what, and what changed. */
export function auditSummary(entry: {
  action: AuditAction;
  subject: { type: AuditSubjectType; label: string };
  detail: AuditDetail;
}): string {
  const { action, detail } = entry;
  const label = entry.subject.label;
  // Enabling or disabling says the status already.
  const shown =
    action === 'event.enabled' || action === 'event.disabled'
      ? Object.fromEntries(Object.entries(detail.changes ?? {}).filter(([field]) => field !== 'status'))
      : detail.changes;
  const changes = changesText(shown, entry.subject.type);
  const cancelled = detail.bookingsCancelled
    ? ` (${plural(detail.bookingsCancelled, 'booking')} cancelled)`
    : '';
  const withChanges = (text: string) => `${changes ? `${text}: ${changes}` : text}${cancelled}`;
  switch (action) {
    case 'booking.created':
      return `Booked ${label}${detail.at ? ` — ${detail.at}` : ''}`;
    case 'booking.moved':
      return `Moved the booking of ${label}: ${detail.from ?? '?'} → ${detail.to ?? '?'}`;
    case 'booking.changed':
      return `Changed the booking of ${label}: ${detail.from ?? '?'} → ${detail.to ?? '?'}`;
    case 'booking.cancelled':
      return `Cancelled the booking of ${label}${detail.at ? ` — ${detail.at}` : ''}`;
    case 'booking.confirmed':
      return `Confirmed the booking of ${label}${detail.at ? ` — ${detail.at}` : ''}`;
    case 'person.created':
      return `Added ${label} as ${roleText(detail.role)}${detail.via === 'bulk-add' ? ' (bulk add)' : ''}`;
    case 'person.role_added':
      return `Made ${label} ${roleText(detail.role)}${detail.via === 'bulk-add' ? ' (bulk add)' : ''}`;
    case 'person.updated':
      return withChanges(`Edited ${label}`);
    case 'person.role_removed':
      return `Removed the ${roleText(detail.role)} role of ${label}${cancelled}`;
    case 'person.deleted':
      return `Removed ${label}${detail.accountKept ? " (account kept, deactivated, for the school's records)" : ''}${cancelled}`;
    case 'person.links_revoked':
      return `Revoked the personal booking links of ${label} (${plural(detail.links ?? 0, 'link')})`;
    case 'event.enabled':
      return withChanges(`Enabled ${label}`);
    case 'event.disabled':
      return withChanges(`Disabled ${label}`);
    case 'event.updated':
      return withChanges(`Edited ${label}`);
    case 'event.deleted':
      return `Deleted ${label}${cancelled}`;
    case 'message.sent': {
      const what = MESSAGE_LABELS[detail.message ?? ''] ?? 'a message';
      if (entry.subject.type === 'person') return `Sent ${what} to ${label}`;
      const reach = detail.recipients !== undefined ? ` to ${plural(detail.recipients, 'recipient')}` : '';
      return `Sent ${what} for ${label}${reach}`;
    }
    case 'ticket.scan_undone':
      return `Undid the admission of ${label}${detail.at ? ` (admitted ${detail.at})` : ''}`;
    case 'tickets.reissued':
      return `Re-issued ${plural(detail.tickets ?? 0, 'ticket')} for ${label}`;
  }
}
