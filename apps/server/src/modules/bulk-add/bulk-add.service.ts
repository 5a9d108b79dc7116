import {
  type BulkContext,
  type BulkSummary,
  checkFamilyRows,
  checkTeacherRows,
  FAMILY_COLUMNS,
  readCsv,
  TEACHER_COLUMNS,
} from '@parley/domain/bulk-add';
import { TOKEN_TTL_MS } from '@parley/domain/constants';
import type { Role } from '@parley/domain/roles';
import type { AppContext } from '../../context';
import type { Db } from '../../db/database';
import { unprocessable } from '../../lib/http-error';
import { newToken } from '../../lib/tokens';
import { invitationMail } from '../../mail/templates';
import { findSchool } from '../accounts/accounts.repository';
import { subjectIdsByName } from '../subjects/subjects.repository';
import * as repo from './bulk-add.repository';

type Person = { email: string; firstName: string; lastName: string; title: string | null };

async function context(db: Db, schoolId: number, emails: string[]): Promise<BulkContext> {
  const [subjectIds, owners] = await Promise.all([
    subjectIdsByName(db, schoolId),
    repo.emailOwners(db, emails),
  ]);
  return {
    subjectIds,
    owner: (email) => {
      const owner = owners.get(email);
      return owner && { schoolMatch: owner.schoolId === schoolId, roles: owner.roles };
    },
  };
}

function parse(csv: string, columns: string[]) {
  const parsed = readCsv(csv, columns);
  if (parsed.error) throw unprocessable(parsed.error, { csv: [parsed.error] });
  return parsed;
}

const lower = (value: string | undefined) => (value ?? '').trim().toLowerCase();

/** Writes the people, roles, links and invitations of the good rows in the caller's transaction. */
async function writePeople(
  ctx: AppContext,
  trx: Db,
  schoolId: number,
  people: Array<Person & { role: Role }>,
  sendInvite: boolean,
) {
  const unique = new Map<string, Person>();
  for (const person of people) if (!unique.has(person.email)) unique.set(person.email, person);
  const before = await repo.emailOwners(trx, [...unique.keys()]);
  const ids = await repo.upsertPeople(trx, schoolId, [...unique.values()]);
  const grants = people.flatMap((p) => {
    const userId = ids.get(p.email);
    return userId ? [{ userId, role: p.role }] : [];
  });
  const added = await repo.grantRoles(trx, schoolId, dedupe(grants));
  let invited = 0;
  if (sendInvite && added.length) {
    const school = await findSchool(trx, schoolId);
    const byId = new Map([...unique.values()].map((p) => [ids.get(p.email), p]));
    const expiresAt = new Date(Date.now() + TOKEN_TTL_MS.invite);
    // One invitation per person: the first new role (a parent who is also a teacher accepts once).
    const firstRole = new Map<number, Role>();
    for (const grant of added) if (!firstRole.has(grant.userId)) firstRole.set(grant.userId, grant.role);
    const tokens = [...firstRole].map(([userId, role]) => ({ userId, role, ...newToken(), expiresAt }));
    await repo.insertInviteTokens(trx, schoolId, tokens);
    await repo.insertMails(
      trx,
      tokens.map((t) => {
        const person = byId.get(t.userId);
        return invitationMail(
          {
            product: ctx.config.appName,
            appUrl: ctx.config.appUrl,
            schoolName: school.name,
            schoolId,
            to: person?.email ?? '',
            firstName: person?.firstName ?? '',
          },
          t.role,
          t.token,
        );
      }),
    );
    invited = tokens.length;
  }
  const created = [...unique.keys()].filter((email) => !before.has(email) && ids.has(email)).length;
  return { ids, created, rolesAdded: added.length, invited };
}

function dedupe(grants: Array<{ userId: number; role: Role }>) {
  const seen = new Set<string>();
  return grants.filter((g) => {
    const key = `${g.userId}:${g.role}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export async function bulkAddTeachers(
  ctx: AppContext,
  schoolId: number,
  csv: string,
  confirm: boolean,
  sendInvite: boolean,
) {
  const parsed = parse(csv, TEACHER_COLUMNS);
  const emails = parsed.rows.map((row) => lower(row.cells.email));
  const run = async (db: Db) => {
    const rows = checkTeacherRows(parsed, await context(db, schoolId, emails));
    const good = rows.filter((row) => row.status === 'new' || row.status === 'add-role');
    const summary: BulkSummary = {
      created: 0,
      rolesAdded: 0,
      skipped: rows.filter((row) => row.status === 'exists').length,
      invalid: rows.filter((row) => row.status === 'error').length,
      invited: 0,
    };
    if (confirm && good.length) {
      const written = await writePeople(
        ctx,
        db,
        schoolId,
        good.map((row) => ({ ...row, role: 'teacher' as const })),
        sendInvite,
      );
      await repo.linkTeacherSubjects(
        db,
        schoolId,
        good.flatMap((row) =>
          row.subjectIds.map((subjectId) => ({ teacherId: written.ids.get(row.email) ?? 0, subjectId })),
        ),
      );
      Object.assign(summary, {
        created: written.created,
        rolesAdded: written.rolesAdded,
        invited: written.invited,
      });
    }
    return { rows, summary, confirmed: confirm };
  };
  // Preview reads; confirm re-checks and writes every good row in one transaction.
  return confirm ? ctx.db.transaction().execute(run) : run(ctx.db);
}

export async function bulkAddFamilies(
  ctx: AppContext,
  schoolId: number,
  csv: string,
  confirm: boolean,
  sendInvite: boolean,
) {
  const parsed = parse(csv, FAMILY_COLUMNS);
  const emails = parsed.rows.flatMap((row) => [
    lower(row.cells.studentEmail),
    lower(row.cells.parentEmail),
    lower(row.cells.parent2Email),
  ]);
  const run = async (db: Db) => {
    const rows = checkFamilyRows(parsed, await context(db, schoolId, emails));
    const good = rows.filter((row) => row.status === 'new' || row.status === 'add-role');
    const summary: BulkSummary = {
      created: 0,
      rolesAdded: 0,
      skipped: rows.filter((row) => row.status === 'exists').length,
      invalid: rows.filter((row) => row.status === 'error').length,
      invited: 0,
    };
    if (confirm && good.length) {
      const people = good.flatMap((row) => [
        { ...row.student, title: null, role: 'student' as const },
        ...row.parents.map((parent) => ({ ...parent, title: null, role: 'parent' as const })),
      ]);
      const written = await writePeople(ctx, db, schoolId, people, sendInvite);
      await repo.linkFamilies(
        db,
        schoolId,
        good.flatMap((row) =>
          row.parents.map((parent) => ({
            parentId: written.ids.get(parent.email) ?? 0,
            studentId: written.ids.get(row.student.email) ?? 0,
          })),
        ),
      );
      Object.assign(summary, {
        created: written.created,
        rolesAdded: written.rolesAdded,
        invited: written.invited,
      });
    }
    return { rows, summary, confirmed: confirm };
  };
  return confirm ? ctx.db.transaction().execute(run) : run(ctx.db);
}
