import {
  AUDIT_ACTION_LABELS,
  AUDIT_CSV_COLUMNS,
  AUDIT_PAGE_MAX,
  AUDIT_TEXT,
  type AuditAction,
  type AuditDetail,
  type AuditEntry,
  type AuditSubjectType,
  auditDetail,
  auditSummary,
  isAuditable,
} from '@parley/domain/audit';
import { formatLocalDateTime, instantToLocal } from '@parley/domain/time-zone';
import type { AppContext } from '../../context';
import type { Db } from '../../db/database';
import type { Actor } from '../../lib/actor';
import { notFound } from '../../lib/http-error';
import { BOM, csvField } from '../events/bookings-csv';
import * as repo from './audit.repository';

// The audit trail (issue 11, decision 014). Services call recordAudit in the transaction of the change it
// records, so an entry exists exactly when its change committed. Admins read a person's and an event's
// entries, and download them as CSV.

/** One change, as a service describes it. */
export type AuditInput = {
  action: AuditAction;
  subject: { type: AuditSubjectType; id: number; label: string };
  /** The event it happened in. */
  eventId?: number | null;
  /** Everyone the change touched besides a person subject (who is always counted). */
  people?: readonly number[];
  detail?: AuditDetail;
};

type Inputs = AuditInput | null | undefined | ReadonlyArray<AuditInput | null | undefined>;

/**
 * Records changes in the caller's transaction: only those an admin or teacher made to someone else's data
 * (domain isAuditable); a family acting on its own, or nothing changed (null), records nothing.
 */
export async function recordAudit(trx: Db, actor: Actor, inputs: Inputs): Promise<void> {
  const entries = (Array.isArray(inputs) ? inputs : [inputs])
    .filter((input): input is AuditInput => input !== null && input !== undefined)
    .map((input) => ({
      ...input,
      people: [
        ...new Set([...(input.subject.type === 'person' ? [input.subject.id] : []), ...(input.people ?? [])]),
      ],
    }))
    .filter((input) => isAuditable(actor, { subjectType: input.subject.type, people: input.people }));
  if (entries.length === 0) return;
  const who = await repo.actorSnapshot(trx, actor.schoolId, actor.userId);
  if (!who) throw new Error(`audit: actor ${actor.userId} is not of school ${actor.schoolId}`);
  await repo.insertEntries(
    trx,
    entries.map((input) => ({
      school_id: actor.schoolId,
      actor_id: actor.userId,
      actor_name: who.name.slice(0, 300),
      actor_email: who.email.slice(0, 300),
      action: input.action,
      subject_type: input.subject.type,
      subject_id: input.subject.id,
      subject_label: input.subject.label.slice(0, 500),
      event_id: input.eventId ?? null,
      person_ids: input.people,
      detail: JSON.stringify(input.detail ?? {}),
      ip: actor.ip,
      user_agent: actor.userAgent,
    })),
  );
}

function toEntry(row: repo.AuditRow): AuditEntry {
  const parsed = auditDetail.safeParse(row.detail);
  const action = row.action as AuditAction;
  const subject = { type: row.subject_type, id: row.subject_id, label: row.subject_label };
  const detail = parsed.success ? parsed.data : {};
  return {
    id: row.id,
    at: row.created_at.toISOString(),
    atLabel: formatLocalDateTime(row.created_at, row.timezone),
    actor: { id: row.actor_id, name: row.actor_name, email: row.actor_email },
    action,
    subject,
    eventId: row.event_id,
    people: row.person_ids,
    detail,
    summary: auditSummary({ action, subject, detail }),
    ip: row.ip,
    userAgent: row.user_agent,
  };
}

/**
 * The school's entries for the filter, newest first. A person or event the school does not hold and no
 * entry names answers 404: another school's id looks exactly like a missing one.
 */
async function entriesFor(ctx: AppContext, schoolId: number, filter: repo.AuditFilter, limit?: number) {
  const rows = await repo.listEntries(ctx.db, schoolId, filter, limit);
  if (rows.length === 0) {
    const { personId, eventId } = filter;
    if (personId !== undefined && !(await repo.existsInSchool(ctx.db, schoolId, { personId })))
      throw notFound(AUDIT_TEXT.personNotFound);
    if (eventId !== undefined && !(await repo.existsInSchool(ctx.db, schoolId, { eventId })))
      throw notFound(AUDIT_TEXT.eventNotFound);
  }
  return rows;
}

async function page(ctx: AppContext, schoolId: number, filter: repo.AuditFilter) {
  const rows = await entriesFor(ctx, schoolId, filter, AUDIT_PAGE_MAX + 1);
  return { items: rows.slice(0, AUDIT_PAGE_MAX).map(toEntry), more: rows.length > AUDIT_PAGE_MAX };
}

/** GET audit/person?id: what was done to a person, or touched them (their family's bookings, messages). */
export const personEntries = (ctx: AppContext, schoolId: number, personId: number) =>
  page(ctx, schoolId, { personId });

/** GET audit/event?id: what was done in an event. */
export const eventEntries = (ctx: AppContext, schoolId: number, eventId: number) =>
  page(ctx, schoolId, { eventId });

/** GET audit/export: every entry of the school (or of a person, an event) as a CSV file Excel opens. */
export async function exportCsv(ctx: AppContext, schoolId: number, filter: repo.AuditFilter) {
  const rows = await entriesFor(ctx, schoolId, filter);
  const lines = [AUDIT_CSV_COLUMNS.join(',')];
  for (const row of rows) {
    const entry = toEntry(row);
    const local = instantToLocal(row.created_at, row.timezone);
    lines.push(
      [
        `${local.date} ${local.time}`,
        entry.at,
        entry.actor.name,
        entry.actor.email,
        AUDIT_ACTION_LABELS[entry.action] ?? entry.action,
        entry.summary,
        entry.subject.type,
        entry.subject.id,
        entry.subject.label,
        entry.eventId,
        entry.people.join(' '),
        JSON.stringify(entry.detail),
        entry.ip,
        entry.userAgent,
      ]
        .map(csvField)
        .join(','),
    );
  }
  const scope =
    filter.personId !== undefined
      ? `person-${filter.personId}`
      : filter.eventId !== undefined
        ? `event-${filter.eventId}`
        : 'school';
  return { filename: `activity-${scope}.csv`, content: `${BOM}${lines.join('\r\n')}\r\n` };
}
