import { type Insertable, sql } from 'kysely';
import type { Db } from '../../db/database';
import type { AuditEntriesTable } from '../../db/schema';

// The audit trail's SQL (decision 014). Every read names the school; entries are only ever inserted.

export type NewAuditEntry = Insertable<AuditEntriesTable>;

/** The actor's name and email as they are now: the snapshot an entry keeps. */
export function actorSnapshot(db: Db, schoolId: number, userId: number) {
  return db
    .selectFrom('users')
    .select([sql<string>`first_name || ' ' || last_name`.as('name'), 'email'])
    .where('school_id', '=', schoolId)
    .where('id', '=', userId)
    .executeTakeFirst();
}

/** In statements of at most 1,000 rows (a bulk add's thousands stay under PostgreSQL's parameter limit). */
export async function insertEntries(db: Db, rows: NewAuditEntry[]): Promise<void> {
  for (let start = 0; start < rows.length; start += 1000)
    await db
      .insertInto('audit_entries')
      .values(rows.slice(start, start + 1000))
      .execute();
}

/** Entries about a person (as the subject or someone the change touched), an event, or both. */
export type AuditFilter = { personId?: number | undefined; eventId?: number | undefined };

/** A school's entries, newest first, with the school's time zone for their labels; all when no limit. */
export function listEntries(db: Db, schoolId: number, filter: AuditFilter, limit?: number) {
  return db
    .selectFrom('audit_entries as a')
    .innerJoin('schools as s', 's.id', 'a.school_id')
    .select([
      'a.id',
      'a.created_at',
      'a.actor_id',
      'a.actor_name',
      'a.actor_email',
      'a.action',
      'a.subject_type',
      'a.subject_id',
      'a.subject_label',
      'a.event_id',
      'a.person_ids',
      'a.detail',
      'a.ip',
      'a.user_agent',
      's.timezone',
    ])
    .where('a.school_id', '=', schoolId)
    .$if(filter.personId !== undefined, (qb) =>
      // Containment, so the GIN index on person_ids answers it.
      qb.where(sql<boolean>`a.person_ids @> array[${filter.personId ?? 0}]::integer[]`),
    )
    .$if(filter.eventId !== undefined, (qb) => qb.where('a.event_id', '=', filter.eventId ?? 0))
    .orderBy('a.id', 'desc')
    .$if(limit !== undefined, (qb) => qb.limit(limit ?? 0))
    .execute();
}

export type AuditRow = Awaited<ReturnType<typeof listEntries>>[number];

/** Whether the school holds this person or this event now (a deleted one is known by its entries). */
export async function existsInSchool(
  db: Db,
  schoolId: number,
  what: { personId: number } | { eventId: number },
): Promise<boolean> {
  const row =
    'personId' in what
      ? await db
          .selectFrom('users')
          .select('id')
          .where('school_id', '=', schoolId)
          .where('id', '=', what.personId)
          .executeTakeFirst()
      : await db
          .selectFrom('events')
          .select('id')
          .where('school_id', '=', schoolId)
          .where('id', '=', what.eventId)
          .executeTakeFirst();
  return row !== undefined;
}
