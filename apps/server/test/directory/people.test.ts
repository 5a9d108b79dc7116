import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailCount } from '../mailbox';
import { createTestApp, type TestApp } from '../test-app';
import {
  type Api,
  acceptInvitation,
  addMember,
  addPerson,
  addSubject,
  api,
  expectStatus,
  newSchool,
  type Person,
} from './directory-helpers';

// Spec §3 user list items and §7 Users: every admin route of the directory answers with the spec's fields
// and refuses bad input with field errors in the spec's words.

const INVALID = 'Please correct the highlighted fields.';

let t: TestApp;
let http: Api;
let admin: { id: number; email: string; token: string };
let maths: number;
let physics: number;
let art: number;

beforeAll(async () => {
  t = await createTestApp();
  http = api(t.app);
  ({ admin } = await newSchool(t, 'People School'));
  maths = await addSubject(t, admin.token, 'Maths');
  physics = await addSubject(t, admin.token, 'Physics');
  art = await addSubject(t, admin.token, 'Art');
});
afterAll(() => t.close());

type Item = Record<string, unknown> & { id: number; email: string };
const items = async (path: string) =>
  expectStatus<{ items: Item[] }>(await http.get(path, admin.token), 200).items;

describe('teachers', () => {
  let zoe: Person;
  let bob: Person;
  let ann: Person;

  beforeAll(async () => {
    // Created out of order: the list sorts by last name, then first name, whatever the case.
    zoe = await addPerson(t, admin.token, 'teacher', {
      title: 'Ms',
      firstName: 'Zoe',
      lastName: 'adams',
      subjectIds: [physics, maths],
    });
    ann = await addPerson(t, admin.token, 'teacher', {
      firstName: 'Ann',
      lastName: 'Zhang',
      sendInvite: false,
    });
    bob = await addPerson(t, admin.token, 'teacher', { firstName: 'bob', lastName: 'Adams' });
  });

  it('lists teachers with the spec fields and subjectIds, sorted by last then first name', async () => {
    const list = await items('users/teachers');
    expect(list.map((item) => item.id)).toEqual([bob.id, zoe.id, ann.id]);
    expect(list[1]).toEqual({
      id: zoe.id,
      name: 'Zoe adams',
      firstName: 'Zoe',
      lastName: 'adams',
      title: 'Ms',
      email: zoe.email,
      status: 1,
      statusLabel: 'Active',
      statusIcon: 'check_circle',
      userTypeId: 3,
      invitation: 'pending',
      subjectIds: [maths, physics].sort((a, b) => a - b),
      related: ['Maths', 'Physics'],
    });
    expect(list[2]).toMatchObject({ subjectIds: [], related: [], title: null, invitation: 'pending' });
  });

  it('create-teacher sends the invitation only when asked', async () => {
    expect(await mailCount(t.db, zoe.email)).toBe(1);
    expect(await mailCount(t.db, ann.email)).toBe(0);
  });

  it('shows invitation "accepted" once the teacher has set a password', async () => {
    await acceptInvitation(t, bob.email, 'teacher');
    const list = await items('users/teachers');
    expect(list.find((item) => item.id === bob.id)?.invitation).toBe('accepted');
  });

  it('view-teacher-for-admin gives the list fields plus roles, subjects and links', async () => {
    const res = await http.get(`users/view-teacher-for-admin?id=${zoe.id}`, admin.token);
    expect(expectStatus(res, 200)).toEqual({
      id: zoe.id,
      name: 'Zoe adams',
      firstName: 'Zoe',
      lastName: 'adams',
      title: 'Ms',
      email: zoe.email,
      status: 1,
      statusLabel: 'Active',
      statusIcon: 'check_circle',
      userTypeId: 3,
      invitation: 'pending',
      subjectIds: [maths, physics].sort((a, b) => a - b),
      roles: ['teacher'],
      subjects: [
        { id: maths, name: 'Maths' },
        { id: physics, name: 'Physics' },
      ],
      children: [],
      parents: [],
      studies: [],
      videoConferenceUrl: null,
    });
  });

  it('update-teacher changes only the fields sent, replaces subjects and deactivates', async () => {
    const res = await http.post(`users/update-teacher?id=${ann.id}`, admin.token, {
      title: 'Dr',
      firstName: 'Anna',
      email: 'ANNA.ZHANG@people.example.org',
      subjectIds: [art, art],
      status: 0,
    });
    expect(expectStatus(res, 200)).toEqual({ id: ann.id, message: 'Saved.' });
    const view = expectStatus(await http.get(`users/view-teacher-for-admin?id=${ann.id}`, admin.token), 200);
    expect(view).toMatchObject({
      title: 'Dr',
      name: 'Anna Zhang',
      lastName: 'Zhang',
      email: 'anna.zhang@people.example.org',
      status: 0,
      statusLabel: 'Inactive',
      statusIcon: 'block',
      subjectIds: [art],
    });
    const back = await http.post(`users/update-teacher?id=${ann.id}`, admin.token, {
      status: 1,
      subjectIds: [],
    });
    expectStatus(back, 200);
    expect((await items('users/teachers')).find((item) => item.id === ann.id)).toMatchObject({
      status: 1,
      statusLabel: 'Active',
      statusIcon: 'check_circle',
      subjectIds: [],
      title: 'Dr',
    });
  });

  it('create-teacher with the same subject twice keeps it once', async () => {
    const teacher = await addPerson(t, admin.token, 'teacher', { subjectIds: [maths, maths] });
    const view = expectStatus(
      await http.get(`users/view-teacher-for-admin?id=${teacher.id}`, admin.token),
      200,
    );
    expect(view.subjectIds).toEqual([maths]);
  });

  it('refuses bad fields with the spec texts', async () => {
    const res = await http.post('users/create-teacher', admin.token, {
      firstName: 'A',
      email: 'not-an-email',
      subjectIds: [maths],
      nickname: 'x',
    });
    expect(expectStatus(res, 422)).toEqual({
      message: INVALID,
      errors: {
        firstName: ['Min 2 characters'],
        lastName: ['Required.'],
        email: ['Invalid email format'],
        nickname: ['Unknown field.'],
      },
    });
  });

  it('refuses unknown subject ids by number and writes nothing', async () => {
    const email = 'ghost.teacher@people.example.org';
    const res = await http.post('users/create-teacher', admin.token, {
      firstName: 'Gho',
      lastName: 'St',
      email,
      subjectIds: [maths, 999_999, 999_998],
    });
    expect(expectStatus(res, 422)).toEqual({
      message: INVALID,
      errors: { subjectIds: ['Unknown subject: 999999, 999998'] },
    });
    expect((await items('users/teachers')).some((item) => item.email === email)).toBe(false);
  });

  it('a second create-teacher with the same email is a conflict', async () => {
    const res = await http.post('users/create-teacher', admin.token, {
      firstName: 'Zoe',
      lastName: 'Again',
      email: zoe.email.toUpperCase(),
    });
    expect(expectStatus(res, 409)).toMatchObject({
      errors: { email: [`${zoe.email} is already a teacher of this school.`] },
    });
  });

  it('update-teacher: validation, an email in use, and ids that are not teachers', async () => {
    const bad = await http.post(`users/update-teacher?id=${zoe.id}`, admin.token, {
      lastName: 'Z',
      status: 2,
      subjectIds: [123_456],
    });
    expect(expectStatus(bad, 422).errors).toMatchObject({
      lastName: ['Min 2 characters'],
      status: expect.any(Array),
    });
    const unknownSubject = await http.post(`users/update-teacher?id=${zoe.id}`, admin.token, {
      subjectIds: [123_456],
    });
    expect(expectStatus(unknownSubject, 422).errors).toEqual({ subjectIds: ['Unknown subject: 123456'] });
    const taken = await http.post(`users/update-teacher?id=${zoe.id}`, admin.token, { email: bob.email });
    expect(expectStatus(taken, 409)).toMatchObject({ errors: { email: ['Email already in use'] } });
    expectStatus(
      await http.post(`users/update-teacher?id=${admin.id}`, admin.token, { firstName: 'Nope' }),
      404,
    );
    expectStatus(await http.post('users/update-teacher?id=999999', admin.token, { firstName: 'Nope' }), 404);
    expectStatus(await http.post('users/update-teacher?id=abc', admin.token, { firstName: 'Nope' }), 422);
    const view = expectStatus(await http.get(`users/view-teacher-for-admin?id=${zoe.id}`, admin.token), 200);
    expect(view).toMatchObject({ lastName: 'adams', status: 1, email: zoe.email });
  });

  it('view-teacher-for-admin: 404 for someone who is not a teacher, 422 without a usable id', async () => {
    expectStatus(await http.get(`users/view-teacher-for-admin?id=${admin.id}`, admin.token), 404);
    expectStatus(await http.get('users/view-teacher-for-admin?id=999999', admin.token), 404);
    expect(
      expectStatus(await http.get('users/view-teacher-for-admin', admin.token), 422).errors,
    ).toHaveProperty('id');
    expectStatus(await http.get('users/view-teacher-for-admin?id=0', admin.token), 422);
  });
});

describe('parents and students', () => {
  let kid: Person;
  let sibling: Person;
  let mum: Person;
  let dad: Person;
  let teacher: Person;

  beforeAll(async () => {
    kid = await addPerson(t, admin.token, 'student', { firstName: 'Kit', lastName: 'Moss' });
    sibling = await addPerson(t, admin.token, 'student', { firstName: 'Ada', lastName: 'Moss' });
    teacher = await addPerson(t, admin.token, 'teacher', { subjectIds: [maths] });
    mum = await addPerson(t, admin.token, 'parent', {
      title: 'Mrs',
      firstName: 'Mia',
      lastName: 'Moss',
      studentIds: [kid.id, sibling.id],
    });
    dad = await addPerson(t, admin.token, 'parent', {
      firstName: 'Dan',
      lastName: 'Field',
      studentIds: [kid.id],
    });
  });

  it('lists parents with the spec fields and their children, sorted by name', async () => {
    const list = await items('users/parents');
    expect(list.map((item) => item.id)).toEqual([dad.id, mum.id]);
    expect(list[1]).toEqual({
      id: mum.id,
      name: 'Mia Moss',
      firstName: 'Mia',
      lastName: 'Moss',
      title: 'Mrs',
      email: mum.email,
      status: 1,
      statusLabel: 'Active',
      statusIcon: 'check_circle',
      userTypeId: 4,
      invitation: 'pending',
      studentIds: [kid.id, sibling.id].sort((a, b) => a - b),
      related: ['Ada Moss', 'Kit Moss'],
    });
  });

  it('lists students with the spec fields and their parents, sorted by name', async () => {
    const list = await items('users/students');
    expect(list.map((item) => item.id)).toEqual([sibling.id, kid.id]);
    expect(list[1]).toEqual({
      id: kid.id,
      name: 'Kit Moss',
      firstName: 'Kit',
      lastName: 'Moss',
      title: null,
      email: kid.email,
      status: 1,
      statusLabel: 'Active',
      statusIcon: 'check_circle',
      userTypeId: 5,
      invitation: 'pending',
      parentIds: [mum.id, dad.id].sort((a, b) => a - b),
      related: ['Dan Field', 'Mia Moss'],
    });
  });

  it('view-parent-for-admin names the children; view-student-for-admin names both parents', async () => {
    const parent = expectStatus(await http.get(`users/view-parent-for-admin?id=${mum.id}`, admin.token), 200);
    expect(parent).toMatchObject({ userTypeId: 4, roles: ['parent'], parents: [], studies: [] });
    expect(parent.children).toEqual([
      { id: sibling.id, name: 'Ada Moss', email: sibling.email },
      { id: kid.id, name: 'Kit Moss', email: kid.email },
    ]);
    const student = expectStatus(
      await http.get(`users/view-student-for-admin?id=${kid.id}`, admin.token),
      200,
    );
    expect(student).toMatchObject({ userTypeId: 5, roles: ['student'], children: [] });
    expect(student.parents).toEqual([
      { id: dad.id, name: 'Dan Field', email: dad.email },
      { id: mum.id, name: 'Mia Moss', email: mum.email },
    ]);
  });

  it('create-student links parents and subjects with teachers', async () => {
    const res = await http.post('users/create-student', admin.token, {
      firstName: 'Leo',
      lastName: 'Moss',
      email: 'leo.moss@people.example.org',
      parentIds: [mum.id],
      subjects: [
        { subjectId: maths, teacherId: teacher.id },
        { subjectId: art, teacherId: null },
      ],
      sendInvite: false,
    });
    const { id } = expectStatus<{ id: number; message: string }>(res, 200);
    expect(res.json().message).toBe('Leo Moss added.');
    const view = expectStatus(await http.get(`users/view-student-for-admin?id=${id}`, admin.token), 200);
    expect(view.parents).toEqual([{ id: mum.id, name: 'Mia Moss', email: mum.email }]);
    expect(view.studies).toEqual([
      { subjectId: art, subjectName: 'Art', teacherId: null, teacherName: null },
      {
        subjectId: maths,
        subjectName: 'Maths',
        teacherId: teacher.id,
        teacherName: `${teacher.firstName} ${teacher.lastName}`,
      },
    ]);
    const parent = expectStatus(await http.get(`users/view-parent-for-admin?id=${mum.id}`, admin.token), 200);
    expect((parent.children as Person[]).map((child) => child.id)).toContain(id);
  });

  it('create-parent and create-student refuse ids that are not students, parents, subjects or teachers', async () => {
    const parent = await http.post('users/create-parent', admin.token, {
      firstName: 'Pat',
      lastName: 'Wrong',
      email: 'pat.wrong@people.example.org',
      studentIds: [kid.id, teacher.id],
    });
    expect(expectStatus(parent, 422)).toEqual({
      message: INVALID,
      errors: { studentIds: [`Unknown student: ${teacher.id}`] },
    });
    const student = await http.post('users/create-student', admin.token, {
      firstName: 'Sam',
      lastName: 'Wrong',
      email: 'sam.wrong@people.example.org',
      parentIds: [kid.id],
      subjects: [{ subjectId: 999_999, teacherId: dad.id }],
    });
    expect(expectStatus(student, 422)).toEqual({
      message: INVALID,
      errors: {
        parentIds: [`Unknown parent: ${kid.id}`],
        subjectIds: ['Unknown subject: 999999'],
        subjects: [`Unknown teacher: ${dad.id}`],
      },
    });
    const emails = [...(await items('users/parents')), ...(await items('users/students'))].map(
      (i) => i.email,
    );
    expect(emails).not.toContain('pat.wrong@people.example.org');
    expect(emails).not.toContain('sam.wrong@people.example.org');
  });

  it('create-parent and create-student check names and emails like every form', async () => {
    const res = await http.post('users/create-parent', admin.token, { firstName: 'P', email: 'a@b' });
    expect(expectStatus(res, 422).errors).toEqual({
      firstName: ['Min 2 characters'],
      lastName: ['Required.'],
      email: ['Invalid email format'],
    });
    const student = await http.post('users/create-student', admin.token, {
      firstName: 'Stu',
      lastName: 'Dent',
      email: 'stu@dent.org',
      subjects: [{ subjectId: maths }],
    });
    expect(expectStatus(student, 422).errors).toHaveProperty(['subjects.0.teacherId']);
  });

  it('update-parent replaces the children; update-student replaces parents and studies', async () => {
    const parent = await http.post(`users/update-parent?id=${dad.id}`, admin.token, {
      lastName: 'Fields',
      studentIds: [sibling.id],
    });
    expectStatus(parent, 200);
    const dadView = expectStatus(
      await http.get(`users/view-parent-for-admin?id=${dad.id}`, admin.token),
      200,
    );
    expect(dadView).toMatchObject({ name: 'Dan Fields', studentIds: [sibling.id] });
    const student = await http.post(`users/update-student?id=${kid.id}`, admin.token, {
      parentIds: [dad.id],
      subjects: [{ subjectId: maths, teacherId: teacher.id }],
    });
    expectStatus(student, 200);
    const kidView = expectStatus(
      await http.get(`users/view-student-for-admin?id=${kid.id}`, admin.token),
      200,
    );
    expect(kidView).toMatchObject({
      parentIds: [dad.id],
      studies: [{ subjectId: maths, teacherId: teacher.id }],
    });
    const mumView = expectStatus(
      await http.get(`users/view-parent-for-admin?id=${mum.id}`, admin.token),
      200,
    );
    expect(mumView.studentIds).not.toContain(kid.id);
  });

  it('an update that leaves a list out keeps those links (deactivating, renaming)', async () => {
    for (const status of [0, 1]) {
      expectStatus(await http.post(`users/update-teacher?id=${teacher.id}`, admin.token, { status }), 200);
    }
    const teacherView = expectStatus(
      await http.get(`users/view-teacher-for-admin?id=${teacher.id}`, admin.token),
      200,
    );
    expect(teacherView.subjectIds).toEqual([maths]);
    expectStatus(
      await http.post(`users/update-student?id=${kid.id}`, admin.token, { firstName: 'Kitty' }),
      200,
    );
    const kidView = expectStatus(
      await http.get(`users/view-student-for-admin?id=${kid.id}`, admin.token),
      200,
    );
    expect(kidView).toMatchObject({
      firstName: 'Kitty',
      parentIds: [dad.id],
      studies: [{ subjectId: maths, teacherId: teacher.id }],
    });
    expectStatus(
      await http.post(`users/update-parent?id=${dad.id}`, admin.token, { title: 'Mr', status: 1 }),
      200,
    );
    const dadView = expectStatus(
      await http.get(`users/view-parent-for-admin?id=${dad.id}`, admin.token),
      200,
    );
    // Dad kept Ada (from update-parent) and Kit (update-student gave Kit to Dad).
    expect(dadView).toMatchObject({ title: 'Mr', studentIds: [sibling.id, kid.id].sort((x, y) => x - y) });
  });

  it('update-parent and update-student refuse unknown links, bad fields and fields of another role', async () => {
    const parent = await http.post(`users/update-parent?id=${mum.id}`, admin.token, { studentIds: [dad.id] });
    expect(expectStatus(parent, 422).errors).toEqual({ studentIds: [`Unknown student: ${dad.id}`] });
    const student = await http.post(`users/update-student?id=${kid.id}`, admin.token, {
      parentIds: [teacher.id],
      subjects: [{ subjectId: maths, teacherId: mum.id }],
    });
    expect(expectStatus(student, 422).errors).toEqual({
      parentIds: [`Unknown parent: ${teacher.id}`],
      subjects: [`Unknown teacher: ${mum.id}`],
    });
    const wrongField = await http.post(`users/update-parent?id=${mum.id}`, admin.token, {
      subjectIds: [maths],
    });
    expect(expectStatus(wrongField, 422).errors).toEqual({ subjectIds: ['Unknown field.'] });
    const badEmail = await http.post(`users/update-student?id=${kid.id}`, admin.token, { email: 'kid@' });
    expect(expectStatus(badEmail, 422).errors).toEqual({ email: ['Invalid email format'] });
    expectStatus(
      await http.post(`users/update-parent?id=${kid.id}`, admin.token, { firstName: 'Nope' }),
      404,
    );
    expectStatus(
      await http.post(`users/update-student?id=${mum.id}`, admin.token, { firstName: 'Nope' }),
      404,
    );
  });

  it('view-parent-for-admin and view-student-for-admin answer 404 for another role', async () => {
    expectStatus(await http.get(`users/view-parent-for-admin?id=${kid.id}`, admin.token), 404);
    expectStatus(await http.get(`users/view-student-for-admin?id=${mum.id}`, admin.token), 404);
  });
});

describe('admins', () => {
  it('lists admins with the spec fields; the registering admin has accepted', async () => {
    const list = await items('users/admins');
    expect(list).toEqual([
      {
        id: admin.id,
        name: 'Ada Lovelace',
        firstName: 'Ada',
        lastName: 'Lovelace',
        title: null,
        email: admin.email,
        status: 1,
        statusLabel: 'Active',
        statusIcon: 'check_circle',
        userTypeId: 2,
        invitation: 'accepted',
        related: [],
      },
    ]);
  });

  it('invite-admin mails an invitation to the admin page; the new admin is listed as pending', async () => {
    const email = 'second.admin@people.example.org';
    const res = await http.post('users/invite-admin', admin.token, {
      email,
      firstName: 'Sec',
      lastName: 'Ond',
    });
    const { id } = expectStatus<{ id: number }>(res, 200);
    expect(res.json().message).toBe(`Invitation sent to ${email}.`);
    const mail = await t.db
      .selectFrom('mail_outbox')
      .select('links')
      .where('to_address', '=', email)
      .executeTakeFirstOrThrow();
    expect(new URL(mail.links[0] ?? '').pathname).toBe('/admins/accept-admin-invite');
    const list = await items('users/admins');
    expect(list.find((item) => item.id === id)).toMatchObject({ userTypeId: 2, invitation: 'pending' });
    const view = expectStatus(await http.get(`users/view-admin-for-admin?id=${id}`, admin.token), 200);
    expect(view).toMatchObject({ id, email, roles: ['admin'], userTypeId: 2 });
    const again = await http.post('users/invite-admin', admin.token, {
      email,
      firstName: 'Sec',
      lastName: 'Ond',
    });
    expectStatus(again, 409);
  });

  it('invite-admin refuses bad fields', async () => {
    const res = await http.post('users/invite-admin', admin.token, { email: 'x', firstName: 'Y' });
    expect(expectStatus(res, 422).errors).toEqual({
      email: ['Invalid email format'],
      firstName: ['Min 2 characters'],
      lastName: ['Required.'],
    });
  });

  it('view-admin-for-admin answers 404 for someone who is not an admin', async () => {
    const teacher = await addPerson(t, admin.token, 'teacher');
    expectStatus(await http.get(`users/view-admin-for-admin?id=${teacher.id}`, admin.token), 404);
  });

  it('remove-admin and users/delete refuse bad input', async () => {
    expect(expectStatus(await http.post('users/remove-admin', admin.token, {}), 422).errors).toHaveProperty(
      'id',
    );
    expectStatus(await http.post('users/remove-admin', admin.token, { id: 'one' }), 422);
    const badRole = await http.post(`users/delete?id=${admin.id}&role=owner`, admin.token);
    expect(expectStatus(badRole, 422).errors).toHaveProperty('role');
    expect(
      expectStatus(await http.post('users/delete?role=teacher', admin.token), 422).errors,
    ).toHaveProperty('id');
    expectStatus(await http.post('users/delete?id=999999&role=teacher', admin.token), 404);
  });
});

describe('searches and invitation mail', () => {
  let tina: Person;
  let sid: Person;
  let pam: Person;

  beforeAll(async () => {
    tina = await addPerson(t, admin.token, 'teacher', {
      firstName: 'Tina',
      lastName: 'Quill',
      subjectIds: [art],
    });
    sid = await addPerson(t, admin.token, 'student', { firstName: 'Sid', lastName: 'Quill' });
    pam = await addPerson(t, admin.token, 'parent', {
      firstName: 'Pam',
      lastName: 'Quill',
      studentIds: [sid.id],
    });
  });

  it('search-email finds people of every role by name or email', async () => {
    const list = await items('users/search-email?q=QUILL');
    expect(list.map((item) => item.id).sort()).toEqual([tina.id, sid.id, pam.id].sort());
    expect(list.find((item) => item.id === tina.id)).toEqual({
      id: tina.id,
      name: 'Tina Quill',
      email: tina.email,
    });
    expect(
      (await items(`users/search-email?q=${encodeURIComponent(pam.email.slice(0, 12))}`)).map((i) => i.id),
    ).toContain(pam.id);
    expect(await items('users/search-email?q=')).toEqual([]);
    expect(await items('users/search-email?q=%25')).toEqual([]);
  });

  it('search-can-scan-users offers staff and students, never parents', async () => {
    const list = await items('users/search-can-scan-users?q=quill');
    expect(list.map((item) => item.id).sort()).toEqual([tina.id, sid.id].sort());
    expect(await items('users/search-can-scan-users?q=')).toEqual([]);
  });

  it('search-teachers-for-subject returns only that subject’s teachers', async () => {
    const other = await addPerson(t, admin.token, 'teacher', {
      firstName: 'Oli',
      lastName: 'Quill',
      subjectIds: [physics],
    });
    const list = await items(`users/search-teachers-for-subject?subject_id=${art}`);
    expect(list).toEqual([{ id: tina.id, name: 'Tina Quill', email: tina.email }]);
    const physicsTeachers = await items(`users/search-teachers-for-subject?subject_id=${physics}`);
    expect(physicsTeachers.map((item) => item.id)).toContain(other.id);
    expect(physicsTeachers.map((item) => item.id)).not.toContain(tina.id);
    expect(await items('users/search-teachers-for-subject?subject_id=999999')).toEqual([]);
    const missing = await http.get('users/search-teachers-for-subject', admin.token);
    expect(expectStatus(missing, 422).errors).toHaveProperty('subject_id');
  });

  it('message-types/send sendTeacherInviteEmail mails a fresh link and the old one stops working', async () => {
    const before = await mailCount(t.db, tina.email);
    const old = await t.db
      .selectFrom('mail_outbox')
      .select('links')
      .where('to_address', '=', tina.email)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const res = await http.post('message-types/send', admin.token, {
      messageTypeName: 'sendTeacherInviteEmail',
      data: { userId: tina.id },
    });
    expect(expectStatus(res, 200)).toEqual({ message: `Invitation sent to ${tina.email}.` });
    expect(await mailCount(t.db, tina.email)).toBe(before + 1);
    const oldToken = new URL(old.links[0] ?? '').searchParams.get('token');
    const stale = await http.post('users/set-teacher-password', undefined, {
      token: oldToken,
      password: 'another good password',
    });
    expectStatus(stale, 400);
    await acceptInvitation(t, tina.email, 'teacher');
  });

  it('message-types/send refuses an unknown message, a missing user id and someone who is not a teacher', async () => {
    const unknown = await http.post('message-types/send', admin.token, {
      messageTypeName: 'sendSpam',
      data: { userId: tina.id },
    });
    expect(expectStatus(unknown, 422)).toEqual({
      message: 'Unknown message type.',
      errors: { messageTypeName: ['Unknown message type.'] },
    });
    const missing = await http.post('message-types/send', admin.token, {
      messageTypeName: 'sendTeacherInviteEmail',
      data: {},
    });
    expect(expectStatus(missing, 422).errors).toHaveProperty(['data.userId']);
    const before = await mailCount(t.db, pam.email);
    const notTeacher = await http.post('message-types/send', admin.token, {
      messageTypeName: 'sendTeacherInviteEmail',
      data: { userId: pam.id },
    });
    expectStatus(notTeacher, 404);
    expect(await mailCount(t.db, pam.email)).toBe(before);
  });
});

describe('a member invited through the API', () => {
  it('can accept and log in (the fixtures other files rely on)', async () => {
    const member = await addMember(t, admin.token, 'student');
    const me = expectStatus(await http.get(`users/view?id=${member.id}`, member.token), 200);
    expect(me).toMatchObject({ id: member.id, roles: ['student'], userTypeId: 5 });
  });
});
