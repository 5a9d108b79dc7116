import type { DirectoryQuery } from '@parley/domain/people';
import type { Role } from '@parley/domain/roles';
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { containing, matchedInAll, totalOf } from '../../db/paging';

/** A person of one role as the directory shows them, with the ids of what they link to. */
function peopleInRole(db: Db, schoolId: number, role: Role) {
  return db
    .selectFrom('users as u')
    .innerJoin('user_roles as r', (join) => join.onRef('r.user_id', '=', 'u.id').on('r.role', '=', role))
    .select([
      'u.id',
      'u.first_name',
      'u.last_name',
      'u.title',
      'u.email',
      'u.status',
      'u.video_conference_url',
      'r.accepted_at',
      sql<
        number[]
      >`coalesce((select array_agg(ts.subject_id order by ts.subject_id) from teacher_subjects ts where ts.teacher_id = u.id), '{}')`.as(
        'subject_ids',
      ),
      sql<
        number[]
      >`coalesce((select array_agg(ps.student_id order by ps.student_id) from parent_students ps where ps.parent_id = u.id), '{}')`.as(
        'student_ids',
      ),
      sql<
        number[]
      >`coalesce((select array_agg(ps.parent_id order by ps.parent_id) from parent_students ps where ps.student_id = u.id), '{}')`.as(
        'parent_ids',
      ),
    ])
    .where('u.school_id', '=', schoolId);
}

export type PersonRow = NonNullable<Awaited<ReturnType<typeof findPerson>>>;

export function findPerson(db: Db, schoolId: number, userId: number, role: Role) {
  return peopleInRole(db, schoolId, role).where('u.id', '=', userId).executeTakeFirst();
}

/** What the directory's search matches: the expression of the trigram index of migration 027, exactly. */
const searchedText = sql<string>`lower(coalesce(u.title, '') || ' ' || u.first_name || ' ' || u.last_name || ' ' || u.email)`;

/** The names a directory row links to: a teacher's subjects, a parent's children, a student's parents. */
function relatedNames(role: Role) {
  const linked = (from: 'parent_id' | 'student_id', to: 'parent_id' | 'student_id') =>
    sql<string[]>`array(select o.first_name || ' ' || o.last_name from parent_students ps
      join users o on o.id = ps.${sql.ref(to)} where ps.${sql.ref(from)} = u.id
      order by lower(o.last_name), lower(o.first_name), o.id)`;
  switch (role) {
    case 'teacher':
      return sql<
        string[]
      >`array(select s.name from teacher_subjects ts join subjects s on s.id = ts.subject_id
        where ts.teacher_id = u.id order by lower(s.name), s.id)`;
    case 'parent':
      return linked('parent_id', 'student_id');
    case 'student':
      return linked('student_id', 'parent_id');
    case 'admin':
      return sql<string[]>`'{}'::text[]`;
  }
}

export type DirectoryOrder = Pick<DirectoryQuery, 'sort' | 'dir'>;

const byName = [sql`lower(u.last_name)`, sql`lower(u.first_name)`, sql`u.id`];

/**
 * The column sorted by, either way, then the name (last, first) and the id ascending, as the table's stable
 * sort of a list in name order did: pages never overlap, whatever rows share a value. Ascending, as the
 * labels sort: active before inactive, accepted before pending.
 */
function orderOf({ sort, dir }: DirectoryOrder) {
  const way = sql.raw(dir);
  if (sort === 'name') return byName.map((key) => sql`${key} ${way}`);
  const column = {
    email: sql`lower(u.email)`,
    status: sql`u.status <> 1`,
    invitation: sql`r.accepted_at is null`,
  }[sort];
  return [sql`${column} ${way}`, ...byName];
}

/**
 * A page of the people of one role in a school (decision 035): those whose title, name or email holds
 * every word searched, in the order asked, with the names each row links to; and how many match in all.
 */
export async function peoplePage(
  db: Db,
  schoolId: number,
  role: Role,
  options: DirectoryOrder & { words: string[]; limit: number; offset: number },
) {
  const matching = options.words.reduce(
    (qb, word) => qb.where(sql<boolean>`${searchedText} like ${containing(word)}`),
    db
      .selectFrom('users as u')
      .innerJoin('user_roles as r', (join) => join.onRef('r.user_id', '=', 'u.id').on('r.role', '=', role))
      .where('u.school_id', '=', schoolId),
  );
  const page = await matching
    .select(['u.id', matchedInAll])
    .orderBy(orderOf(options))
    .limit(options.limit)
    .offset(options.offset)
    .execute();
  const total = await totalOf(page, options.offset, () =>
    matching.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  );
  const ids = page.map((row) => row.id);
  const rows =
    ids.length === 0
      ? []
      : await peopleInRole(db, schoolId, role)
          .select(relatedNames(role).as('related'))
          .where('u.id', 'in', ids)
          .execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return { rows: ids.flatMap((id) => byId.get(id) ?? []), total };
}

export function findPersonInRole(db: Db, schoolId: number, userId: number, role: Role) {
  return db
    .selectFrom('users as u')
    .innerJoin('user_roles as r', 'r.user_id', 'u.id')
    .select(['u.id', 'u.email', 'u.first_name', 'u.last_name'])
    .where('u.school_id', '=', schoolId)
    .where('u.id', '=', userId)
    .where('r.role', '=', role)
    .executeTakeFirst();
}

/** Ids among the given ones that hold the role in the school (to name the ones that do not). */
export async function idsWithRole(db: Db, schoolId: number, ids: number[], role: Role): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('user_roles')
    .select('user_id')
    .where('school_id', '=', schoolId)
    .where('role', '=', role)
    .where('user_id', 'in', ids)
    .execute();
  return rows.map((row) => row.user_id);
}

export async function subjectIdsInSchool(db: Db, schoolId: number, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('subjects')
    .select('id')
    .where('school_id', '=', schoolId)
    .where('id', 'in', ids)
    .execute();
  return rows.map((row) => row.id);
}

export function personSubjects(db: Db, teacherId: number) {
  return db
    .selectFrom('teacher_subjects as ts')
    .innerJoin('subjects as s', 's.id', 'ts.subject_id')
    .select(['s.id', 's.name'])
    .where('ts.teacher_id', '=', teacherId)
    .orderBy('s.name')
    .execute();
}

export function linkedPeople(db: Db, userId: number, direction: 'children' | 'parents') {
  const [from, to] =
    direction === 'children'
      ? (['parent_id', 'student_id'] as const)
      : (['student_id', 'parent_id'] as const);
  return db
    .selectFrom('parent_students as ps')
    .innerJoin('users as u', 'u.id', `ps.${to}`)
    .select(['u.id', sql<string>`u.first_name || ' ' || u.last_name`.as('name'), 'u.email'])
    .where(`ps.${from}`, '=', userId)
    .orderBy('u.last_name')
    .orderBy('u.first_name')
    .execute();
}

export function studentStudies(db: Db, studentId: number) {
  return db
    .selectFrom('student_subjects as ss')
    .innerJoin('subjects as s', 's.id', 'ss.subject_id')
    .leftJoin('users as t', 't.id', 'ss.teacher_id')
    .select([
      'ss.subject_id as subjectId',
      's.name as subjectName',
      'ss.teacher_id as teacherId',
      sql<string | null>`case when t.id is null then null else t.first_name || ' ' || t.last_name end`.as(
        'teacherName',
      ),
    ])
    .where('ss.student_id', '=', studentId)
    .orderBy('s.name')
    .execute();
}

export async function updatePerson(
  db: Db,
  schoolId: number,
  userId: number,
  fields: {
    title?: string | null;
    first_name?: string;
    last_name?: string;
    email?: string;
    status?: number;
    video_conference_url?: string | null;
  },
): Promise<void> {
  if (Object.keys(fields).length === 0) return;
  await db
    .updateTable('users')
    .set({ ...fields, updated_at: sql`now()` })
    .where('id', '=', userId)
    .where('school_id', '=', schoolId)
    .execute();
}

export async function replaceTeacherSubjects(
  db: Db,
  schoolId: number,
  teacherId: number,
  subjectIds: number[],
) {
  await db
    .deleteFrom('teacher_subjects')
    .where('school_id', '=', schoolId)
    .where('teacher_id', '=', teacherId)
    .execute();
  if (subjectIds.length === 0) return;
  await db
    .insertInto('teacher_subjects')
    .values(
      subjectIds.map((subjectId) => ({ school_id: schoolId, teacher_id: teacherId, subject_id: subjectId })),
    )
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function replaceFamilyLinks(
  db: Db,
  schoolId: number,
  userId: number,
  direction: 'children' | 'parents',
  otherIds: number[],
) {
  const own = direction === 'children' ? 'parent_id' : 'student_id';
  await db.deleteFrom('parent_students').where('school_id', '=', schoolId).where(own, '=', userId).execute();
  if (otherIds.length === 0) return;
  await db
    .insertInto('parent_students')
    .values(
      otherIds.map((otherId) =>
        direction === 'children'
          ? { school_id: schoolId, parent_id: userId, student_id: otherId }
          : { school_id: schoolId, parent_id: otherId, student_id: userId },
      ),
    )
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function replaceStudentSubjects(
  db: Db,
  schoolId: number,
  studentId: number,
  subjects: Array<{ subjectId: number; teacherId: number | null }>,
) {
  await db
    .deleteFrom('student_subjects')
    .where('school_id', '=', schoolId)
    .where('student_id', '=', studentId)
    .execute();
  if (subjects.length === 0) return;
  await db
    .insertInto('student_subjects')
    .values(
      subjects.map((s) => ({
        school_id: schoolId,
        student_id: studentId,
        subject_id: s.subjectId,
        teacher_id: s.teacherId,
      })),
    )
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** Locks the school's row: changes to its set of admins are serialised, so the last admin stays. */
export async function lockSchool(db: Db, schoolId: number): Promise<void> {
  await db.selectFrom('schools').select('id').where('id', '=', schoolId).forUpdate().execute();
}

export async function countActiveAdminsOtherThan(db: Db, schoolId: number, userId: number): Promise<number> {
  const row = await db
    .selectFrom('user_roles as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('r.school_id', '=', schoolId)
    .where('r.role', '=', 'admin')
    .where('u.status', '=', 1)
    .where('u.id', '<>', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function revokeRole(db: Db, schoolId: number, userId: number, role: Role): Promise<number> {
  await db
    .deleteFrom('user_roles')
    .where('user_id', '=', userId)
    .where('school_id', '=', schoolId)
    .where('role', '=', role)
    .execute();
  const left = await db
    .selectFrom('user_roles')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('school_id', '=', schoolId)
    .executeTakeFirstOrThrow();
  return Number(left.n);
}

/**
 * Drops what a removed role linked the person to, so a former teacher is no longer offered for subjects
 * or named as a child's teacher, and a former parent or student leaves the family links.
 */
export async function dropRoleLinks(db: Db, schoolId: number, userId: number, role: Role): Promise<void> {
  if (role === 'teacher') {
    await db
      .deleteFrom('teacher_subjects')
      .where('school_id', '=', schoolId)
      .where('teacher_id', '=', userId)
      .execute();
    await db
      .updateTable('student_subjects')
      .set({ teacher_id: null })
      .where('school_id', '=', schoolId)
      .where('teacher_id', '=', userId)
      .execute();
  }
  if (role === 'parent' || role === 'student') {
    await db
      .deleteFrom('parent_students')
      .where('school_id', '=', schoolId)
      .where(role === 'parent' ? 'parent_id' : 'student_id', '=', userId)
      .execute();
  }
  if (role === 'student') {
    await db
      .deleteFrom('student_subjects')
      .where('school_id', '=', schoolId)
      .where('student_id', '=', userId)
      .execute();
  }
}

/**
 * Deletes the account unless it appears on a booking (the school's records): then it stays, deactivated.
 * The NOT EXISTS and the foreign keys together make this safe against a booking made at the same moment.
 */
export async function deleteUserUnlessBooked(db: Db, schoolId: number, userId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('users')
    .where('id', '=', userId)
    .where('school_id', '=', schoolId)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('bookings')
            .select('bookings.id')
            .where((b) =>
              b.or([
                b('bookings.parent_id', '=', userId),
                b('bookings.student_id', '=', userId),
                // A teacher's held appointments are records too (deleting them would drop their slots).
                b('bookings.teacher_id', '=', userId),
              ]),
            ),
        ),
      ),
    )
    .executeTakeFirst();
  if (Number(result.numDeletedRows) > 0) return true;
  await db
    .updateTable('users')
    .set({ status: 0 })
    .where('id', '=', userId)
    .where('school_id', '=', schoolId)
    .execute();
  return false;
}

/** Teachers of a subject in a school (spec: users/search-teachers-for-subject). */
export function teachersForSubject(db: Db, schoolId: number, subjectId: number) {
  return db
    .selectFrom('teacher_subjects as ts')
    .innerJoin('users as u', 'u.id', 'ts.teacher_id')
    .select(['u.id', sql<string>`u.first_name || ' ' || u.last_name`.as('name'), 'u.email'])
    .where('ts.school_id', '=', schoolId)
    .where('ts.subject_id', '=', subjectId)
    .where('u.status', '=', 1)
    .orderBy('u.last_name')
    .execute();
}

/** Staff and students who could be allowed to scan tickets, by name or email. */
export function searchPeople(db: Db, schoolId: number, q: string, roles: Role[]) {
  return db
    .selectFrom('users as u')
    .select(['u.id', sql<string>`u.first_name || ' ' || u.last_name`.as('name'), 'u.email'])
    .where('u.school_id', '=', schoolId)
    .where('u.status', '=', 1)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('user_roles as r')
          .select('r.role')
          .whereRef('r.user_id', '=', 'u.id')
          .where('r.role', 'in', roles),
      ),
    )
    .where(sql<boolean>`${searchedText} like ${containing(q)}`)
    .orderBy('u.last_name')
    .limit(20)
    .execute();
}
