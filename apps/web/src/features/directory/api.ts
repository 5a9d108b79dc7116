import type { CurrentUser, MessageResponse } from '@parley/domain/auth';
import type { BulkSummary, RowStatus } from '@parley/domain/bulk-add';
import { DIRECTORY_PAGE_SIZES } from '@parley/domain/constants';
import type {
  DirectoryPage,
  DirectoryQuery,
  InviteRequest,
  ParentRequest,
  PersonDetail,
  StudentRequest,
  TeacherRequest,
} from '@parley/domain/people';
import type { Role } from '@parley/domain/roles';
import type { ProfileUpdate, SubjectItem, SubjectRequest } from '@parley/domain/school';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { cachedQuery, queryClient } from '../../lib/query-client';
import { getSession, setCurrentUser } from '../../lib/session';
import { discardsBeforeLoad, type PeopleKind, REFETCH_WHEN_EMPTY, withStatus } from './list-cache';

// Calls of the school directory (spec §7 Users, subjects, bulk add) and the cached people lists.

export const KIND_ROLE: Record<PeopleKind, Role> = {
  admins: 'admin',
  teachers: 'teacher',
  parents: 'parent',
  students: 'student',
};

export const ROLE_KIND: Record<Role, PeopleKind> = {
  admin: 'admins',
  teacher: 'teachers',
  parent: 'parents',
  student: 'students',
};

const INVITE_MESSAGES: Record<PeopleKind, string> = {
  admins: 'sendAdminInviteEmail',
  teachers: 'sendTeacherInviteEmail',
  parents: 'sendParentInviteEmail',
  students: 'sendStudentInviteEmail',
};

export type Saved = { id: number; message: string };

// ---- People lists, a page at a time (decision 035), each page cached on the device (spec §4) ----

/** The directory's first page as a list first shows it: no search, by name, the smallest page size. */
export const FIRST_PEOPLE_PAGE: DirectoryQuery = {
  q: '',
  page: 1,
  pageSize: DIRECTORY_PAGE_SIZES[0],
  sort: 'name',
  dir: 'asc',
};

/**
 * A page of a people list: the cached copy while spec §4 allows it (4 hours; teachers and parents
 * refetched when empty), else the server's. `refetch()` is the forced load of the refresh button and
 * pull-to-refresh. For a non-admin the parents list is discarded before loading: never kept, always fetched.
 */
export function peoplePageQuery(kind: PeopleKind, request: DirectoryQuery = FIRST_PEOPLE_PAGE) {
  const discarded = discardsBeforeLoad(kind, Boolean(getSession().user?.isAdmin));
  return queryOptions({
    queryKey: ['people', kind, request],
    queryFn: ({ signal }) => api.get<DirectoryPage>(`users/${kind}`, { query: request, signal }),
    ...(discarded
      ? { staleTime: 0, gcTime: 0 }
      : cachedQuery({ refetchWhenEmpty: REFETCH_WHEN_EMPTY.has(kind) })),
  });
}

/** After an edit: every list is stale (names and links show in several, counts on home); what is shown reloads. */
export async function invalidateDirectory(): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: ['people'] }),
    queryClient.invalidateQueries({ queryKey: ['home'] }),
    queryClient.invalidateQueries({ queryKey: ['person'] }),
    queryClient.invalidateQueries({ queryKey: ['subjects'] }),
  ]);
}

/** Spec §4: a status change updates status, label and icon in the cached pages (their age kept). */
export function patchStatusInLists(userId: number, status: 0 | 1): void {
  for (const [queryKey, data] of queryClient.getQueriesData<DirectoryPage>({ queryKey: ['people'] })) {
    const state = queryClient.getQueryState(queryKey);
    if (data && state && 'items' in data) {
      queryClient.setQueryData<DirectoryPage>(
        queryKey,
        { ...data, items: withStatus(data.items, userId, status) },
        { updatedAt: state.dataUpdatedAt },
      );
    }
  }
}

// ---- People ----

const VIEW_PATHS: Record<PeopleKind, string> = {
  admins: 'users/view-admin-for-admin',
  teachers: 'users/view-teacher-for-admin',
  parents: 'users/view-parent-for-admin',
  students: 'users/view-student-for-admin',
};

export const personQuery = (kind: PeopleKind, id: number) =>
  queryOptions({
    queryKey: ['person', kind, id],
    queryFn: ({ signal }) => api.get<PersonDetail>(VIEW_PATHS[kind], { query: { id }, signal }),
  });

export const inviteAdmin = (body: InviteRequest) => api.post<Saved>('users/invite-admin', body);
export const createTeacher = (body: TeacherRequest) => api.post<Saved>('users/create-teacher', body);
export const createParent = (body: ParentRequest) => api.post<Saved>('users/create-parent', body);
export const createStudent = (body: StudentRequest) => api.post<Saved>('users/create-student', body);

export type PersonUpdateBody = {
  title?: string | null;
  firstName?: string;
  lastName?: string;
  email?: string;
  status?: 0 | 1;
  subjectIds?: number[];
  studentIds?: number[];
  parentIds?: number[];
  subjects?: Array<{ subjectId: number; teacherId: number | null }>;
};

/** update-teacher, update-parent or update-student (admins have no such call). */
export const updatePerson = (kind: Exclude<PeopleKind, 'admins'>, id: number, body: PersonUpdateBody) =>
  api.post<Saved>(`users/update-${KIND_ROLE[kind]}`, body, { query: { id } });

/** An admin's own fields (title and names) go through users/update, which answers the user. */
export async function updateUserNames(id: number, body: ProfileUpdate): Promise<CurrentUser> {
  const user = await api.post<CurrentUser>('users/update', body, { query: { id } });
  if (getSession().user?.id === user.id) setCurrentUser(user);
  return user;
}

/** Removes this role (users/delete), or an admin (users/remove-admin). */
export const removePerson = (kind: PeopleKind, id: number) =>
  kind === 'admins'
    ? api.post<Saved>('users/remove-admin', { id })
    : api.post<Saved>('users/delete', undefined, { query: { id, role: KIND_ROLE[kind] } });

/** "Send invite": message-types/send with the role's invitation message. */
export const sendInvite = (kind: PeopleKind, userId: number) =>
  api.post<MessageResponse>('message-types/send', {
    messageTypeName: INVITE_MESSAGES[kind],
    data: { userId },
  });

export type PersonRef = { id: number; name: string; email: string };

export const teachersForSubjectQuery = (subjectId: number) =>
  queryOptions({
    queryKey: ['subjects', 'teachers-for', subjectId],
    queryFn: ({ signal }) =>
      api.get<{ items: PersonRef[] }>('users/search-teachers-for-subject', {
        query: { subject_id: subjectId },
        signal,
      }),
    select: (data) => data.items,
    staleTime: 60_000,
  });

// ---- Subjects ----

/** Over JSON the dates are ISO strings. */
export type Subject = Omit<SubjectItem, 'createdAt'> & { createdAt: string };
export type SubjectDetail = Subject & { teachers: PersonRef[] };

export const subjectsQuery = queryOptions({
  queryKey: ['subjects', 'list'],
  queryFn: ({ signal }) => api.get<{ items: Subject[] }>('subjects/index', { signal }),
  select: (data) => data.items,
});

export const subjectQuery = (id: number) =>
  queryOptions({
    queryKey: ['subjects', 'view', id],
    queryFn: ({ signal }) => api.get<SubjectDetail>('subjects/view', { query: { id }, signal }),
  });

export const createSubject = (body: SubjectRequest) => api.post<Saved>('subjects/create', body);
export const renameSubject = (id: number, body: SubjectRequest) =>
  api.post<Saved>('subjects/update', body, { query: { id } });
export const deleteSubject = (id: number) => api.post<Saved>('subjects/delete', undefined, { query: { id } });

// ---- Bulk add ----

export type BulkKind = 'teachers' | 'families';
type BulkPerson = { firstName: string; lastName: string; email: string };
export type TeacherResultRow = BulkPerson & {
  line: number;
  title: string | null;
  subjects: string[];
  status: RowStatus;
  errors: string[];
};
export type FamilyResultRow = {
  line: number;
  student: BulkPerson;
  parents: BulkPerson[];
  status: RowStatus;
  errors: string[];
};
export type BulkResult<Row> = { confirmed: boolean; summary: BulkSummary; rows: Row[] };
export type BulkRows = { teachers: TeacherResultRow; families: FamilyResultRow };

const BULK_PATHS: Record<BulkKind, string> = {
  teachers: 'users/bulk-add-teachers',
  families: 'users/bulk-add-students',
};

/** Preview (nothing written), or with `confirm` write every good row in one go. */
export function bulkAdd<K extends BulkKind>(
  kind: K,
  csv: string,
  confirm?: { sendInvite: boolean },
): Promise<BulkResult<BulkRows[K]>> {
  return api.post<BulkResult<BulkRows[K]>>(
    BULK_PATHS[kind],
    { csv },
    confirm ? { query: { confirm: 'true', send_invite: String(confirm.sendInvite) } } : {},
  );
}

export type RevokedLinks = { id: number; revoked: number; message: string };

/** Ends a parent's or student's personal booking links (the links of invitation and reminder mails). */
export const revokeBookingLinks = (userId: number) =>
  api.post<RevokedLinks>('users/revoke-booking-links', { id: userId });
