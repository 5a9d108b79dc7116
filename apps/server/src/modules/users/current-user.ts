import type { CurrentUser } from '@parley/domain/auth';
import { ROLE_LABELS, type Role, USER_TYPE_IDS } from '@parley/domain/roles';
import { withSettingsDefaults } from '@parley/domain/settings-defaults';
import type { User } from '../../db/schema';

/** Spec §3 "Current user", built from the account, its roles and the school name. */
export function toCurrentUser(
  user: User,
  roles: Role[],
  schoolName: string,
  accessToken: string | null = null,
): CurrentUser {
  const role = roles[0] ?? null;
  const userTypes = roles.map((r) => ({ id: USER_TYPE_IDS[r], name: ROLE_LABELS[r] }));
  return {
    id: user.id,
    schoolId: user.school_id,
    status: user.status,
    accessToken,
    deviceToken: user.device_token,
    title: user.title,
    firstName: user.first_name,
    lastName: user.last_name,
    fullName: `${user.first_name} ${user.last_name}`,
    email: user.email,
    userTypeId: role ? USER_TYPE_IDS[role] : USER_TYPE_IDS.user,
    userTypeName: role ? ROLE_LABELS[role] : 'User',
    userTypes,
    videoConferenceUrl: user.video_conference_url,
    role,
    roles,
    subjectsLabels: '',
    clickRole: role,
    iAmAdmin: roles.includes('admin'),
    isAdmin: roles.includes('admin'),
    isTeacher: roles.includes('teacher'),
    isParent: roles.includes('parent'),
    isStudent: roles.includes('student'),
    loginCount: user.login_count,
    groupedSettings: withSettingsDefaults(user.settings),
    subscriberName: schoolName,
  };
}
