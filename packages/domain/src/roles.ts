export const ROLES = ['admin', 'teacher', 'parent', 'student'] as const;
export type Role = (typeof ROLES)[number];

/** Placeholder user type ids of spec §3: 1 user, 2 admin, 3 teacher, 4 parent, 5 student. */
export const USER_TYPE_IDS = { user: 1, admin: 2, teacher: 3, parent: 4, student: 5 } as const;

export const ROLE_LABELS: Record<Role, string> = {
  admin: 'Admin',
  teacher: 'Teacher',
  parent: 'Parent',
  student: 'Student',
};

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** The order roles are offered in, whatever order they were granted. */
export function sortRoles(roles: readonly Role[]): Role[] {
  return ROLES.filter((role) => roles.includes(role));
}
