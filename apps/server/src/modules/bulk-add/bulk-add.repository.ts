import type { Role } from '@parley/domain/roles';
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { idInSchool } from '../../db/same-school';
import { emailSchools } from '../users/users.repository';

const CHUNK = 1000;

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/**
 * Who already owns each email: this school (with which roles) or another. One query per thousand emails;
 * another school's account shows only as its school (the one cross-school read row-level security allows).
 */
export async function emailOwners(db: Db, emails: string[]) {
  const owners = new Map<string, { schoolId: number; roles: Role[] }>();
  for (const part of chunks([...new Set(emails)])) {
    if (part.length === 0) continue;
    const rows = await db
      .selectFrom(emailSchools(part).as('e'))
      .leftJoin('users as u', 'u.email', 'e.email')
      .leftJoin('user_roles as r', 'r.user_id', 'u.id')
      .select(['e.email', 'e.school_id', 'r.role'])
      .execute();
    for (const row of rows) {
      const owner = owners.get(row.email) ?? { schoolId: row.school_id, roles: [] };
      if (row.role) owner.roles.push(row.role);
      owners.set(row.email, owner);
    }
  }
  return owners;
}

/** Inserts the people who are new (an email that exists is left alone) and returns every id by email. */
export async function upsertPeople(
  db: Db,
  schoolId: number,
  people: Array<{ email: string; firstName: string; lastName: string; title: string | null }>,
): Promise<Map<string, number>> {
  for (const part of chunks(people)) {
    await db
      .insertInto('users')
      .values(
        part.map((p) => ({
          school_id: schoolId,
          email: p.email,
          first_name: p.firstName,
          last_name: p.lastName,
          title: p.title,
        })),
      )
      .onConflict((oc) => oc.column('email').doNothing())
      .execute();
  }
  const ids = new Map<string, number>();
  for (const part of chunks(people.map((p) => p.email))) {
    const rows = await db
      .selectFrom('users')
      .select(['id', 'email'])
      .where('school_id', '=', schoolId)
      .where('email', 'in', part)
      .execute();
    for (const row of rows) ids.set(row.email, row.id);
  }
  return ids;
}

/**
 * Grants roles; returns the (user, role) pairs that were new. A role of an active account with a password
 * is accepted as it is granted (nothing to accept); the others wait for their invitation.
 */
export async function grantRoles(db: Db, schoolId: number, grants: Array<{ userId: number; role: Role }>) {
  const added: Array<{ userId: number; role: Role; accepted: boolean }> = [];
  for (const part of chunks(grants)) {
    const rows = await db
      .insertInto('user_roles')
      .values(
        part.map((g) => ({
          user_id: idInSchool('users', g.userId, schoolId),
          school_id: schoolId,
          role: g.role,
          invited_at: sql`now()`,
          accepted_at: sql<Date | null>`(select now() from users u where u.id = ${g.userId}
            and u.school_id = ${schoolId} and u.status = 1 and u.password_hash is not null)`,
        })),
      )
      .onConflict((oc) => oc.columns(['user_id', 'role']).doNothing())
      .returning(['user_id', 'role', 'accepted_at'])
      .execute();
    added.push(
      ...rows.map((row) => ({ userId: row.user_id, role: row.role, accepted: row.accepted_at !== null })),
    );
  }
  return added;
}

export async function linkTeacherSubjects(
  db: Db,
  schoolId: number,
  links: Array<{ teacherId: number; subjectId: number }>,
) {
  for (const part of chunks(links)) {
    await db
      .insertInto('teacher_subjects')
      .values(part.map((l) => ({ school_id: schoolId, teacher_id: l.teacherId, subject_id: l.subjectId })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

export async function linkFamilies(
  db: Db,
  schoolId: number,
  links: Array<{ parentId: number; studentId: number }>,
) {
  for (const part of chunks(links)) {
    await db
      .insertInto('parent_students')
      .values(part.map((l) => ({ school_id: schoolId, parent_id: l.parentId, student_id: l.studentId })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

export async function insertInviteTokens(
  db: Db,
  schoolId: number,
  tokens: Array<{ userId: number; role: Role; hash: string; expiresAt: Date }>,
) {
  for (const part of chunks(tokens)) {
    await db
      .insertInto('auth_tokens')
      .values(
        part.map((t) => ({
          token_hash: t.hash,
          user_id: idInSchool('users', t.userId, schoolId),
          school_id: schoolId,
          kind: 'invite' as const,
          role: t.role,
          expires_at: t.expiresAt,
        })),
      )
      .execute();
  }
}

export async function insertMails(
  db: Db,
  mails: Array<{
    schoolId: number | null;
    to: string;
    subject: string;
    text: string;
    html: string;
    links: string[];
  }>,
) {
  for (const part of chunks(mails)) {
    await db
      .insertInto('mail_outbox')
      .values(
        part.map((m) => ({
          school_id: m.schoolId,
          to_address: m.to,
          subject: m.subject,
          text_body: m.text,
          html_body: m.html,
          links: JSON.stringify(m.links),
        })),
      )
      .execute();
  }
}
