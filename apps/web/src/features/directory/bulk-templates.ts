import { COLUMN_LABELS } from '@parley/domain/bulk-add';
import type { BulkKind } from './api';

// The CSV templates offered for download: the header row the server reads, and example rows.

const TEACHER_HEADER = ['title', 'firstName', 'lastName', 'email', 'subjects'];
const FAMILY_HEADER = [
  'studentFirstName',
  'studentLastName',
  'studentEmail',
  'parentFirstName',
  'parentLastName',
  'parentEmail',
  'parent2FirstName',
  'parent2LastName',
  'parent2Email',
];

const EXAMPLES: Record<BulkKind, string[][]> = {
  teachers: [
    ['Ms', 'Jane', 'Smith', 'jane.smith@example.org', 'Maths;Physics'],
    ['Mr', 'Tom', 'Jones', 'tom.jones@example.org', 'English'],
  ],
  families: [
    [
      'Amy',
      'Brown',
      'amy.brown@example.org',
      'Sara',
      'Brown',
      'sara.brown@example.org',
      'Ian',
      'Brown',
      'ian.brown@example.org',
    ],
    ['Leo', 'Khan', 'leo.khan@example.org', 'Nadia', 'Khan', 'nadia.khan@example.org', '', '', ''],
  ],
};

export const TEMPLATE_FILENAMES: Record<BulkKind, string> = {
  teachers: 'teachers-template.csv',
  families: 'students-and-parents-template.csv',
};

const cell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

export function templateCsv(kind: BulkKind): string {
  const header = (kind === 'teachers' ? TEACHER_HEADER : FAMILY_HEADER).map(
    (key) => COLUMN_LABELS[key] ?? key,
  );
  return [header, ...EXAMPLES[kind]]
    .map((row) => row.map(cell).join(','))
    .join('\r\n')
    .concat('\r\n');
}
