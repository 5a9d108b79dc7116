import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test-app';
import {
  type Api,
  addAdmin,
  addMember,
  addPerson,
  addSubject,
  api,
  expectStatus,
  loginAs,
  type Member,
  newSchool,
} from './directory-helpers';

// What the directory does over time: admins, roles removed one at a time, deactivation, one account with
// several roles, families, and who teaches a child what.

const LAST_ADMIN = 'A school needs at least one active admin. Invite another admin first.';

let t: TestApp;
let http: Api;
let admin: { id: number; email: string; token: string };

beforeAll(async () => {
  t = await createTestApp();
  http = api(t.app);
  ({ admin } = await newSchool(t, 'Behaviour School'));
});
afterAll(() => t.close());

const ids = async (path: string, token = admin.token) =>
  expectStatus<{ items: Array<{ id: number }> }>(await http.get(path, token), 200).items.map(
    (item) => item.id,
  );

async function adminCount(school: number): Promise<number> {
  const rows = await t.db
    .selectFrom('user_roles')
    .select('user_id')
    .where('school_id', '=', school)
    .where('role', '=', 'admin')
    .execute();
  return rows.length;
}

describe('removing admins', () => {
  it('never deactivates the only active admin through another of their roles', async () => {
    const only = await newSchool(t, 'Teaching Head School');
    const asTeacher = await http.post('users/create-teacher', only.admin.token, {
      firstName: 'Head',
      lastName: 'Teacher',
      email: only.admin.email,
      sendInvite: false,
    });
    expectStatus(asTeacher, 200);
    const res = await http.post(`users/update-teacher?id=${only.admin.id}`, only.admin.token, { status: 0 });
    expect(expectStatus(res, 409)).toEqual({ message: LAST_ADMIN });
    expectStatus(await loginAs(t.app, only.admin.email), 200);
  });

  it('never removes the last admin, by remove-admin or by users/delete', async () => {
    const only = await newSchool(t, 'Lonely School');
    const res = await http.post('users/remove-admin', only.admin.token, { id: only.admin.id });
    expect(expectStatus(res, 409)).toEqual({ message: LAST_ADMIN });
    const del = await http.post(`users/delete?id=${only.admin.id}&role=admin`, only.admin.token);
    expect(expectStatus(del, 409)).toEqual({ message: LAST_ADMIN });
    expect(await adminCount(only.schoolId)).toBe(1);
    expectStatus(await loginAs(t.app, only.admin.email), 200);
  });

  it('removes another admin (whose account and session go with the role), then refuses the last one', async () => {
    const second = await addAdmin(t, admin.token);
    expect(await ids('users/admins')).toContain(second.id);
    const res = await http.post('users/remove-admin', admin.token, { id: second.id });
    expect(expectStatus(res, 200)).toEqual({ id: second.id, message: 'Removed.' });
    expect(await ids('users/admins')).toEqual([admin.id]);
    expect(expectStatus(await http.get('users/admins', second.token), 401)).toMatchObject({
      action: 'logout',
    });
    expectStatus(await loginAs(t.app, second.email), 422);
    expect(expectStatus(await http.post('users/remove-admin', admin.token, { id: admin.id }), 409)).toEqual({
      message: LAST_ADMIN,
    });
    expectStatus(await http.post('users/remove-admin', admin.token, { id: second.id }), 404);
  });

  it('remove-admin of someone who is not an admin is 404 and removes nothing', async () => {
    const teacher = await addPerson(t, admin.token, 'teacher');
    expectStatus(await http.post('users/remove-admin', admin.token, { id: teacher.id }), 404);
    expect(await ids('users/teachers')).toContain(teacher.id);
  });

  it('an admin who is also a teacher keeps the account and teacher role when the admin role goes', async () => {
    const second = await addAdmin(t, admin.token);
    await addPerson(t, admin.token, 'teacher', { email: second.email });
    expectStatus(await http.post('users/remove-admin', admin.token, { id: second.id }), 200);
    const view = expectStatus(await http.get(`users/view?id=${second.id}`, second.token), 200);
    expect(view).toMatchObject({ roles: ['teacher'], isAdmin: false });
    expectStatus(await http.get('users/admins', second.token), 403);
  });

  it.runIf(process.env.TEST_DB === 'pg')(
    'two admins removing each other at the same moment leave exactly one admin (PostgreSQL)',
    async () => {
      // Several schools race at once, so the two transactions of each pair really overlap.
      const pairs = await Promise.all(
        Array.from({ length: 6 }, async (_, round) => {
          const school = await newSchool(t, `Race School ${round}`);
          const other = await addAdmin(t, school.admin.token);
          return { schoolId: school.schoolId, one: { ...school.admin }, other };
        }),
      );
      const results = await Promise.all(
        pairs.map(({ one, other }) =>
          Promise.all([
            http.post('users/remove-admin', one.token, { id: other.id }),
            http.post('users/remove-admin', other.token, { id: one.id }),
          ]),
        ),
      );
      for (const [index, pair] of pairs.entries()) {
        const statuses = (results[index] ?? []).map((res) => res.statusCode);
        expect(statuses.filter((status) => status === 200)).toHaveLength(1);
        // The loser finds one admin left (409), or has already lost its own role (403) or account (401).
        expect(statuses.filter((status) => status !== 200).every((s) => [409, 403, 401].includes(s))).toBe(
          true,
        );
        expect(await adminCount(pair.schoolId)).toBe(1);
      }
    },
  );
});

describe('users/delete removes one role at a time', () => {
  it('keeps the account with its other role, and removes the account with the last role', async () => {
    const person = await addMember(t, admin.token, 'parent');
    const asTeacher = await addPerson(t, admin.token, 'teacher', { email: person.email });
    expect(asTeacher.id).toBe(person.id);

    const first = await http.post(`users/delete?id=${person.id}&role=teacher`, admin.token);
    expect(expectStatus(first, 200)).toEqual({ id: person.id, message: 'Teacher role removed.' });
    expect(await ids('users/teachers')).not.toContain(person.id);
    expect(await ids('users/parents')).toContain(person.id);
    expect(expectStatus(await http.get(`users/view?id=${person.id}`, person.token), 200).roles).toEqual([
      'parent',
    ]);
    expectStatus(await loginAs(t.app, person.email), 200);
    expectStatus(await http.post(`users/delete?id=${person.id}&role=teacher`, admin.token), 404);

    const last = await http.post(`users/delete?id=${person.id}&role=parent`, admin.token);
    expect(expectStatus(last, 200)).toEqual({ id: person.id, message: 'Removed.' });
    expect(await ids('users/parents')).not.toContain(person.id);
    expectStatus(await http.get(`users/view?id=${person.id}`, admin.token), 404);
    expect(expectStatus(await http.get('users/settings', person.token), 401)).toMatchObject({
      action: 'logout',
    });
    expect(expectStatus(await loginAs(t.app, person.email), 422).message).toBe(
      'Incorrect email or password.',
    );
  });

  it('a removed student leaves their parents’ lists; a removed parent leaves the student’s', async () => {
    const kid = await addPerson(t, admin.token, 'student');
    const mum = await addPerson(t, admin.token, 'parent', { studentIds: [kid.id] });
    const dad = await addPerson(t, admin.token, 'parent', { studentIds: [kid.id] });
    expectStatus(await http.post(`users/delete?id=${dad.id}&role=parent`, admin.token), 200);
    const kidView = expectStatus(
      await http.get(`users/view-student-for-admin?id=${kid.id}`, admin.token),
      200,
    );
    expect(kidView.parentIds).toEqual([mum.id]);
    expectStatus(await http.post(`users/delete?id=${kid.id}&role=student`, admin.token), 200);
    const mumView = expectStatus(
      await http.get(`users/view-parent-for-admin?id=${mum.id}`, admin.token),
      200,
    );
    expect(mumView).toMatchObject({ studentIds: [], children: [] });
  });

  it('a parent who is also a teacher leaves the child’s parents when the parent role goes', async () => {
    const kid = await addPerson(t, admin.token, 'student');
    const person = await addPerson(t, admin.token, 'teacher');
    await addPerson(t, admin.token, 'parent', { email: person.email, studentIds: [kid.id] });
    const mum = await addPerson(t, admin.token, 'parent', { studentIds: [kid.id] });
    expectStatus(await http.post(`users/delete?id=${person.id}&role=parent`, admin.token), 200);
    const view = expectStatus(await http.get(`users/view-student-for-admin?id=${kid.id}`, admin.token), 200);
    expect(view).toMatchObject({ parentIds: [mum.id], parents: [{ id: mum.id }] });
    expect(await ids('users/teachers')).toContain(person.id);
  });

  it('a teacher who teaches a student can be removed; the student keeps the subject without a teacher', async () => {
    const subject = await addSubject(t, admin.token, 'Removal Studies');
    const teacher = await addPerson(t, admin.token, 'teacher', { subjectIds: [subject] });
    const kid = await addPerson(t, admin.token, 'student', {
      subjects: [{ subjectId: subject, teacherId: teacher.id }],
    });
    expect(
      expectStatus(await http.post(`users/delete?id=${teacher.id}&role=teacher`, admin.token), 200),
    ).toEqual({
      id: teacher.id,
      message: 'Removed.',
    });
    const view = expectStatus(await http.get(`users/view-student-for-admin?id=${kid.id}`, admin.token), 200);
    expect(view.studies).toEqual([
      { subjectId: subject, subjectName: 'Removal Studies', teacherId: null, teacherName: null },
    ]);
  });

  it('a person whose teacher role is removed is no longer offered as a teacher of their subjects', async () => {
    const subject = await addSubject(t, admin.token, 'Former Studies');
    const person = await addPerson(t, admin.token, 'parent');
    await addPerson(t, admin.token, 'teacher', { email: person.email, subjectIds: [subject] });
    const kid = await addPerson(t, admin.token, 'student', {
      subjects: [{ subjectId: subject, teacherId: person.id }],
    });
    expect(await ids(`users/search-teachers-for-subject?subject_id=${subject}`)).toEqual([person.id]);
    expectStatus(await http.post(`users/delete?id=${person.id}&role=teacher`, admin.token), 200);
    expect(await ids(`users/search-teachers-for-subject?subject_id=${subject}`)).toEqual([]);
    const subjectView = expectStatus(await http.get(`subjects/view?id=${subject}`, admin.token), 200);
    expect(subjectView).toMatchObject({ teacherCount: 0, teachers: [] });
    const kidView = expectStatus(
      await http.get(`users/view-student-for-admin?id=${kid.id}`, admin.token),
      200,
    );
    expect(kidView.studies).toMatchObject([{ subjectId: subject, teacherId: null }]);
  });
});

describe('deactivation', () => {
  let teacher: Member;
  beforeAll(async () => {
    teacher = await addMember(t, admin.token, 'teacher');
  });

  it('ends the session at once, and login fails with the inactive message', async () => {
    expectStatus(await http.get('users/settings', teacher.token), 200);
    expectStatus(await http.post(`users/update-teacher?id=${teacher.id}`, admin.token, { status: 0 }), 200);
    expect(expectStatus(await http.get('users/settings', teacher.token), 401)).toEqual({
      message: 'Please log in.',
      action: 'logout',
    });
    expect(expectStatus(await loginAs(t.app, teacher.email), 403)).toEqual({
      message: 'Your account is inactive. Please contact your school.',
    });
    expect(await ids(`users/search-can-scan-users?q=${encodeURIComponent(teacher.email)}`)).toEqual([]);
  });

  it('reactivating lets them log in again (the old session stays ended)', async () => {
    expectStatus(await http.post(`users/update-teacher?id=${teacher.id}`, admin.token, { status: 1 }), 200);
    const login = expectStatus<{ accessToken: string }>(await loginAs(t.app, teacher.email), 200);
    expectStatus(await http.get('users/settings', login.accessToken), 200);
    expectStatus(await http.get('users/settings', teacher.token), 401);
  });

  it('an inactive teacher is not offered for their subject', async () => {
    const subject = await addSubject(t, admin.token, 'Inactive Studies');
    const active = await addPerson(t, admin.token, 'teacher', { subjectIds: [subject] });
    const inactive = await addPerson(t, admin.token, 'teacher', { subjectIds: [subject] });
    expectStatus(await http.post(`users/update-teacher?id=${inactive.id}`, admin.token, { status: 0 }), 200);
    expect(await ids(`users/search-teachers-for-subject?subject_id=${subject}`)).toEqual([active.id]);
  });
});

describe('one account, several roles', () => {
  it('create-teacher for a parent of the school adds the teacher role, accepted; a second create-teacher is 409', async () => {
    const parent = await addMember(t, admin.token, 'parent', { firstName: 'Pia', lastName: 'Both' });
    const res = await http.post('users/create-teacher', admin.token, {
      firstName: 'Other',
      lastName: 'Name',
      email: parent.email,
    });
    expect(expectStatus(res, 200)).toEqual({
      id: parent.id,
      message: `${parent.email} now also has the teacher role; we told them by email.`,
    });
    const view = expectStatus(
      await http.get(`users/view-teacher-for-admin?id=${parent.id}`, admin.token),
      200,
    );
    expect(view).toMatchObject({ roles: ['teacher', 'parent'], name: 'Pia Both', invitation: 'accepted' });
    expect(await ids('users/teachers')).toContain(parent.id);
    expect(await ids('users/parents')).toContain(parent.id);
    const accounts = await t.db.selectFrom('users').select('id').where('email', '=', parent.email).execute();
    expect(accounts).toHaveLength(1);

    const again = await http.post('users/create-teacher', admin.token, {
      firstName: 'Other',
      lastName: 'Name',
      email: parent.email,
    });
    expect(expectStatus(again, 409)).toEqual({
      message: `${parent.email} is already a teacher of this school.`,
      errors: { email: [`${parent.email} is already a teacher of this school.`] },
    });

    // They already have a password: the role is theirs at once, no invitation to accept.
    const me = expectStatus(await http.get(`users/view?id=${parent.id}`, parent.token), 200);
    expect(me).toMatchObject({ roles: ['teacher', 'parent'], isTeacher: true, isParent: true });
    const list = expectStatus<{ items: Array<{ id: number; invitation: string }> }>(
      await http.get('users/teachers', admin.token),
      200,
    );
    expect(list.items.find((item) => item.id === parent.id)?.invitation).toBe('accepted');
  });

  it('create-parent and create-student for an existing person add the role the same way', async () => {
    const teacher = await addPerson(t, admin.token, 'teacher');
    const asParent = await addPerson(t, admin.token, 'parent', { email: teacher.email });
    expect(asParent.id).toBe(teacher.id);
    const again = await http.post('users/create-parent', admin.token, {
      firstName: teacher.firstName,
      lastName: teacher.lastName,
      email: teacher.email,
    });
    expectStatus(again, 409);
    const kid = await addPerson(t, admin.token, 'student', {
      email: teacher.email.replace('teacher', 'kid'),
    });
    const asStudent = await http.post('users/create-student', admin.token, {
      firstName: 'Kid',
      lastName: 'Twice',
      email: kid.email,
    });
    expect(expectStatus(asStudent, 409).message).toBe(`${kid.email} is already a student of this school.`);
    const view = expectStatus(
      await http.get(`users/view-parent-for-admin?id=${teacher.id}`, admin.token),
      200,
    );
    expect(view.roles).toEqual(['teacher', 'parent']);
  });
});

describe('families and studies', () => {
  it('a parent with several children, and a student with two parents in separate homes', async () => {
    const kids = [
      await addPerson(t, admin.token, 'student', { firstName: 'Cal', lastName: 'Home' }),
      await addPerson(t, admin.token, 'student', { firstName: 'Bea', lastName: 'Home' }),
      await addPerson(t, admin.token, 'student', { firstName: 'Abe', lastName: 'Home' }),
    ];
    const mum = await addMember(t, admin.token, 'parent', { studentIds: kids.map((kid) => kid.id) });
    const dad = await addPerson(t, admin.token, 'parent', { studentIds: [kids[0]?.id] });
    const step = await addPerson(t, admin.token, 'parent', { studentIds: [kids[0]?.id] });
    const mumView = expectStatus(
      await http.get(`users/view-parent-for-admin?id=${mum.id}`, admin.token),
      200,
    );
    expect((mumView.children as Array<{ name: string }>).map((child) => child.name)).toEqual([
      'Abe Home',
      'Bea Home',
      'Cal Home',
    ]);
    const calView = expectStatus(
      await http.get(`users/view-student-for-admin?id=${kids[0]?.id}`, admin.token),
      200,
    );
    expect(calView.parentIds).toEqual([mum.id, dad.id, step.id].sort((x, y) => x - y));
    expect(expectStatus(await http.get(`users/view?id=${mum.id}`, mum.token), 200).roles).toEqual(['parent']);
  });

  it('a student’s subjects with their teachers appear in view-student-for-admin studies', async () => {
    const maths = await addSubject(t, admin.token, 'Family Maths');
    const french = await addSubject(t, admin.token, 'Family French');
    const mathsTeacher = await addPerson(t, admin.token, 'teacher', {
      firstName: 'Max',
      lastName: 'Sum',
      subjectIds: [maths],
    });
    const frenchTeacher = await addPerson(t, admin.token, 'teacher', {
      firstName: 'Fay',
      lastName: 'Mot',
      subjectIds: [french],
    });
    const kid = await addPerson(t, admin.token, 'student', {
      subjects: [
        { subjectId: maths, teacherId: mathsTeacher.id },
        { subjectId: french, teacherId: frenchTeacher.id },
      ],
    });
    const view = expectStatus(await http.get(`users/view-student-for-admin?id=${kid.id}`, admin.token), 200);
    expect(view.studies).toEqual([
      {
        subjectId: french,
        subjectName: 'Family French',
        teacherId: frenchTeacher.id,
        teacherName: 'Fay Mot',
      },
      { subjectId: maths, subjectName: 'Family Maths', teacherId: mathsTeacher.id, teacherName: 'Max Sum' },
    ]);
    expect(await ids(`users/search-teachers-for-subject?subject_id=${maths}`)).toEqual([mathsTeacher.id]);
    expect(await ids(`users/search-teachers-for-subject?subject_id=${french}`)).toEqual([frenchTeacher.id]);
    const subjects = expectStatus<{ items: Array<{ id: number; studentCount: number }> }>(
      await http.get('subjects/index', admin.token),
      200,
    ).items;
    expect(subjects.find((s) => s.id === maths)?.studentCount).toBe(1);
  });
});
