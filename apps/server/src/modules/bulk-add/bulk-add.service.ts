import {
  type BulkContext,
  type BulkSummary,
  checkFamilyRows,
  checkTeacherRows,
  FAMILY_COLUMNS,
  type RowStatus,
  readCsv,
  TEACHER_COLUMNS,
} from '@parley/domain/bulk-add';
import { TOKEN_TTL_MS } from '@parley/domain/constants';
import type { Role } from '@parley/domain/roles';
import type { AppContext } from '../../context';
import type { Db } from '../../db/database';
import type { Actor } from '../../lib/actor';
import { unprocessable } from '../../lib/http-error';
import { newToken } from '../../lib/tokens';
import { invitationMail, roleAddedMail } from '../../mail/templates';
import { findSchool } from '../accounts/accounts.repository';
import { recordAudit } from '../audit/audit.service';
import { personSubject } from '../audit/audit-entries';
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
  actor: Actor,
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
  const byId = new Map([...unique.values()].map((p) => [ids.get(p.email), p]));
  await recordAudit(
    trx,
    actor,
    added.map(({ userId, role }) => {
      const person = byId.get(userId);
      return (
        person && {
          action: before.has(person.email) ? 'person.role_added' : 'person.created',
          subject: personSubject({
            id: userId,
            first_name: person.firstName,
            last_name: person.lastName,
            email: person.email,
          }),
          detail: { role, via: 'bulk-add' },
        }
      );
    }),
  );
  let invited = 0;
  if (sendInvite && added.length) {
    const school = await findSchool(trx, schoolId);
    const who = (userId: number) => {
      const person = byId.get(userId);
      return {
        product: ctx.config.appName,
        appUrl: ctx.config.appUrl,
        schoolName: school.name,
        schoolId,
        to: person?.email ?? '',
        firstName: person?.firstName ?? '',
      };
    };
    const expiresAt = new Date(Date.now() + TOKEN_TTL_MS.invite);
    // One invitation per person: the first new role (a parent who is also a teacher accepts once). One who
    // has an account already is told of all their new roles in one mail, with nothing to accept.
    const firstRole = new Map<number, Role>();
    const rolesOfAccounts = new Map<number, Role[]>();
    for (const grant of added) {
      if (grant.accepted)
        rolesOfAccounts.set(grant.userId, [...(rolesOfAccounts.get(grant.userId) ?? []), grant.role]);
      else if (!firstRole.has(grant.userId)) firstRole.set(grant.userId, grant.role);
    }
    const tokens = [...firstRole].map(([userId, role]) => ({ userId, role, ...newToken(), expiresAt }));
    await repo.insertInviteTokens(trx, schoolId, tokens);
    await repo.insertMails(trx, [
      ...tokens.map((t) => invitationMail(who(t.userId), t.role, t.token)),
      ...[...rolesOfAccounts].map(([userId, roles]) => roleAddedMail(who(userId), roles)),
    ]);
    invited = tokens.length + rolesOfAccounts.size;
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

type Options = { schoolId: number; csv: string; confirm: boolean; sendInvite: boolean; actor: Actor };

/**
 * The shared shape of a bulk add: check every row against what the school holds, and on confirm write
 * the good rows (people, roles, invitations, then the links) in one transaction. Preview only reads.
 */
async function bulkAdd<Row extends { status: RowStatus }>(
  ctx: AppContext,
  options: Options,
  input: {
    emails: string[];
    check: (context: BulkContext) => Row[];
    people: (good: Row[]) => Array<Person & { role: Role }>;
    link: (db: Db, good: Row[], ids: Map<string, number>) => Promise<void>;
  },
) {
  const run = async (db: Db) => {
    const rows = input.check(await context(db, options.schoolId, input.emails));
    const good = rows.filter((row) => row.status === 'new' || row.status === 'add-role');
    const summary: BulkSummary = {
      created: 0,
      rolesAdded: 0,
      skipped: rows.filter((row) => row.status === 'exists').length,
      invalid: rows.filter((row) => row.status === 'error').length,
      invited: 0,
    };
    if (options.confirm && good.length) {
      const written = await writePeople(
        ctx,
        db,
        options.schoolId,
        input.people(good),
        options.sendInvite,
        options.actor,
      );
      await input.link(db, good, written.ids);
      Object.assign(summary, {
        created: written.created,
        rolesAdded: written.rolesAdded,
        invited: written.invited,
      });
    }
    return { rows, summary, confirmed: options.confirm };
  };
  return options.confirm ? ctx.db.transaction().execute(run) : run(ctx.db);
}

export function bulkAddTeachers(ctx: AppContext, options: Options) {
  const parsed = parse(options.csv, TEACHER_COLUMNS);
  return bulkAdd(ctx, options, {
    emails: parsed.rows.map((row) => lower(row.cells.email)),
    check: (context) => checkTeacherRows(parsed, context),
    people: (good) => good.map((row) => ({ ...row, role: 'teacher' as const })),
    link: (db, good, ids) =>
      repo.linkTeacherSubjects(
        db,
        options.schoolId,
        good.flatMap((row) =>
          row.subjectIds.map((subjectId) => ({ teacherId: ids.get(row.email) ?? 0, subjectId })),
        ),
      ),
  });
}

export function bulkAddFamilies(ctx: AppContext, options: Options) {
  const parsed = parse(options.csv, FAMILY_COLUMNS);
  return bulkAdd(ctx, options, {
    emails: parsed.rows.flatMap((row) => [
      lower(row.cells.studentEmail),
      lower(row.cells.parentEmail),
      lower(row.cells.parent2Email),
    ]),
    check: (context) => checkFamilyRows(parsed, context),
    people: (good) =>
      good.flatMap((row) => [
        { ...row.student, title: null, role: 'student' as const },
        ...row.parents.map((parent) => ({ ...parent, title: null, role: 'parent' as const })),
      ]),
    link: (db, good, ids) =>
      repo.linkFamilies(
        db,
        options.schoolId,
        good.flatMap((row) =>
          row.parents.map((parent) => ({
            parentId: ids.get(parent.email) ?? 0,
            studentId: ids.get(row.student.email) ?? 0,
          })),
        ),
      ),
  });
}
