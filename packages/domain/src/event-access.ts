// Who an event is open to (issue 11). An event without recipients is open to every family of its school
// that has the code; once an admin names recipients, only they book: a parent recipient for any of their
// children, the parent of a student recipient for that child, and a student who is a recipient (or whose
// parent is one) for themselves. Admins booking on a family's behalf follow the same rule.

/** What the event's recipient list says about one family: whether it has any, and which of the family are on it. */
export type RecipientList = { any: boolean; among: ReadonlySet<number> };

/** The family asking: a parent with their children, or a student with their parents. */
export type FamilyMember =
  | { role: 'parent'; userId: number; children: readonly number[] }
  | { role: 'student'; userId: number; parents: readonly number[] };

/** 'all': no recipient limit (the usual rules still choose whose children); else the students open to them. */
export type OpenStudents = 'all' | ReadonlySet<number>;

export function openStudents(recipients: RecipientList, family: FamilyMember): OpenStudents {
  if (!recipients.any || recipients.among.has(family.userId)) return 'all';
  if (family.role === 'parent') return new Set(family.children.filter((id) => recipients.among.has(id)));
  return family.parents.some((id) => recipients.among.has(id)) ? 'all' : new Set();
}

/** Whether the family may see the event's booking page at all. */
export const isOpen = (open: OpenStudents): boolean => open === 'all' || open.size > 0;

/** Whether the family may book for this student (null: a booking for no child, as a student's own). */
export const isOpenFor = (open: OpenStudents, studentId: number | null): boolean =>
  open === 'all' || (studentId !== null && open.has(studentId));
