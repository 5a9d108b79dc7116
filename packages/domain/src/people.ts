import { DIRECTORY_PAGE_SIZES } from './constants';
import { emailField, idField, idParam, personNameField } from './fields';
import { pageOf, pageParam, searchParam } from './paging';
import { ROLES } from './roles';
import { z } from './zod';

// People the school brings in by invitation (spec §3 user list item, §7 Users).

const id = idParam;
const ids = z.array(idField).max(500);

export const idQuery = z.strictObject({ id });
export const deleteQuery = z.strictObject({ id, role: z.enum(ROLES) });

const title = z.string().trim().max(20).nullable();

export const inviteRequest = z.strictObject({
  email: emailField,
  firstName: personNameField,
  lastName: personNameField,
});
export type InviteRequest = z.input<typeof inviteRequest>;

export const teacherRequest = z.strictObject({
  title: title.optional(),
  firstName: personNameField,
  lastName: personNameField,
  email: emailField,
  subjectIds: ids.default([]),
  sendInvite: z.boolean().default(true),
});
export type TeacherRequest = z.input<typeof teacherRequest>;

export const parentRequest = z.strictObject({
  title: title.optional(),
  firstName: personNameField,
  lastName: personNameField,
  email: emailField,
  studentIds: ids.default([]),
  sendInvite: z.boolean().default(true),
});
export type ParentRequest = z.input<typeof parentRequest>;

export const studentSubject = z.strictObject({
  subjectId: idField,
  teacherId: idField.nullable(),
});

export const studentRequest = z.strictObject({
  firstName: personNameField,
  lastName: personNameField,
  email: emailField,
  parentIds: ids.default([]),
  subjects: z.array(studentSubject).max(50).default([]),
  sendInvite: z.boolean().default(true),
});
export type StudentRequest = z.input<typeof studentRequest>;

/**
 * Updates change only the fields sent (spec §4 status 1/0 activates or deactivates). No defaults here:
 * a list that is not sent keeps the links it had (a `.default([])` would wipe them on every edit).
 */
const status = z.union([z.literal(0), z.literal(1)]).optional();
export const teacherUpdate = z.strictObject({
  title: title.optional(),
  firstName: personNameField.optional(),
  lastName: personNameField.optional(),
  email: emailField.optional(),
  subjectIds: ids.optional(),
  status,
});
export const parentUpdate = z.strictObject({
  title: title.optional(),
  firstName: personNameField.optional(),
  lastName: personNameField.optional(),
  email: emailField.optional(),
  studentIds: ids.optional(),
  status,
});
export const studentUpdate = z.strictObject({
  firstName: personNameField.optional(),
  lastName: personNameField.optional(),
  email: emailField.optional(),
  parentIds: ids.optional(),
  subjects: z.array(studentSubject).max(50).optional(),
  status,
});

export const userListItem = z.object({
  id: z.number(),
  name: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  title: z.string().nullable(),
  email: z.string(),
  status: z.number(),
  statusLabel: z.string(),
  statusIcon: z.string(),
  userTypeId: z.number(),
  invitation: z.enum(['accepted', 'pending']),
  subjectIds: z.array(z.number()).optional(),
  studentIds: z.array(z.number()).optional(),
  parentIds: z.array(z.number()).optional(),
});
export type UserListItem = z.infer<typeof userListItem>;

/** A directory row: the list item and the names it links to (a teacher's subjects, a parent's children, a
 * student's parents), so that a page of parents does not need the whole students list to name them. */
export const directoryItem = userListItem.extend({ related: z.array(z.string()) });
export type DirectoryItem = z.infer<typeof directoryItem>;

/** The directory's columns it sorts by; name (last, then first) is the default. */
export const DIRECTORY_SORTS = ['name', 'email', 'status', 'invitation'] as const;
export type DirectorySort = (typeof DIRECTORY_SORTS)[number];

/**
 * users/admins|teachers|parents|students?q&page&pageSize&sort&dir: a page of the directory, searched on the
 * server (every word of q in the title, name or email, any case) and sorted there.
 */
export const directoryQuery = z.strictObject({
  q: searchParam,
  page: pageParam,
  pageSize: z.coerce
    .number()
    .int()
    .refine((size) => (DIRECTORY_PAGE_SIZES as readonly number[]).includes(size), {
      message: `One of ${DIRECTORY_PAGE_SIZES.join(', ')}.`,
    })
    .default(DIRECTORY_PAGE_SIZES[0]),
  sort: z.enum(DIRECTORY_SORTS).default('name'),
  dir: z.enum(['asc', 'desc']).default('asc'),
});
export type DirectoryQuery = z.output<typeof directoryQuery>;

export const directoryPage = pageOf(directoryItem);
export type DirectoryPage = z.infer<typeof directoryPage>;

const personRef = z.object({ id: z.number(), name: z.string(), email: z.string() });

export const personDetail = userListItem.extend({
  roles: z.array(z.enum(ROLES)),
  subjects: z.array(z.object({ id: z.number(), name: z.string() })),
  children: z.array(personRef),
  parents: z.array(personRef),
  studies: z.array(
    z.object({
      subjectId: z.number(),
      subjectName: z.string(),
      teacherId: z.number().nullable(),
      teacherName: z.string().nullable(),
    }),
  ),
  videoConferenceUrl: z.string().nullable(),
});
export type PersonDetail = z.infer<typeof personDetail>;

export const invitedResponse = z.object({ id: z.number(), message: z.string() });
export const savedResponse = z.object({ id: z.number(), message: z.string() });

export const STATUS_LABELS = { 1: 'Active', 0: 'Inactive' } as const;
export const STATUS_ICONS = { 1: 'check_circle', 0: 'block' } as const;

/** POST users/revoke-booking-links (issue 11): a parent's or student's personal booking links stop working. */
export const revokeLinksRequest = z.strictObject({ id: idField });
export const revokeLinksResponse = z.object({ id: z.number(), revoked: z.number(), message: z.string() });
