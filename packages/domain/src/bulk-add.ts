import Papa from 'papaparse';
import { emailField, personNameField } from './fields';
import { z } from './zod';

// Bulk add of teachers, and of students with their parents (issue 3): parse a CSV, check every row, and
// say why a row is refused before anything is written. Pure: the server passes what it knows.

export const BULK_MAX_ROWS = 5000;

export type RowStatus = 'new' | 'add-role' | 'exists' | 'error';

/** What the school already holds for an email: absent, a person here (with roles), or another school's. */
export type EmailOwner = { schoolMatch: boolean; roles: string[] } | undefined;

export type BulkContext = {
  subjectIds: Map<string, number>; // lower-cased name → id
  owner: (email: string) => EmailOwner;
};

type Person = { firstName: string; lastName: string; email: string };

export type TeacherRow = Person & {
  line: number;
  title: string | null;
  subjects: string[];
  subjectIds: number[];
  status: RowStatus;
  errors: string[];
};

export type FamilyRow = {
  line: number;
  student: Person;
  parents: Person[];
  status: RowStatus;
  errors: string[];
};

const HEADER_ALIASES: Record<string, string> = {
  title: 'title',
  firstname: 'firstName',
  first: 'firstName',
  forename: 'firstName',
  lastname: 'lastName',
  last: 'lastName',
  surname: 'lastName',
  email: 'email',
  emailaddress: 'email',
  subjects: 'subjects',
  subject: 'subjects',
  studentfirstname: 'studentFirstName',
  studentlastname: 'studentLastName',
  studentemail: 'studentEmail',
  parentfirstname: 'parentFirstName',
  parentlastname: 'parentLastName',
  parentemail: 'parentEmail',
  parent1firstname: 'parentFirstName',
  parent1lastname: 'parentLastName',
  parent1email: 'parentEmail',
  parent2firstname: 'parent2FirstName',
  parent2lastname: 'parent2LastName',
  parent2email: 'parent2Email',
};

/** Column names as a person would write them in the header row. */
export const COLUMN_LABELS: Record<string, string> = {
  title: 'Title',
  firstName: 'First name',
  lastName: 'Last name',
  email: 'Email',
  subjects: 'Subjects',
  studentFirstName: 'Student first name',
  studentLastName: 'Student last name',
  studentEmail: 'Student email',
  parentFirstName: 'Parent first name',
  parentLastName: 'Parent last name',
  parentEmail: 'Parent email',
  parent2FirstName: 'Parent 2 first name',
  parent2LastName: 'Parent 2 last name',
  parent2Email: 'Parent 2 email',
};

const normaliseHeader = (header: string) =>
  HEADER_ALIASES[header.toLowerCase().replace(/[^a-z0-9]/g, '')] ?? header;

export type ParsedCsv = {
  rows: Array<{ line: number; cells: Record<string, string> }>;
  error: string | null;
};

/** Reads CSV text with a header row; blank lines are skipped. Line numbers count the header as line 1. */
export function readCsv(text: string, required: string[]): ParsedCsv {
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, '').trim(), {
    header: true,
    skipEmptyLines: 'greedy',
    transformHeader: normaliseHeader,
    transform: (value) => value.trim(),
  });
  const headers = parsed.meta.fields ?? [];
  const missing = required.filter((column) => !headers.includes(column));
  if (missing.length)
    return {
      rows: [],
      error: `Missing column${missing.length > 1 ? 's' : ''}: ${missing.map((c) => COLUMN_LABELS[c] ?? c).join(', ')}`,
    };
  if (parsed.data.length > BULK_MAX_ROWS)
    return { rows: [], error: `At most ${BULK_MAX_ROWS} rows at a time` };
  return { rows: parsed.data.map((cells, index) => ({ line: index + 2, cells })), error: null };
}

function checkPerson(prefix: string, person: Person, errors: string[]): Person {
  const out = { ...person };
  const fields: Array<[keyof Person, z.ZodType<string>, string]> = [
    ['firstName', personNameField, 'first name'],
    ['lastName', personNameField, 'last name'],
    ['email', emailField, 'email'],
  ];
  for (const [key, schema, label] of fields) {
    const result = schema.safeParse(person[key]);
    if (result.success) out[key] = result.data;
    else errors.push(`${prefix}${label}: ${result.error.issues[0]?.message}`);
  }
  return out;
}

function ownership(owner: EmailOwner, role: string, errors: string[], prefix = ''): RowStatus {
  if (!owner) return 'new';
  if (!owner.schoolMatch) {
    errors.push(`${prefix}email is used by another school`);
    return 'error';
  }
  return owner.roles.includes(role) ? 'exists' : 'add-role';
}

export function checkTeacherRows(parsed: ParsedCsv, context: BulkContext): TeacherRow[] {
  const seen = new Map<string, number>();
  return parsed.rows.map(({ line, cells }) => {
    const errors: string[] = [];
    const person = checkPerson(
      '',
      { firstName: cells.firstName ?? '', lastName: cells.lastName ?? '', email: cells.email ?? '' },
      errors,
    );
    const subjects = (cells.subjects ?? '')
      .split(/[;|,]/)
      .map((name) => name.trim())
      .filter(Boolean);
    const subjectIds: number[] = [];
    for (const name of subjects) {
      const id = context.subjectIds.get(name.toLowerCase());
      if (id === undefined) errors.push(`unknown subject "${name}"`);
      else subjectIds.push(id);
    }
    const firstLine = seen.get(person.email);
    if (firstLine !== undefined) errors.push(`duplicate of line ${firstLine}`);
    else if (person.email) seen.set(person.email, line);
    const status = ownership(errors.length ? undefined : context.owner(person.email), 'teacher', errors);
    return {
      line,
      ...person,
      title: cells.title || null,
      subjects,
      subjectIds,
      status: errors.length ? 'error' : status,
      errors,
    };
  });
}

export function checkFamilyRows(parsed: ParsedCsv, context: BulkContext): FamilyRow[] {
  const studentLines = new Map<string, number>();
  const parentNames = new Map<string, string>();
  return parsed.rows.map(({ line, cells }) => {
    const errors: string[] = [];
    const student = checkPerson(
      'student ',
      {
        firstName: cells.studentFirstName ?? '',
        lastName: cells.studentLastName ?? '',
        email: cells.studentEmail ?? '',
      },
      errors,
    );
    const parents: Person[] = [];
    for (const [prefix, n] of [
      ['parent', ''],
      ['parent 2', '2'],
    ] as const) {
      const raw = {
        firstName: cells[`parent${n}FirstName`] ?? '',
        lastName: cells[`parent${n}LastName`] ?? '',
        email: cells[`parent${n}Email`] ?? '',
      };
      if (n === '2' && !raw.firstName && !raw.lastName && !raw.email) continue;
      const parent = checkPerson(`${prefix} `, raw, errors);
      const name = `${parent.firstName} ${parent.lastName}`.toLowerCase();
      const known = parentNames.get(parent.email);
      if (known !== undefined && known !== name)
        errors.push(`${prefix} email is given with another name on an earlier line`);
      else parentNames.set(parent.email, name);
      if (parent.email && parent.email === student.email)
        errors.push(`${prefix} email is the student's email`);
      parents.push(parent);
    }
    if (parents.length === 2 && parents[0]?.email === parents[1]?.email)
      errors.push('both parents have the same email');
    const firstLine = studentLines.get(student.email);
    if (firstLine !== undefined) errors.push(`duplicate of line ${firstLine}`);
    else if (student.email) studentLines.set(student.email, line);
    let status: RowStatus = 'error';
    if (!errors.length) {
      status = ownership(context.owner(student.email), 'student', errors, 'student ');
      for (const parent of parents) ownership(context.owner(parent.email), 'parent', errors, 'parent ');
      if (parents.some((parent) => context.owner(parent.email)?.roles.includes('student'))) {
        errors.push('a parent email belongs to a student');
      }
    }
    return { line, student, parents, status: errors.length ? 'error' : status, errors };
  });
}

export const TEACHER_COLUMNS = ['firstName', 'lastName', 'email'];
export const FAMILY_COLUMNS = [
  'studentFirstName',
  'studentLastName',
  'studentEmail',
  'parentFirstName',
  'parentLastName',
  'parentEmail',
];

export const bulkRequest = z.strictObject({ csv: z.string().max(5_000_000) });
export const bulkQuery = z.strictObject({
  confirm: z.enum(['true', 'false']).optional(),
  send_invite: z.enum(['true', 'false']).optional(),
});

export type BulkSummary = {
  created: number;
  rolesAdded: number;
  skipped: number;
  invalid: number;
  invited: number;
};
