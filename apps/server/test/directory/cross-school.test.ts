import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailCount } from '../mailbox';
import { createTestApp, type TestApp } from '../test-app';
import {
  type Api,
  addAdmin,
  addMember,
  addPerson,
  addSubject,
  api,
  expectStatus,
  type Member,
  newSchool,
  type Person,
} from './directory-helpers';

// Every endpoint is scoped to the caller's school (ARCHITECTURE: another school's id answers 404, exactly
// as a missing one). School A is the victim; school B's admin and teacher try A's ids.

const MISSING = 999_999;

type SchoolFixture = {
  admin: Member;
  secondAdmin: Member;
  thirdAdmin: Member;
  teacher: Member;
  parent: Person;
  student: Person;
  subject: number;
};

let t: TestApp;
let http: Api;
let a: SchoolFixture;
let b: SchoolFixture;

async function school(name: string): Promise<SchoolFixture> {
  const created = await newSchool(t, name);
  const admin = { ...created.admin, firstName: 'Ada', lastName: 'Lovelace' };
  const subject = await addSubject(t, admin.token, 'Maths');
  // Everybody is called Common: a search that crossed schools would find the other school's people.
  const student = await addPerson(t, admin.token, 'student', { lastName: 'Common' });
  return {
    admin,
    subject,
    student,
    parent: await addPerson(t, admin.token, 'parent', { lastName: 'Common', studentIds: [student.id] }),
    teacher: await addMember(t, admin.token, 'teacher', { lastName: 'Common', subjectIds: [subject] }),
    secondAdmin: await addAdmin(t, admin.token),
    thirdAdmin: await addAdmin(t, admin.token),
  };
}

beforeAll(async () => {
  t = await createTestApp();
  http = api(t.app);
  a = await school('School Alpha');
  b = await school('School Beta');
});
afterAll(() => t.close());

type Route = { method: 'GET' | 'POST'; path: string; body?: unknown };

/** Every route that takes a person's or subject's id, aimed at ids of the given fixture. */
function idRoutes(ids: {
  admin: number;
  otherAdmin: number;
  teacher: number;
  parent: number;
  student: number;
  subject: number;
}): Route[] {
  return [
    { method: 'GET', path: `users/view-admin-for-admin?id=${ids.admin}` },
    { method: 'GET', path: `users/view-teacher-for-admin?id=${ids.teacher}` },
    { method: 'GET', path: `users/view-parent-for-admin?id=${ids.parent}` },
    { method: 'GET', path: `users/view-student-for-admin?id=${ids.student}` },
    {
      method: 'POST',
      path: `users/update-teacher?id=${ids.teacher}`,
      body: { lastName: 'Taken', status: 0 },
    },
    {
      method: 'POST',
      path: `users/update-parent?id=${ids.parent}`,
      body: { lastName: 'Taken', studentIds: [] },
    },
    {
      method: 'POST',
      path: `users/update-student?id=${ids.student}`,
      body: { lastName: 'Taken', parentIds: [] },
    },
    { method: 'POST', path: `users/delete?id=${ids.teacher}&role=teacher` },
    { method: 'POST', path: `users/delete?id=${ids.parent}&role=parent` },
    { method: 'POST', path: `users/delete?id=${ids.student}&role=student` },
    { method: 'POST', path: `users/delete?id=${ids.admin}&role=admin` },
    { method: 'POST', path: 'users/remove-admin', body: { id: ids.otherAdmin } },
    { method: 'GET', path: `subjects/view?id=${ids.subject}` },
    { method: 'POST', path: `subjects/update?id=${ids.subject}`, body: { name: 'Taken' } },
    { method: 'POST', path: `subjects/delete?id=${ids.subject}` },
    { method: 'GET', path: `users/view?id=${ids.teacher}` },
    { method: 'POST', path: `users/update?id=${ids.teacher}`, body: { lastName: 'Taken' } },
    {
      method: 'POST',
      path: 'message-types/send',
      body: { messageTypeName: 'sendTeacherInviteEmail', data: { userId: ids.teacher } },
    },
  ];
}

const send = (route: Route, token: string) =>
  route.method === 'GET' ? http.get(route.path, token) : http.post(route.path, token, route.body);

/** School A as its own admin sees it. */
async function schoolA() {
  const lists = await Promise.all(
    ['users/admins', 'users/teachers', 'users/parents', 'users/students', 'subjects/index'].map(
      async (path) => expectStatus(await http.get(path, a.admin.token), 200).items,
    ),
  );
  return { lists, school: expectStatus(await http.get('site/school', a.admin.token), 200) };
}

describe('another school’s ids', () => {
  it('answer 404 to the other school’s admin on every route that takes an id, exactly as missing ids', async () => {
    const before = await schoolA();
    const mailsBefore = await mailCount(t.db, a.teacher.email);
    const theirs = idRoutes({
      admin: a.secondAdmin.id,
      otherAdmin: a.thirdAdmin.id,
      teacher: a.teacher.id,
      parent: a.parent.id,
      student: a.student.id,
      subject: a.subject,
    });
    const missing = idRoutes({
      admin: MISSING,
      otherAdmin: MISSING,
      teacher: MISSING,
      parent: MISSING,
      student: MISSING,
      subject: MISSING,
    });
    for (const [index, route] of theirs.entries()) {
      const res = await send(route, b.admin.token);
      const absent = await send(missing[index] as Route, b.admin.token);
      expect({ route: `${route.method} ${route.path}`, status: res.statusCode, body: res.json() }).toEqual({
        route: `${route.method} ${route.path}`,
        status: 404,
        body: absent.json(),
      });
    }
    expect(await schoolA()).toEqual(before);
    expect(await mailCount(t.db, a.teacher.email)).toBe(mailsBefore);
    expectStatus(await http.get('users/settings', a.teacher.token), 200);
  });

  it('answer 404 to a teacher of the other school on users/view and users/update', async () => {
    expectStatus(await http.get(`users/view?id=${a.teacher.id}`, b.teacher.token), 404);
    expectStatus(await http.post(`users/update?id=${a.teacher.id}`, b.teacher.token, { title: 'X' }), 404);
    const view = expectStatus(await http.get(`users/view?id=${a.teacher.id}`, a.admin.token), 200);
    expect(view.title).toBeNull();
  });
});

describe('lists and searches', () => {
  it('lists only the caller’s school', async () => {
    for (const [path, key] of [
      ['users/admins', 'admin'],
      ['users/teachers', 'teacher'],
      ['users/parents', 'parent'],
      ['users/students', 'student'],
    ] as const) {
      const ids = (school: SchoolFixture) =>
        key === 'admin' ? [school.admin.id, school.secondAdmin.id, school.thirdAdmin.id] : [school[key].id];
      for (const [mine, theirs] of [
        [a, b],
        [b, a],
      ] as const) {
        const items = expectStatus<{ items: Array<{ id: number }> }>(
          await http.get(path, mine.admin.token),
          200,
        ).items;
        expect(items.map((item) => item.id).sort()).toEqual(ids(mine).sort());
        for (const id of ids(theirs)) expect(items.map((item) => item.id)).not.toContain(id);
      }
    }
    const subjects = expectStatus<{ items: Array<{ id: number }> }>(
      await http.get('subjects/index', b.admin.token),
      200,
    );
    expect(subjects.items.map((s) => s.id)).toEqual([b.subject]);
  });

  it('searches never show the other school’s people', async () => {
    const ids = async (path: string) =>
      expectStatus<{ items: Array<{ id: number }> }>(await http.get(path, b.admin.token), 200)
        .items.map((item) => item.id)
        .sort();
    expect(await ids('users/search-email?q=common')).toEqual(
      [b.teacher.id, b.parent.id, b.student.id].sort(),
    );
    expect(await ids('users/search-can-scan-users?q=common')).toEqual([b.teacher.id, b.student.id].sort());
    expect(await ids(`users/search-email?q=${encodeURIComponent(a.teacher.email)}`)).toEqual([]);
    expect(await ids(`users/search-teachers-for-subject?subject_id=${a.subject}`)).toEqual([]);
    expect(await ids(`users/search-teachers-for-subject?subject_id=${b.subject}`)).toEqual([b.teacher.id]);
  });

  it('site/school is the caller’s school, and updating it leaves the other school alone', async () => {
    expect(expectStatus(await http.get('site/school', b.teacher.token), 200).name).toBe('School Beta');
    const res = await http.post('site/update-school', b.admin.token, {
      name: 'Beta Renamed',
      timezone: 'Asia/Tokyo',
    });
    expectStatus(res, 200);
    expect(expectStatus(await http.get('site/school', a.admin.token), 200)).toMatchObject({
      name: 'School Alpha',
      timezone: 'Europe/London',
    });
  });
});

describe('linking the other school’s records', () => {
  const email = (name: string) => `${name}@beta.example.org`;

  it('create-* refuse another school’s subject, student, parent and teacher ids (422)', async () => {
    const teacher = await http.post('users/create-teacher', b.admin.token, {
      firstName: 'Tom',
      lastName: 'Link',
      email: email('tom'),
      subjectIds: [a.subject],
    });
    expect(expectStatus(teacher, 422).errors).toEqual({ subjectIds: [`Unknown subject: ${a.subject}`] });
    const parent = await http.post('users/create-parent', b.admin.token, {
      firstName: 'Pat',
      lastName: 'Link',
      email: email('pat'),
      studentIds: [a.student.id],
    });
    expect(expectStatus(parent, 422).errors).toEqual({ studentIds: [`Unknown student: ${a.student.id}`] });
    const student = await http.post('users/create-student', b.admin.token, {
      firstName: 'Stu',
      lastName: 'Link',
      email: email('stu'),
      parentIds: [a.parent.id],
      subjects: [
        { subjectId: b.subject, teacherId: a.teacher.id },
        { subjectId: a.subject, teacherId: null },
      ],
    });
    expect(expectStatus(student, 422).errors).toEqual({
      parentIds: [`Unknown parent: ${a.parent.id}`],
      subjectIds: [`Unknown subject: ${a.subject}`],
      subjects: [`Unknown teacher: ${a.teacher.id}`],
    });
    const students = expectStatus<{ items: Array<{ email: string }> }>(
      await http.get('users/students', b.admin.token),
      200,
    );
    expect(students.items.map((s) => s.email)).not.toContain(email('stu'));
  });

  it('update-* refuse another school’s ids (422) and keep the links they had', async () => {
    const teacher = await http.post(`users/update-teacher?id=${b.teacher.id}`, b.admin.token, {
      subjectIds: [a.subject],
    });
    expect(expectStatus(teacher, 422).errors).toEqual({ subjectIds: [`Unknown subject: ${a.subject}`] });
    const parent = await http.post(`users/update-parent?id=${b.parent.id}`, b.admin.token, {
      studentIds: [a.student.id],
    });
    expect(expectStatus(parent, 422).errors).toEqual({ studentIds: [`Unknown student: ${a.student.id}`] });
    const student = await http.post(`users/update-student?id=${b.student.id}`, b.admin.token, {
      parentIds: [a.parent.id],
      subjects: [{ subjectId: b.subject, teacherId: a.teacher.id }],
    });
    expect(expectStatus(student, 422).errors).toEqual({
      parentIds: [`Unknown parent: ${a.parent.id}`],
      subjects: [`Unknown teacher: ${a.teacher.id}`],
    });
    const view = expectStatus(
      await http.get(`users/view-student-for-admin?id=${b.student.id}`, b.admin.token),
      200,
    );
    expect(view).toMatchObject({ parentIds: [b.parent.id], studies: [] });
    const teacherView = expectStatus(
      await http.get(`users/view-teacher-for-admin?id=${b.teacher.id}`, b.admin.token),
      200,
    );
    expect(teacherView.subjectIds).toEqual([b.subject]);
  });

  it('an email of another school cannot be invited, created or bulk-added', async () => {
    const text = 'This email is already registered with another school.';
    const teacher = await http.post('users/create-teacher', b.admin.token, {
      firstName: 'Same',
      lastName: 'Mail',
      email: a.teacher.email,
    });
    expect(expectStatus(teacher, 409)).toEqual({ message: text, errors: { email: [text] } });
    const admin = await http.post('users/invite-admin', b.admin.token, {
      firstName: 'Same',
      lastName: 'Mail',
      email: a.parent.email,
    });
    expectStatus(admin, 409);
    const bulk = await http.post('users/bulk-add-teachers?confirm=true&send_invite=true', b.admin.token, {
      csv: `First name,Last name,Email\nSame,Mail,${a.student.email}`,
    });
    const body = expectStatus<{
      rows: Array<{ status: string; errors: string[] }>;
      summary: { created: number };
    }>(bulk, 200);
    expect(body.rows[0]).toMatchObject({ status: 'error', errors: ['email is used by another school'] });
    expect(body.summary.created).toBe(0);
    const families = await http.post('users/bulk-add-students?confirm=true', b.admin.token, {
      csv: [
        'Student first name,Student last name,Student email,Parent first name,Parent last name,Parent email',
        `New,Kid,${email('newkid')},Same,Mail,${a.parent.email}`,
      ].join('\n'),
    });
    const familyRows = expectStatus<{ rows: Array<{ status: string; errors: string[] }> }>(
      families,
      200,
    ).rows;
    expect(familyRows[0]).toMatchObject({
      status: 'error',
      errors: ['parent email is used by another school'],
    });
    const view = expectStatus(await http.get(`users/view?id=${a.student.id}`, a.admin.token), 200);
    expect(view).toMatchObject({ roles: ['student'], schoolId: expect.any(Number) });
    const studentsB = expectStatus<{ items: Array<{ email: string }> }>(
      await http.get('users/students', b.admin.token),
      200,
    );
    expect(studentsB.items.map((s) => s.email)).not.toContain(email('newkid'));
  });
});

describe('the school’s own admin', () => {
  it('the same routes answer 200 to the school’s own admin (the requests themselves are valid)', async () => {
    const own = idRoutes({
      admin: b.secondAdmin.id,
      otherAdmin: b.thirdAdmin.id,
      teacher: b.teacher.id,
      parent: b.parent.id,
      student: b.student.id,
      subject: b.subject,
    });
    // Deleting comes last so every earlier request still finds its target.
    const deletes = own.filter((route) => /delete|remove-admin/.test(route.path));
    for (const route of [...own.filter((route) => !deletes.includes(route)), ...deletes]) {
      const res = await send(route, b.admin.token);
      expect({ route: `${route.method} ${route.path}`, status: res.statusCode }).toEqual({
        route: `${route.method} ${route.path}`,
        status: 200,
      });
    }
  });
});
