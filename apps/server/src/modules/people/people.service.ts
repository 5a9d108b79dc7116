import { ACCESS_TEXT, SERVER_TEXT } from '@parley/domain/messages';
import {
  type DirectoryPage,
  type DirectoryQuery,
  type ParentRequest,
  STATUS_ICONS,
  STATUS_LABELS,
  type StudentRequest,
  type TeacherRequest,
  type UserListItem,
} from '@parley/domain/people';
import { ROLE_LABELS, type Role, USER_TYPE_IDS } from '@parley/domain/roles';
import type { AppContext } from '../../context';
import type { Db } from '../../db/database';
import type { Actor } from '../../lib/actor';
import { conflict, notFound, unprocessable } from '../../lib/http-error';
import { recordAudit } from '../audit/audit.service';
import { personSubject, personUpdateEntry } from '../audit/audit-entries';
import { withdrawTeacher } from '../booking/teacher-withdrawal';
import { inviteUser, sendInvitation } from '../invitations/invitations.service';
import { revokeEventLinks, revokeTokens } from '../tokens/tokens.repository';
import { findRoles } from '../users/users.repository';
import * as repo from './people.repository';

const PERSON_NOT_FOUND = 'Person not found.';

export function toListItem(row: repo.PersonRow, role: Role): UserListItem {
  const status = row.status === 1 ? 1 : 0;
  return {
    id: row.id,
    name: `${row.first_name} ${row.last_name}`,
    firstName: row.first_name,
    lastName: row.last_name,
    title: row.title,
    email: row.email,
    status,
    statusLabel: STATUS_LABELS[status],
    statusIcon: STATUS_ICONS[status],
    userTypeId: USER_TYPE_IDS[role],
    invitation: row.accepted_at ? 'accepted' : 'pending',
    ...(role === 'teacher' && { subjectIds: row.subject_ids }),
    ...(role === 'parent' && { studentIds: row.student_ids }),
    ...(role === 'student' && { parentIds: row.parent_ids }),
  };
}

/** A page of the directory (decision 035): searched word by word, sorted and paged by PostgreSQL. */
export async function listPeople(
  ctx: AppContext,
  schoolId: number,
  role: Role,
  query: DirectoryQuery,
): Promise<DirectoryPage> {
  const { rows, total } = await repo.peoplePage(ctx.db, schoolId, role, {
    words: query.q.split(/\s+/).filter(Boolean),
    sort: query.sort,
    dir: query.dir,
    limit: query.pageSize,
    offset: (query.page - 1) * query.pageSize,
  });
  return {
    items: rows.map((row) => ({ ...toListItem(row, role), related: row.related })),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

export async function viewPerson(ctx: AppContext, schoolId: number, userId: number, role: Role) {
  const row = await repo.findPerson(ctx.db, schoolId, userId, role);
  if (!row) throw notFound(PERSON_NOT_FOUND);
  const [roles, subjects, children, parents, studies] = await Promise.all([
    findRoles(ctx.db, userId),
    repo.personSubjects(ctx.db, userId),
    repo.linkedPeople(ctx.db, userId, 'children'),
    repo.linkedPeople(ctx.db, userId, 'parents'),
    repo.studentStudies(ctx.db, userId),
  ]);
  return {
    ...toListItem(row, role),
    roles,
    subjects,
    children,
    parents,
    studies,
    videoConferenceUrl: row.video_conference_url,
  };
}

/** Ids the client sent that are not what they claim (another school's, a parent given as a child…). */
async function checkLinks(
  db: Db,
  schoolId: number,
  links: { subjectIds?: number[]; studentIds?: number[]; parentIds?: number[]; teacherIds?: number[] },
) {
  const errors: Record<string, string[]> = {};
  const check = async (
    field: string,
    ids: number[] | undefined,
    found: (ids: number[]) => Promise<number[]>,
    text: string,
  ) => {
    if (!ids?.length) return;
    const known = new Set(await found(ids));
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length) errors[field] = [`${text}: ${unknown.join(', ')}`];
  };
  await check(
    'subjectIds',
    links.subjectIds,
    (ids) => repo.subjectIdsInSchool(db, schoolId, ids),
    'Unknown subject',
  );
  await check(
    'studentIds',
    links.studentIds,
    (ids) => repo.idsWithRole(db, schoolId, ids, 'student'),
    'Unknown student',
  );
  await check(
    'parentIds',
    links.parentIds,
    (ids) => repo.idsWithRole(db, schoolId, ids, 'parent'),
    'Unknown parent',
  );
  await check(
    'subjects',
    links.teacherIds,
    (ids) => repo.idsWithRole(db, schoolId, ids, 'teacher'),
    'Unknown teacher',
  );
  if (Object.keys(errors).length) throw unprocessable(SERVER_TEXT.invalidInput, errors);
}

type Created = { userId: number };

async function createPerson(
  ctx: AppContext,
  schoolId: number,
  role: Role,
  body: {
    email: string;
    firstName: string;
    lastName: string;
    title?: string | null | undefined;
    sendInvite: boolean;
  },
  link: (trx: Db, created: Created) => Promise<void>,
  actor: Actor,
) {
  const { userId, hasAccount } = await ctx.db.transaction().execute(async (trx) => {
    const invited = await inviteUser(ctx, trx, schoolId, { ...body, role }, { sendMail: body.sendInvite });
    if (!invited.roleAdded) {
      const name = ROLE_LABELS[role].toLowerCase();
      const text = `${body.email} is already ${/^[aeiou]/.test(name) ? 'an' : 'a'} ${name} of this school.`;
      throw conflict(text, { email: [text] });
    }
    if (invited.created && body.title)
      await repo.updatePerson(trx, schoolId, invited.userId, { title: body.title });
    await link(trx, { userId: invited.userId });
    const person = await repo.findPersonInRole(trx, schoolId, invited.userId, role);
    await recordAudit(
      trx,
      actor,
      person && {
        action: invited.created ? 'person.created' : 'person.role_added',
        subject: personSubject(person),
        detail: { role },
      },
    );
    return invited;
  });
  return {
    id: userId,
    message: !body.sendInvite
      ? `${body.firstName} ${body.lastName} added.`
      : hasAccount
        ? `${body.email} now also has the ${ROLE_LABELS[role].toLowerCase()} role; we told them by email.`
        : `Invitation sent to ${body.email}.`,
  };
}

export async function createTeacher(
  ctx: AppContext,
  schoolId: number,
  body: TeacherRequest & { sendInvite: boolean; subjectIds: number[] },
  actor: Actor,
) {
  await checkLinks(ctx.db, schoolId, { subjectIds: body.subjectIds });
  return createPerson(
    ctx,
    schoolId,
    'teacher',
    body,
    (trx, { userId }) => repo.replaceTeacherSubjects(trx, schoolId, userId, body.subjectIds),
    actor,
  );
}

export async function createParent(
  ctx: AppContext,
  schoolId: number,
  body: ParentRequest & { sendInvite: boolean; studentIds: number[] },
  actor: Actor,
) {
  await checkLinks(ctx.db, schoolId, { studentIds: body.studentIds });
  return createPerson(
    ctx,
    schoolId,
    'parent',
    body,
    (trx, { userId }) => repo.replaceFamilyLinks(trx, schoolId, userId, 'children', body.studentIds),
    actor,
  );
}

export async function createStudent(
  ctx: AppContext,
  schoolId: number,
  body: StudentRequest & {
    sendInvite: boolean;
    parentIds: number[];
    subjects: Array<{ subjectId: number; teacherId: number | null }>;
  },
  actor: Actor,
) {
  await checkLinks(ctx.db, schoolId, {
    parentIds: body.parentIds,
    subjectIds: body.subjects.map((s) => s.subjectId),
    teacherIds: body.subjects.flatMap((s) => (s.teacherId ? [s.teacherId] : [])),
  });
  return createPerson(
    ctx,
    schoolId,
    'student',
    body,
    async (trx, { userId }) => {
      await repo.replaceFamilyLinks(trx, schoolId, userId, 'parents', body.parentIds);
      await repo.replaceStudentSubjects(trx, schoolId, userId, body.subjects);
    },
    actor,
  );
}

type PersonUpdate = {
  title?: string | null | undefined;
  firstName?: string | undefined;
  lastName?: string | undefined;
  email?: string | undefined;
  status?: 0 | 1 | undefined;
  subjectIds?: number[] | undefined;
  studentIds?: number[] | undefined;
  parentIds?: number[] | undefined;
  subjects?: Array<{ subjectId: number; teacherId: number | null }> | undefined;
};

/** Updates a teacher, parent or student of the school; deactivating ends their sessions at once. */
export async function updatePerson(
  ctx: AppContext,
  schoolId: number,
  userId: number,
  role: Role,
  body: PersonUpdate,
  actor: Actor,
) {
  if (!(await repo.findPersonInRole(ctx.db, schoolId, userId, role))) throw notFound(PERSON_NOT_FOUND);
  await checkLinks(ctx.db, schoolId, {
    subjectIds: [...(body.subjectIds ?? []), ...(body.subjects ?? []).map((s) => s.subjectId)],
    studentIds: body.studentIds,
    parentIds: body.parentIds,
    teacherIds: (body.subjects ?? []).flatMap((s) => (s.teacherId ? [s.teacherId] : [])),
  });
  // An email another account holds meanwhile: the unique index answers, mapped to 409 on email in one place
  // (plugins/errors.ts).
  await ctx.db.transaction().execute(async (trx) => {
    const before = await repo.findPerson(trx, schoolId, userId, role);
    await repo.updatePerson(trx, schoolId, userId, {
      ...(body.title !== undefined && { title: body.title }),
      ...(body.firstName !== undefined && { first_name: body.firstName }),
      ...(body.lastName !== undefined && { last_name: body.lastName }),
      ...(body.email !== undefined && { email: body.email }),
      ...(body.status !== undefined && { status: body.status }),
    });
    if (body.status === 0) {
      await repo.lockSchool(trx, schoolId);
      if ((await findRoles(trx, userId)).includes('admin')) await keepAnActiveAdmin(trx, schoolId, userId);
      await revokeTokens(trx, userId, ['access']);
    }
    if (body.subjectIds) await repo.replaceTeacherSubjects(trx, schoolId, userId, body.subjectIds);
    if (body.studentIds) await repo.replaceFamilyLinks(trx, schoolId, userId, 'children', body.studentIds);
    if (body.parentIds) await repo.replaceFamilyLinks(trx, schoolId, userId, 'parents', body.parentIds);
    if (body.subjects) await repo.replaceStudentSubjects(trx, schoolId, userId, body.subjects);
    await recordAudit(trx, actor, personUpdateEntry(before, body));
  });
  return { id: userId, message: 'Saved.' };
}

/**
 * Refuses a change that would leave the school without an active admin. The caller holds the school's
 * row lock (lockSchool), so two admins removing or deactivating each other cannot both succeed.
 */
async function keepAnActiveAdmin(trx: Db, schoolId: number, leavingUserId: number): Promise<void> {
  if ((await repo.countActiveAdminsOtherThan(trx, schoolId, leavingUserId)) === 0) {
    throw conflict('A school needs at least one active admin. Invite another admin first.');
  }
}

/** Removes one role; the account goes when no role is left. The last active admin cannot be removed. */
export async function removeRole(
  ctx: AppContext,
  schoolId: number,
  userId: number,
  role: Role,
  actor: Actor,
) {
  return ctx.db.transaction().execute(async (trx) => {
    await repo.lockSchool(trx, schoolId);
    const person = await repo.findPersonInRole(trx, schoolId, userId, role);
    if (!person) throw notFound(PERSON_NOT_FOUND);
    if (role === 'admin') await keepAnActiveAdmin(trx, schoolId, userId);
    const cancelled = role === 'teacher' ? await withdrawTeacher(ctx, trx, schoolId, userId) : 0;
    const left = await repo.revokeRole(trx, schoolId, userId, role);
    await repo.dropRoleLinks(trx, schoolId, userId, role);
    const deleted = left === 0 && (await repo.deleteUserUnlessBooked(trx, schoolId, userId));
    const kept = left === 0 && !deleted;
    // Kept (deactivated) for their bookings: nothing of theirs opens Parley any more, personal links included.
    if (kept) await revokeTokens(trx, userId, ['access', 'invite', 'reset', 'verify', 'event']);
    await recordAudit(trx, actor, {
      action: left > 0 ? 'person.role_removed' : 'person.deleted',
      subject: personSubject(person),
      detail: {
        role,
        ...(kept && { accountKept: true }),
        ...(cancelled > 0 && { bookingsCancelled: cancelled }),
      },
    });
    if (left > 0) return { id: userId, message: `${ROLE_LABELS[role]} role removed.` };
    if (deleted) return { id: userId, message: 'Removed.' };
    return { id: userId, message: "Removed. Their past bookings are kept for the school's records." };
  });
}

export async function inviteAdmin(
  ctx: AppContext,
  schoolId: number,
  body: { email: string; firstName: string; lastName: string },
  actor: Actor,
) {
  return createPerson(ctx, schoolId, 'admin', { ...body, sendInvite: true }, async () => {}, actor);
}

/** Sends (again) the invitation of one role: the "Send invite" button and message-types/send. */
export async function sendInvite(
  ctx: AppContext,
  schoolId: number,
  userId: number,
  role: Role,
  actor: Actor,
) {
  const person = await repo.findPersonInRole(ctx.db, schoolId, userId, role);
  if (!person) throw notFound(PERSON_NOT_FOUND);
  await ctx.db.transaction().execute(async (trx) => {
    await sendInvitation(ctx, trx, userId, role);
    await recordAudit(trx, actor, {
      action: 'message.sent',
      subject: personSubject(person),
      detail: { message: 'invitation', role },
    });
  });
  return { message: `Invitation sent to ${person.email}.` };
}

/**
 * POST users/revoke-booking-links: a parent's or student's personal booking links (the links of the
 * invitation and reminder mails) stop working at once, as an unknown link; a new mail brings a new one.
 */
export async function revokeBookingLinks(ctx: AppContext, actor: Actor, userId: number) {
  const { schoolId } = actor;
  const person =
    (await repo.findPersonInRole(ctx.db, schoolId, userId, 'parent')) ??
    (await repo.findPersonInRole(ctx.db, schoolId, userId, 'student'));
  if (!person) throw notFound(PERSON_NOT_FOUND);
  const revoked = await ctx.db.transaction().execute(async (trx) => {
    const count = await revokeEventLinks(trx, schoolId, userId);
    await recordAudit(trx, actor, {
      action: 'person.links_revoked',
      subject: personSubject(person),
      detail: { links: count },
    });
    return count;
  });
  return { id: userId, revoked, message: ACCESS_TEXT.linksRevoked(revoked) };
}

/** People of the given roles whose name or email contains `query` (blank: nobody). */
export async function findPeople(ctx: AppContext, schoolId: number, query: string, roles: Role[]) {
  const words = query.trim();
  return words ? repo.searchPeople(ctx.db, schoolId, words, roles) : [];
}

/** The teachers who teach the subject. */
export function teachersOfSubject(ctx: AppContext, schoolId: number, subjectId: number) {
  return repo.teachersForSubject(ctx.db, schoolId, subjectId);
}
