import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD } from '../factories';
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

// Spec §6: only admins manage the directory. Teachers, parents and students get 403 on every admin route,
// and reach only their own profile, password and settings. Every request here is valid for an admin (the
// last test proves it), so a 403 comes from the role check, never from validation or a missing id.

const FORBIDDEN = { message: 'You do not have permission to do that.' };

let t: TestApp;
let http: Api;
let admin: Member;
let members: Record<'teacher' | 'parent' | 'student', Member>;
let secondAdmin: Member;
let victim: Person;
let subject: number;
let spareSubject: number;

type Route = { method: 'GET' | 'POST'; path: string; body?: unknown };

/** Every admin-only route of issue 3, each with a request that an admin of this school may make. */
function adminRoutes(): Route[] {
  const teacherCsv = 'First name,Last name,Email\nBulk,Teacher,bulk.teacher@denial.example.org';
  const familyCsv = [
    'Student first name,Student last name,Student email,Parent first name,Parent last name,Parent email',
    'Bulk,Kid,bulk.kid@denial.example.org,Bulk,Parent,bulk.parent@denial.example.org',
  ].join('\n');
  const { teacher, parent, student } = members;
  return [
    { method: 'GET', path: 'users/admins' },
    { method: 'GET', path: 'users/teachers' },
    { method: 'GET', path: 'users/parents' },
    { method: 'GET', path: 'users/students' },
    { method: 'GET', path: `users/view-admin-for-admin?id=${admin.id}` },
    { method: 'GET', path: `users/view-teacher-for-admin?id=${teacher.id}` },
    { method: 'GET', path: `users/view-parent-for-admin?id=${parent.id}` },
    { method: 'GET', path: `users/view-student-for-admin?id=${student.id}` },
    {
      method: 'POST',
      path: 'users/invite-admin',
      body: { email: 'new.admin@denial.example.org', firstName: 'New', lastName: 'Admin' },
    },
    {
      method: 'POST',
      path: 'users/create-teacher',
      body: {
        firstName: 'New',
        lastName: 'Teacher',
        email: 'new.teacher@denial.example.org',
        subjectIds: [subject],
      },
    },
    {
      method: 'POST',
      path: 'users/create-parent',
      body: {
        firstName: 'New',
        lastName: 'Parent',
        email: 'new.parent@denial.example.org',
        studentIds: [student.id],
      },
    },
    {
      method: 'POST',
      path: 'users/create-student',
      body: {
        firstName: 'New',
        lastName: 'Student',
        email: 'new.student@denial.example.org',
        parentIds: [parent.id],
      },
    },
    { method: 'POST', path: `users/update-teacher?id=${teacher.id}`, body: { lastName: 'Changed' } },
    { method: 'POST', path: `users/update-parent?id=${parent.id}`, body: { lastName: 'Changed' } },
    { method: 'POST', path: `users/update-student?id=${student.id}`, body: { lastName: 'Changed' } },
    { method: 'POST', path: `users/delete?id=${victim.id}&role=teacher` },
    { method: 'POST', path: 'users/remove-admin', body: { id: secondAdmin.id } },
    { method: 'GET', path: 'users/search-email?q=denial' },
    { method: 'GET', path: 'users/search-can-scan-users?q=denial' },
    { method: 'GET', path: `users/search-teachers-for-subject?subject_id=${subject}` },
    {
      method: 'POST',
      path: 'message-types/send',
      body: { messageTypeName: 'sendTeacherInviteEmail', data: { userId: teacher.id } },
    },
    { method: 'GET', path: 'subjects/index' },
    { method: 'GET', path: `subjects/view?id=${subject}` },
    { method: 'POST', path: 'subjects/create', body: { name: 'Forbidden Studies' } },
    { method: 'POST', path: `subjects/update?id=${subject}`, body: { name: 'Renamed' } },
    { method: 'POST', path: `subjects/delete?id=${spareSubject}` },
    { method: 'POST', path: 'site/update-school', body: { name: 'Taken Over', timezone: 'Europe/Paris' } },
    { method: 'POST', path: 'users/bulk-add-teachers', body: { csv: teacherCsv } },
    {
      method: 'POST',
      path: 'users/bulk-add-teachers?confirm=true&send_invite=true',
      body: { csv: teacherCsv },
    },
    { method: 'POST', path: 'users/bulk-add-students', body: { csv: familyCsv } },
    {
      method: 'POST',
      path: 'users/bulk-add-students?confirm=true&send_invite=true',
      body: { csv: familyCsv },
    },
  ];
}

const send = (route: Route, token?: string) =>
  route.method === 'GET' ? http.get(route.path, token) : http.post(route.path, token, route.body);

beforeAll(async () => {
  t = await createTestApp();
  http = api(t.app);
  const school = await newSchool(t, 'Denial School');
  admin = { ...school.admin, firstName: 'Ada', lastName: 'Lovelace' };
  subject = await addSubject(t, admin.token, 'Maths');
  spareSubject = await addSubject(t, admin.token, 'Spare');
  const student = await addMember(t, admin.token, 'student', { lastName: 'Denial' });
  members = {
    teacher: await addMember(t, admin.token, 'teacher', { lastName: 'Denial', subjectIds: [subject] }),
    parent: await addMember(t, admin.token, 'parent', { lastName: 'Denial', studentIds: [student.id] }),
    student,
  };
  secondAdmin = await addAdmin(t, admin.token);
  victim = await addPerson(t, admin.token, 'teacher');
});
afterAll(() => t.close());

/** What the admin routes could change, to show that a refused request changed nothing. */
async function snapshot() {
  const lists = await Promise.all(
    ['users/admins', 'users/teachers', 'users/parents', 'users/students', 'subjects/index'].map(
      async (path) => expectStatus(await http.get(path, admin.token), 200).items,
    ),
  );
  const school = expectStatus(await http.get('site/school', admin.token), 200);
  const mails = await t.db.selectFrom('mail_outbox').select('id').execute();
  return { lists, school, mails: mails.length };
}

describe('admin-only routes', () => {
  for (const role of ['teacher', 'parent', 'student'] as const) {
    it(`answer 403 to a ${role} and change nothing`, async () => {
      const before = await snapshot();
      for (const route of adminRoutes()) {
        const res = await send(route, members[role].token);
        expect({ route: `${route.method} ${route.path}`, status: res.statusCode, body: res.json() }).toEqual({
          route: `${route.method} ${route.path}`,
          status: 403,
          body: FORBIDDEN,
        });
      }
      expect(await snapshot()).toEqual(before);
    });
  }

  it('answer 401 { action: "logout" } without a token or with an unknown one', async () => {
    for (const route of adminRoutes()) {
      for (const token of [undefined, 'not-a-real-token']) {
        const res = await send(route, token);
        expect({ route: route.path, status: res.statusCode, action: res.json().action }).toEqual({
          route: route.path,
          status: 401,
          action: 'logout',
        });
      }
    }
  });

  it('answer 200 to the school’s admin for every one of those same requests', async () => {
    for (const route of adminRoutes()) {
      const res = await send(route, admin.token);
      expect({ route: `${route.method} ${route.path}`, status: res.statusCode }).toEqual({
        route: `${route.method} ${route.path}`,
        status: 200,
      });
    }
  });
});

describe('self-service routes', () => {
  const roles = ['admin', 'teacher', 'parent', 'student'] as const;
  const who = (role: (typeof roles)[number]) => (role === 'admin' ? admin : members[role]);

  for (const role of roles) {
    it(`let a ${role} read and edit their own record, settings and password, and read the school`, async () => {
      const me = who(role);
      expect(expectStatus(await http.get(`users/view?id=${me.id}`, me.token), 200)).toMatchObject({
        id: me.id,
        email: me.email,
      });
      const updated = await http.post(`users/update?id=${me.id}`, me.token, { title: `T-${role}` });
      expect(expectStatus(updated, 200).title).toBe(`T-${role}`);
      expectStatus(await http.get('users/settings', me.token), 200);
      expectStatus(await http.post('users/update-settings', me.token, { display: { theme: 'light' } }), 200);
      expectStatus(await http.post('users/register-token', me.token, { deviceToken: `device-${role}` }), 200);
      const changed = await http.post('users/change-password', me.token, {
        currentPassword: PASSWORD,
        password: PASSWORD,
      });
      expectStatus(changed, 200);
      expect(expectStatus(await http.get('site/school', me.token), 200).id).toBe(
        expectStatus(await http.get('site/school', admin.token), 200).id,
      );
    });
  }

  for (const role of ['teacher', 'parent', 'student'] as const) {
    it(`answer 403 to a ${role} on anyone else’s record, and change nothing`, async () => {
      const me = members[role];
      const others = [admin, ...Object.values(members).filter((m) => m.id !== me.id)];
      for (const other of others) {
        expect(expectStatus(await http.get(`users/view?id=${other.id}`, me.token), 403)).toEqual(FORBIDDEN);
        const res = await http.post(`users/update?id=${other.id}`, me.token, { firstName: 'Hijacked' });
        expect(expectStatus(res, 403)).toEqual(FORBIDDEN);
        const view = expectStatus(await http.get(`users/view?id=${other.id}`, admin.token), 200);
        expect(view.firstName).not.toBe('Hijacked');
      }
    });
  }

  it('let an admin read and edit any record of the school', async () => {
    for (const member of Object.values(members)) {
      expectStatus(await http.get(`users/view?id=${member.id}`, admin.token), 200);
      const res = await http.post(`users/update?id=${member.id}`, admin.token, { firstName: 'Edited' });
      expect(expectStatus(res, 200).firstName).toBe('Edited');
    }
  });

  it('answer 401 without a token', async () => {
    const { teacher } = members;
    for (const res of [
      await http.get(`users/view?id=${teacher.id}`),
      await http.post(`users/update?id=${teacher.id}`, undefined, { title: 'X' }),
      await http.post('users/change-password', undefined, { currentPassword: PASSWORD, password: PASSWORD }),
      await http.get('users/settings'),
      await http.post('users/update-settings', undefined, {}),
      await http.post('users/register-token', undefined, { deviceToken: 'x' }),
      await http.get('site/school'),
    ]) {
      expect(expectStatus(res, 401)).toMatchObject({ action: 'logout' });
    }
  });
});
