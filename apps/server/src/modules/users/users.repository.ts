import { type Role, sortRoles } from '@parley/domain/roles';
import { sql, type Updateable } from 'kysely';
import { qualified, USER_COLUMNS } from '../../db/columns';
import type { Db } from '../../db/database';
import { likeLiteral } from '../../db/like';
import { idInSchool } from '../../db/same-school';
import type { UsersTable } from '../../db/schema';

export async function findRoles(db: Db, userId: number): Promise<Role[]> {
  const rows = await db.selectFrom('user_roles').select('role').where('user_id', '=', userId).execute();
  return sortRoles(rows.map((row) => row.role));
}

export function findUserByEmail(db: Db, email: string) {
  return db
    .selectFrom('users')
    .select(USER_COLUMNS)
    .where('email', '=', email.toLowerCase())
    .executeTakeFirst();
}

/** The school of each of these emails that has an account anywhere (a read across schools: migration 009). */
export function emailSchools(emails: string[]) {
  return sql<{ email: string; school_id: number }>`parley_email_schools(${emails}::text[])`;
}

/** The school of the account with this email, if there is one, in this school or another. */
export async function schoolOfEmail(db: Db, email: string): Promise<number | undefined> {
  const row = await db
    .selectFrom(emailSchools([email.toLowerCase()]).as('e'))
    .select('e.school_id')
    .executeTakeFirst();
  return row?.school_id;
}

export function findUserById(db: Db, userId: number) {
  return db.selectFrom('users').select(USER_COLUMNS).where('id', '=', userId).executeTakeFirst();
}

export async function emailExists(db: Db, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', email.toLowerCase())
    .executeTakeFirst();
  return row !== undefined;
}

/** Emails in the caller's school that start with q (an autocomplete for invitations and scanners). */
export function searchSchoolEmails(db: Db, schoolId: number, q: string) {
  const pattern = `${likeLiteral(q.toLowerCase())}%`;
  return db
    .selectFrom('users')
    .select(['id', 'email', sql<string>`first_name || ' ' || last_name`.as('name')])
    .where('school_id', '=', schoolId)
    .where('email', 'like', pattern)
    .orderBy('email')
    .limit(20)
    .execute();
}

export async function createUser(
  db: Db,
  input: {
    schoolId: number;
    email: string;
    firstName: string;
    lastName: string;
    passwordHash: string | null;
  },
) {
  return db
    .insertInto('users')
    .values({
      school_id: input.schoolId,
      email: input.email.toLowerCase(),
      first_name: input.firstName,
      last_name: input.lastName,
      password_hash: input.passwordHash,
    })
    .returning(['id', 'school_id'])
    .executeTakeFirstOrThrow();
}

/** Grants a role; granting it again keeps the first grant (the primary key makes it idempotent). */
export async function grantRole(
  db: Db,
  input: { userId: number; schoolId: number; role: Role; accepted: boolean },
): Promise<boolean> {
  const inserted = await db
    .insertInto('user_roles')
    .values({
      // Only a user of the school: another school's id fails the insert.
      user_id: idInSchool('users', input.userId, input.schoolId),
      school_id: input.schoolId,
      role: input.role,
      invited_at: input.accepted ? null : new Date(),
      accepted_at: input.accepted ? new Date() : null,
    })
    .onConflict((oc) => oc.columns(['user_id', 'role']).doNothing())
    .returning('role')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function markRoleAccepted(db: Db, userId: number, role: Role): Promise<void> {
  await db
    .updateTable('user_roles')
    .set({ accepted_at: sql`coalesce(accepted_at, now())` })
    .where('user_id', '=', userId)
    .where('role', '=', role)
    .execute();
}

/**
 * Accepts every role the school invited this person to: a password they set from a link mailed to them
 * (an invitation or a reset) proves the mailbox the invitations went to.
 */
export async function acceptInvitedRoles(db: Db, userId: number): Promise<void> {
  await db
    .updateTable('user_roles')
    .set({ accepted_at: sql`now()` })
    .where('user_id', '=', userId)
    .where('accepted_at', 'is', null)
    .execute();
}

/** Roles whose invitation was sent but not yet accepted. */
export async function pendingInvitedRoles(db: Db, userId: number): Promise<Role[]> {
  const rows = await db
    .selectFrom('user_roles')
    .select('role')
    .where('user_id', '=', userId)
    .where('accepted_at', 'is', null)
    .execute();
  return sortRoles(rows.map((row) => row.role));
}

export async function setPassword(db: Db, userId: number, passwordHash: string): Promise<void> {
  await db
    .updateTable('users')
    .set({
      password_hash: passwordHash,
      email_verified_at: sql`coalesce(email_verified_at, now())`,
      updated_at: sql`now()`,
    })
    .where('id', '=', userId)
    .execute();
}

export async function markEmailVerified(db: Db, userId: number): Promise<void> {
  await db
    .updateTable('users')
    .set({ email_verified_at: sql`coalesce(email_verified_at, now())` })
    .where('id', '=', userId)
    .execute();
}

export async function countLogin(db: Db, userId: number): Promise<void> {
  await db.updateTable('users').set({ login_count: sql`login_count + 1` }).where('id', '=', userId).execute();
}

/** The current user with their school's name: what GET users/data and login answer with. */
export function findUserWithSchool(db: Db, by: { id: number } | { email: string }) {
  return db
    .selectFrom('users as u')
    .innerJoin('schools as s', 's.id', 'u.school_id')
    .select(qualified('u', USER_COLUMNS))
    .select(['s.name as schoolName', 's.verified_at as schoolVerifiedAt'])
    .where((eb) => ('id' in by ? eb('u.id', '=', by.id) : eb('u.email', '=', by.email.toLowerCase())))
    .executeTakeFirst();
}

export async function updateProfile(db: Db, userId: number, fields: Updateable<UsersTable>): Promise<void> {
  if (Object.keys(fields).length === 0) return;
  await db
    .updateTable('users')
    .set({ ...fields, updated_at: sql`now()` })
    .where('id', '=', userId)
    .execute();
}

export async function updateSettingsJson(
  db: Db,
  userId: number,
  settings: Record<string, Record<string, unknown>>,
) {
  await db
    .updateTable('users')
    .set({ settings: sql`${JSON.stringify(settings)}::jsonb` })
    .where('id', '=', userId)
    .execute();
}
