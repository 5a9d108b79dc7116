import type { CurrentUser } from '@parley/domain/auth';
import { isRole } from '@parley/domain/roles';

// The user kept in local storage, checked field by field when read at start. The domain's zod schema
// (currentUser) says the same, but zod would then be in the first chunk of every page, before any screen
// needs it (decision 019); stored-user.test.ts holds the two to the same answers.

type Check = (value: unknown) => boolean;

const number: Check = (value) => typeof value === 'number' && Number.isFinite(value);
const string: Check = (value) => typeof value === 'string';
const boolean: Check = (value) => typeof value === 'boolean';
const role: Check = (value) => typeof value === 'string' && isRole(value);
const nullable =
  (check: Check): Check =>
  (value) =>
    value === null || check(value);
const arrayOf =
  (check: Check): Check =>
  (value) =>
    Array.isArray(value) && value.every(check);
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const recordOf =
  (check: Check): Check =>
  (value) =>
    isObject(value) && Object.values(value).every(check);

const FIELDS: Record<keyof CurrentUser, Check> = {
  id: number,
  status: number,
  accessToken: nullable(string),
  deviceToken: nullable(string),
  title: nullable(string),
  firstName: string,
  lastName: string,
  fullName: string,
  email: string,
  userTypeId: number,
  userTypeName: string,
  userTypes: arrayOf((value) => isObject(value) && number(value.id) && string(value.name)),
  videoConferenceUrl: nullable(string),
  role: nullable(role),
  roles: arrayOf(role),
  subjectsLabels: string,
  clickRole: nullable(role),
  iAmAdmin: boolean,
  isAdmin: boolean,
  isTeacher: boolean,
  isParent: boolean,
  isStudent: boolean,
  loginCount: number,
  groupedSettings: recordOf(isObject),
  subscriberName: string,
  schoolId: number,
};

/** The stored user if it has the shape of a current user (an older app version may have left another). */
export function parseStoredUser(value: unknown): CurrentUser | null {
  if (!isObject(value)) return null;
  const user: Record<string, unknown> = {};
  for (const [key, check] of Object.entries(FIELDS)) {
    if (!check(value[key])) return null;
    user[key] = value[key]; // only the known fields, as the schema's parse keeps
  }
  return user as CurrentUser;
}
