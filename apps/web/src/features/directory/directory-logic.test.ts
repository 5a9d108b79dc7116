import { FAMILY_COLUMNS, readCsv, TEACHER_COLUMNS } from '@parley/domain/bulk-add';
import type { PersonDetail } from '@parley/domain/people';
import { describe, expect, it } from 'vitest';
import { PEOPLE_TEXT } from '../../lib/ui-text';
import { templateCsv } from './bulk-templates';
import { previewCounts } from './components/bulk-add-page';
import { welcomeSteps } from './components/welcome-page';
import { emptyPersonValues, personBody, personFields, personSchema, personValues } from './person-form';

describe('bulk add templates', () => {
  it('are read by the server parser with every required column', () => {
    const teachers = readCsv(templateCsv('teachers'), TEACHER_COLUMNS);
    expect(teachers.error).toBeNull();
    expect(teachers.rows[0]?.cells).toMatchObject({
      title: 'Ms',
      firstName: 'Jane',
      email: 'jane.smith@example.org',
      subjects: 'Maths;Physics',
    });
    const families = readCsv(templateCsv('families'), FAMILY_COLUMNS);
    expect(families.error).toBeNull();
    expect(families.rows).toHaveLength(2);
    expect(families.rows[0]?.cells).toMatchObject({
      studentFirstName: 'Amy',
      parent2Email: 'ian.brown@example.org',
    });
    expect(templateCsv('families').split('\r\n')[0]).toBe(
      'Student first name,Student last name,Student email,Parent first name,Parent last name,Parent email,Parent 2 first name,Parent 2 last name,Parent 2 email',
    );
  });

  it('counts the preview rows by status; new people and new roles are added', () => {
    expect(
      previewCounts([
        { status: 'new' },
        { status: 'new' },
        { status: 'add-role' },
        { status: 'exists' },
        { status: 'error' },
      ]),
    ).toEqual({ rows: 5, new: 2, 'add-role': 1, exists: 1, error: 1, addable: 3 });
  });
});

describe('welcome checklist', () => {
  it('ticks each step from real counts, the first event too (issue 36)', () => {
    const steps = welcomeSteps({ subjects: 3, teachers: 0, students: undefined, events: 7 });
    expect(steps.map((step) => [step.key, step.done, step.to])).toEqual([
      ['subjects', true, '/subjects'],
      ['teachers', false, '/teachers'],
      ['families', false, '/students/bulkadd'],
      ['event', true, '/events'],
    ]);
    expect(steps[2]?.count).toBeNull();
    expect(steps[3]?.count).toBe(7);
  });
});

describe('person forms (spec §5 field rules)', () => {
  const messages = (kind: Parameters<typeof personSchema>[0], values: unknown) => {
    const result = personSchema(kind, 'create').safeParse(values);
    return result.success
      ? {}
      : Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
  };

  it('says which field is wrong, in the spec words', () => {
    expect(messages('teachers', { ...emptyPersonValues('teachers'), firstName: 'A', email: 'nope' })).toEqual(
      {
        firstName: 'Min 2 characters',
        lastName: 'Required.',
        email: 'Invalid email format',
      },
    );
  });

  it('asks for a subject on every study row, once each', () => {
    const base = {
      ...emptyPersonValues('students'),
      firstName: 'Amy',
      lastName: 'Brown',
      email: 'amy@x.test',
    };
    expect(messages('students', { ...base, subjects: [{ subjectId: null, teacherId: null }] })).toEqual({
      'subjects.0.subjectId': PEOPLE_TEXT.chooseSubject,
    });
    expect(
      messages('students', {
        ...base,
        subjects: [
          { subjectId: 1, teacherId: 4 },
          { subjectId: 1, teacherId: null },
        ],
      }),
    ).toEqual({ 'subjects.1.subjectId': PEOPLE_TEXT.subjectTwice });
  });

  it('holds only the fields of each form (the request schemas are strict)', () => {
    for (const kind of ['admins', 'teachers', 'parents', 'students'] as const) {
      const values = { ...emptyPersonValues(kind), firstName: 'Amy', lastName: 'Brown', email: 'amy@x.test' };
      expect(personSchema(kind, 'create').safeParse(values).success, kind).toBe(true);
      expect(Object.keys(values).sort()).toEqual([...personFields(kind, 'create')].sort());
    }
  });

  it('starts the edit form from the person, and sends an empty title as none', () => {
    const detail = {
      id: 5,
      name: 'Amy Brown',
      firstName: 'Amy',
      lastName: 'Brown',
      title: null,
      email: 'amy@x.test',
      status: 1,
      statusLabel: 'Active',
      statusIcon: 'check_circle',
      userTypeId: 5,
      invitation: 'pending',
      roles: ['student'],
      subjects: [],
      children: [],
      parents: [{ id: 8, name: 'Sara Brown', email: 'sara@x.test' }],
      studies: [{ subjectId: 2, subjectName: 'Maths', teacherId: 3, teacherName: 'Ada L' }],
      videoConferenceUrl: null,
    } satisfies PersonDetail;
    const values = personValues('students', detail);
    expect(values).toEqual({
      firstName: 'Amy',
      lastName: 'Brown',
      email: 'amy@x.test',
      parentIds: [8],
      subjects: [{ subjectId: 2, teacherId: 3 }],
    });
    expect(personSchema('students', 'edit').safeParse(values).success).toBe(true);
    expect(personBody({ firstName: 'A', lastName: 'B', title: '  ' }).title).toBeNull();
    expect(personBody({ firstName: 'A', lastName: 'B', title: ' Dr ' }).title).toBe('Dr');
    expect(personBody({ firstName: 'A', lastName: 'B' })).not.toHaveProperty('title');
  });
});
