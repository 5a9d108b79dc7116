import { type CurrentUser, currentUser } from '@parley/domain/auth';
import { describe, expect, it } from 'vitest';
import { parseStoredUser } from './stored-user';

const user: CurrentUser = {
  id: 7,
  status: 1,
  accessToken: null,
  deviceToken: 'device',
  title: 'Ms',
  firstName: 'Ada',
  lastName: 'Parent',
  fullName: 'Ada Parent',
  email: 'ada@example.test',
  userTypeId: 3,
  userTypeName: 'Parent',
  userTypes: [{ id: 3, name: 'Parent' }],
  videoConferenceUrl: null,
  role: 'parent',
  roles: ['parent', 'teacher'],
  subjectsLabels: '',
  clickRole: null,
  iAmAdmin: false,
  isAdmin: false,
  isTeacher: true,
  isParent: true,
  isStudent: false,
  loginCount: 3,
  groupedSettings: { mail: { reminders: true } },
  subscriberName: 'Springfield School',
  schoolId: 1,
};

/** What the domain's schema makes of a stored value. */
const bySchema = (value: unknown) => {
  const parsed = currentUser.safeParse(value);
  return parsed.success ? parsed.data : null;
};

const WRONG: unknown[] = [undefined, null, 'x', 1, 1.5, true, [], {}, [1], { a: 1 }, 'admin', 'owner'];

describe('parseStoredUser', () => {
  it('answers what the currentUser schema answers: the user, without unknown fields', () => {
    expect(parseStoredUser(user)).toEqual(bySchema(user));
    const withExtra = { ...user, legacy: 'x' };
    expect(parseStoredUser(withExtra)).toEqual(bySchema(withExtra));
    expect(parseStoredUser(withExtra)).not.toHaveProperty('legacy');
    for (const value of [null, undefined, 'user', 3, [user]])
      expect(parseStoredUser(value)).toBe(bySchema(value));
  });

  it('refuses a user when any one field is missing or of another type, as the schema does', () => {
    for (const key of Object.keys(user)) {
      const missing: Record<string, unknown> = { ...user };
      delete missing[key];
      expect(parseStoredUser(missing), `${key} missing`).toEqual(bySchema(missing));
      for (const wrong of WRONG) {
        const changed = { ...user, [key]: wrong };
        expect(parseStoredUser(changed), `${key}: ${JSON.stringify(wrong)}`).toEqual(bySchema(changed));
      }
    }
    for (const userTypes of [[{ id: '3', name: 'Parent' }], [{ id: 3 }], [null]]) {
      expect(parseStoredUser({ ...user, userTypes })).toEqual(bySchema({ ...user, userTypes }));
    }
    for (const groupedSettings of [{ mail: 1 }, { mail: [] }, { mail: null }, { mail: {} }]) {
      expect(parseStoredUser({ ...user, groupedSettings })).toEqual(bySchema({ ...user, groupedSettings }));
    }
  });
});
