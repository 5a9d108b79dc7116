import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asSystem } from '../../src/db/scope';
import {
  replaceFamilyLinks,
  replaceStudentSubjects,
  replaceTeacherSubjects,
} from '../../src/modules/people/people.repository';
import { type Evening, evening } from '../booking/booking-helpers';
import { createTestApp, type TestApp } from '../test-app';

// A repository function that takes a school acts within it, even where row-level security would not stop
// it (the system scope of workers and start-up): called with school B and ids of school A, it leaves A's
// rows as they were.

describe('repository functions keep to the school they are given', () => {
  let t: TestApp;
  let a: Evening;
  let b: Evening;
  const rowsOfA = async () => ({
    teacherSubjects: await t.db
      .selectFrom('teacher_subjects')
      .select(['teacher_id', 'subject_id'])
      .where('school_id', '=', a.schoolId)
      .orderBy(['teacher_id', 'subject_id'])
      .execute(),
    links: await t.db
      .selectFrom('parent_students')
      .select(['parent_id', 'student_id'])
      .where('school_id', '=', a.schoolId)
      .orderBy(['parent_id', 'student_id'])
      .execute(),
    studentSubjects: await t.db
      .selectFrom('student_subjects')
      .select(['student_id', 'subject_id', 'teacher_id'])
      .where('school_id', '=', a.schoolId)
      .orderBy(['student_id', 'subject_id'])
      .execute(),
  });

  beforeAll(async () => {
    t = await createTestApp();
    a = await evening(t, { quick: true, schoolName: 'Alpha Academy' });
    b = await evening(t, { quick: true, schoolName: 'Beta Academy' });
  });
  afterAll(() => t.close());

  it('people: teacher subjects, family links and a student’s subjects', async () => {
    const before = await rowsOfA();
    expect(before.teacherSubjects.length).toBeGreaterThan(0);
    expect(before.links.length).toBeGreaterThan(0);
    expect(before.studentSubjects.length).toBeGreaterThan(0);
    const teacher = a.teachers[0]?.id ?? 0;
    const child = a.children[0]?.id ?? 0;
    await asSystem(async () => {
      await replaceTeacherSubjects(t.db, b.schoolId, teacher, []);
      await replaceFamilyLinks(t.db, b.schoolId, a.parent.id, 'children', []);
      await replaceFamilyLinks(t.db, b.schoolId, child, 'parents', []);
      await replaceStudentSubjects(t.db, b.schoolId, child, []);
    });
    expect(await rowsOfA()).toEqual(before);
  });
});
