import type { Updateable } from 'kysely';
import { sql } from 'kysely';
import { SCHOOL_COLUMNS } from '../../db/columns';
import type { Db } from '../../db/database';
import type { SchoolsTable } from '../../db/schema';

export function createSchool(db: Db, name: string) {
  return db.insertInto('schools').values({ name }).returning(['id', 'name']).executeTakeFirstOrThrow();
}

export function findSchool(db: Db, schoolId: number) {
  return db.selectFrom('schools').select(SCHOOL_COLUMNS).where('id', '=', schoolId).executeTakeFirstOrThrow();
}

export async function markSchoolVerified(db: Db, schoolId: number): Promise<void> {
  await db
    .updateTable('schools')
    .set({ verified_at: sql`coalesce(verified_at, now())` })
    .where('id', '=', schoolId)
    .execute();
}

/** The school behind a verification token, used or not: a second click on the link says "already verified". */
export function findSchoolByVerifyTokenHash(db: Db, tokenHash: string) {
  return db
    .selectFrom('auth_tokens as t')
    .innerJoin('schools as s', 's.id', 't.school_id')
    .select(['s.id', 's.verified_at'])
    .where('t.token_hash', '=', tokenHash)
    .where('t.kind', '=', 'verify')
    .executeTakeFirst();
}

export async function updateSchool(
  db: Db,
  schoolId: number,
  fields: Updateable<SchoolsTable>,
): Promise<void> {
  await db.updateTable('schools').set(fields).where('id', '=', schoolId).execute();
}
