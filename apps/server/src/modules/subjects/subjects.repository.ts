import { sql } from 'kysely';
import type { Db } from '../../db/database';

const withCounts = (db: Db, schoolId: number) =>
  db
    .selectFrom('subjects as s')
    .innerJoin('schools as sc', 'sc.id', 's.school_id')
    .select([
      's.id',
      's.name',
      's.created_at as createdAt',
      'sc.timezone',
      sql<number>`(select count(*)::int from teacher_subjects ts where ts.subject_id = s.id)`.as(
        'teacherCount',
      ),
      sql<number>`(select count(*)::int from student_subjects ss where ss.subject_id = s.id)`.as(
        'studentCount',
      ),
    ])
    .where('s.school_id', '=', schoolId);

export type SubjectRow = Awaited<ReturnType<ReturnType<typeof withCounts>['execute']>>[number];

export function listSubjects(db: Db, schoolId: number) {
  return withCounts(db, schoolId).orderBy(sql`lower(s.name)`).execute();
}

export function findSubject(db: Db, schoolId: number, id: number) {
  return withCounts(db, schoolId).where('s.id', '=', id).executeTakeFirst();
}

export function createSubject(db: Db, schoolId: number, name: string) {
  return db
    .insertInto('subjects')
    .values({ school_id: schoolId, name })
    .returning('id')
    .executeTakeFirstOrThrow();
}

export async function renameSubject(db: Db, schoolId: number, id: number, name: string): Promise<boolean> {
  const result = await db
    .updateTable('subjects')
    .set({ name })
    .where('id', '=', id)
    .where('school_id', '=', schoolId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteSubject(db: Db, schoolId: number, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom('subjects')
    .where('id', '=', id)
    .where('school_id', '=', schoolId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Subject ids by lower-cased name, for bulk adds that name subjects. */
export async function subjectIdsByName(db: Db, schoolId: number): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('subjects')
    .select(['id', 'name'])
    .where('school_id', '=', schoolId)
    .execute();
  return new Map(rows.map((row) => [row.name.toLowerCase(), row.id]));
}
