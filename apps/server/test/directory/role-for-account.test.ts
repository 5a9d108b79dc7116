import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastMailTo, mailCount } from '../mailbox';
import { createTestApp, type TestApp } from '../test-app';
import { type Api, addMember, addPerson, api, expectStatus, loginAs, newSchool } from './directory-helpers';

// A role added to someone who already has an account with a password (issue 36, point 5): there is nothing
// to accept, so they are told of the role, not invited to set a password, and listed as active at once —
// one by one and by CSV. Someone invited who never set a password is still invited.

const HEADER =
  'Student first name,Student last name,Student email,Parent first name,Parent last name,Parent email,Parent 2 first name,Parent 2 last name,Parent 2 email';

let t: TestApp;
let http: Api;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  http = api(t.app);
  token = (await newSchool(t, 'Roles School')).admin.token;
});
afterAll(() => t.close());

const parentItem = async (email: string) =>
  expectStatus<{ items: Array<{ email: string; invitation: string }> }>(
    await http.get('users/parents', token),
    200,
  ).items.find((item) => item.email === email);

async function expectToldOfRole(email: string, before: number) {
  expect(await mailCount(t.db, email)).toBe(before + 1);
  const mail = await lastMailTo(t.db, email);
  expect(mail?.subject).toBe('Roles School added you on Parley as a parent');
  expect(mail?.text_body).toContain('Log in with your email and the password you already have.');
  expect(mail?.text_body).not.toContain('set your password');
  expect(mail?.links).toEqual([expect.stringMatching(/^https?:\/\/[^/]+\/auth\/login$/)]);
  expect(await parentItem(email)).toMatchObject({ invitation: 'accepted' });
}

describe('a role for someone with an account', () => {
  it('create-parent with an active teacher’s email tells them of the role; they are not pending', async () => {
    const teacher = await addMember(t, token, 'teacher');
    const before = await mailCount(t.db, teacher.email);
    const res = await http.post('users/create-parent', token, {
      firstName: teacher.firstName,
      lastName: teacher.lastName,
      email: teacher.email,
    });
    expect(expectStatus<{ message: string }>(res, 200).message).toBe(
      `${teacher.email} now also has the parent role; we told them by email.`,
    );
    await expectToldOfRole(teacher.email, before);
    // Their password opens both roles.
    expectStatus(await loginAs(t.app, teacher.email), 200);
  });

  it('bulk add with an active teacher as a parent tells them of the role; they are not pending', async () => {
    const teacher = await addMember(t, token, 'teacher');
    const before = await mailCount(t.db, teacher.email);
    const csv = [
      HEADER,
      `Kim,Kid,kim.kid@roles.example.org,Pat,New,pat.new@roles.example.org,${teacher.firstName},${teacher.lastName},${teacher.email}`,
    ].join('\n');
    const result = expectStatus<{ summary: { invited: number } }>(
      await http.post('users/bulk-add-students?confirm=true&send_invite=true', token, { csv }),
      200,
    );
    expect(result.summary.invited).toBe(3);
    await expectToldOfRole(teacher.email, before);
    // The new parent is still invited to set a password.
    expect((await lastMailTo(t.db, 'pat.new@roles.example.org'))?.subject).toBe(
      'Roles School invites you to Parley',
    );
    expect(await parentItem('pat.new@roles.example.org')).toMatchObject({ invitation: 'pending' });
  });

  it('someone invited who never set a password is invited again for the new role', async () => {
    const teacher = await addPerson(t, token, 'teacher');
    await http.post('users/create-parent', token, {
      firstName: teacher.firstName,
      lastName: teacher.lastName,
      email: teacher.email,
    });
    expect((await lastMailTo(t.db, teacher.email))?.subject).toBe('Roles School invites you to Parley');
    expect(await parentItem(teacher.email)).toMatchObject({ invitation: 'pending' });
  });
});
