import { DEFAULT_EVENT_TYPES } from '@parley/domain/events';
import { sql } from 'kysely';
import type { Db } from '../../db/database';

/** The school's starting event types (spec §3: "Parent teacher" is preset); run in the signup transaction. */
export function createDefaultEventTypes(db: Db, schoolId: number) {
  return db
    .insertInto('event_types')
    .values(
      DEFAULT_EVENT_TYPES.map((type, index) => ({
        school_id: schoolId,
        name: type.name,
        group_int: type.group,
        sort_order: index + 1,
      })),
    )
    .onConflict((oc) => oc.columns(['school_id', 'name']).doNothing())
    .returning(['id', 'name', 'group_int'])
    .execute();
}

export function listEventTypes(db: Db, schoolId: number) {
  return db
    .selectFrom('event_types')
    .select(['id', 'name', 'group_int'])
    .where('school_id', '=', schoolId)
    .orderBy('sort_order')
    .orderBy(sql`lower(name)`)
    .execute();
}

export function findEventType(db: Db, schoolId: number, id: number) {
  return db
    .selectFrom('event_types')
    .select(['id', 'name', 'group_int'])
    .where('school_id', '=', schoolId)
    .where('id', '=', id)
    .executeTakeFirst();
}
