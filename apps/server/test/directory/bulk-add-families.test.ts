import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailCount } from '../mailbox';
import { createTestApp, type TestApp } from '../test-app';
import { type Api, acceptInvitation, addPerson, api, expectStatus, newSchool } from './directory-helpers';

// Bulk add of students with their parents (issue 3): preview names every bad row's reason, confirm writes
// the good rows and optionally invites, and the same file twice creates nothing new.

const HEADER =
  'Student first name,Student last name,Student email,Parent first name,Parent last name,Parent email,Parent 2 first name,Parent 2 last name,Parent 2 email';

type Row = { line: number; status: string; errors: string[] };
type Result = {
  confirmed: boolean;
  summary: { created: number; rolesAdded: number; skipped: number; invalid: number; invited: number };
  rows: Row[];
};

let t: TestApp;
let http: Api;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  http = api(t.app);
  token = (await newSchool(t, 'Family School')).admin.token;
});
afterAll(() => t.close());

const bulk = async (csv: string, query = '') =>
  expectStatus<Result>(await http.post(`users/bulk-add-students${query}`, token, { csv }), 200);
const emails = async (path: string) =>
  expectStatus<{ items: Array<{ email: string }> }>(await http.get(path, token), 200).items.map(
    (item) => item.email,
  );

describe('bulk-add-students', () => {
  it('previews every row with the reason it is refused, and writes nothing', async () => {
    const teacher = await addPerson(t, token, 'teacher', { email: 'teacher.parent@fam.example.org' });
    const student = await addPerson(t, token, 'student', { email: 'already.student@fam.example.org' });
    const csv = [
      HEADER,
      'Ann,Ash,ann@fam.example.org,Pam,Ash,pam@fam.example.org,,,',
      'Ben,Ash,BEN@fam.example.org,Pam,Ash,pam@fam.example.org,Tom,Ash,teacher.parent@fam.example.org',
      'Cy,Bad,not-an-email,Pam,Ash,pam@fam.example.org,,,',
      'Ann,Again,ann@fam.example.org,Pam,Ash,pam@fam.example.org,,,',
      'Di,Same,di@fam.example.org,Di,Same,di@fam.example.org,,,',
      'Ed,Twin,ed@fam.example.org,Jo,Twin,jo@fam.example.org,Jo,Twin,jo@fam.example.org',
      'Fi,Name,fi@fam.example.org,Paula,Other,pam@fam.example.org,,,',
      `Gus,Kid,gus@fam.example.org,Stu,Dent,${student.email},,,`,
      `Old,Kid,${student.email},Pam,Ash,pam@fam.example.org,,,`,
      'H,I,hi@fam.example.org,Pam,Ash,pam@fam.example.org,,,',
    ].join('\n');
    const preview = await bulk(csv);
    expect(preview.confirmed).toBe(false);
    expect(preview.rows.map(({ line, status, errors }) => ({ line, status, errors }))).toEqual([
      { line: 2, status: 'new', errors: [] },
      { line: 3, status: 'new', errors: [] },
      { line: 4, status: 'error', errors: ['student email: Invalid email format'] },
      { line: 5, status: 'error', errors: ['duplicate of line 2'] },
      { line: 6, status: 'error', errors: ["parent email is the student's email"] },
      { line: 7, status: 'error', errors: ['both parents have the same email'] },
      { line: 8, status: 'error', errors: ['parent email is given with another name on an earlier line'] },
      { line: 9, status: 'error', errors: ['a parent email belongs to a student'] },
      { line: 10, status: 'exists', errors: [] },
      {
        line: 11,
        status: 'error',
        errors: ['student first name: Min 2 characters', 'student last name: Min 2 characters'],
      },
    ]);
    expect(preview.summary).toEqual({ created: 0, rolesAdded: 0, skipped: 1, invalid: 7, invited: 0 });
    expect(await emails('users/students')).toEqual([student.email]);
    expect(await emails('users/parents')).toEqual([]);
    expect(await mailCount(t.db, 'pam@fam.example.org')).toBe(0);
    expect(teacher.id).toBeGreaterThan(0);
  });

  it('confirm writes the good rows in one go, links siblings to one parent and invites each person once', async () => {
    const csv = [
      HEADER,
      'Ann,Ash,ann@fam.example.org,Pam,Ash,pam@fam.example.org,,,',
      'Ben,Ash,ben@fam.example.org,Pam,Ash,pam@fam.example.org,Tom,Ash,teacher.parent@fam.example.org',
      'Cy,Bad,not-an-email,Pam,Ash,pam@fam.example.org,,,',
    ].join('\n');
    const result = await bulk(csv, '?confirm=true&send_invite=true');
    expect(result.confirmed).toBe(true);
    // New: Ann, Ben, Pam. The teacher gets the parent role added on the account they have.
    expect(result.summary).toEqual({ created: 3, rolesAdded: 4, skipped: 0, invalid: 1, invited: 4 });
    expect(await mailCount(t.db, 'pam@fam.example.org')).toBe(1);
    expect(await mailCount(t.db, 'ann@fam.example.org')).toBe(1);
    expect(await mailCount(t.db, 'teacher.parent@fam.example.org')).toBe(2);

    const parents = expectStatus<{ items: Array<{ email: string; id: number; studentIds: number[] }> }>(
      await http.get('users/parents', token),
      200,
    ).items;
    const pam = parents.find((p) => p.email === 'pam@fam.example.org');
    const tom = parents.find((p) => p.email === 'teacher.parent@fam.example.org');
    expect(pam?.studentIds).toHaveLength(2);
    expect(tom?.studentIds).toHaveLength(1);
    const ben = expectStatus<{ items: Array<{ email: string; parentIds: number[] }> }>(
      await http.get('users/students', token),
      200,
    ).items.find((s) => s.email === 'ben@fam.example.org');
    expect(ben?.parentIds.sort()).toEqual([pam?.id, tom?.id].sort());
    expect(await emails('users/teachers')).toContain('teacher.parent@fam.example.org');

    // The invitation of a bulk-added parent works like any other.
    const session = await acceptInvitation(t, 'pam@fam.example.org', 'parent');
    expect(expectStatus(await http.get(`users/view?id=${pam?.id}`, session), 200).roles).toEqual(['parent']);
  });

  it('the same file twice creates no duplicates and sends no second invitation', async () => {
    const csv = [HEADER, 'Ann,Ash,ann@fam.example.org,Pam,Ash,pam@fam.example.org,,,'].join('\n');
    const result = await bulk(csv, '?confirm=true&send_invite=true');
    expect(result.summary).toEqual({ created: 0, rolesAdded: 0, skipped: 1, invalid: 0, invited: 0 });
    expect(await mailCount(t.db, 'ann@fam.example.org')).toBe(1);
    const all = await emails('users/students');
    expect(all.filter((email) => email === 'ann@fam.example.org')).toHaveLength(1);
  });

  it('confirm without send_invite writes people and sends nothing', async () => {
    const csv = [HEADER, 'Kai,Quiet,kai@fam.example.org,Lu,Quiet,lu@fam.example.org,,,'].join('\n');
    const result = await bulk(csv, '?confirm=true');
    expect(result.summary).toEqual({ created: 2, rolesAdded: 2, skipped: 0, invalid: 0, invited: 0 });
    expect(await mailCount(t.db, 'kai@fam.example.org')).toBe(0);
    expect(await emails('users/students')).toContain('kai@fam.example.org');
  });

  it('refuses a file without the needed columns, a missing csv and bad query flags (422)', async () => {
    const columns = await http.post('users/bulk-add-students', token, { csv: 'Student email\nx@y.org' });
    expect(expectStatus(columns, 422)).toEqual({
      message:
        'Missing columns: Student first name, Student last name, Parent first name, Parent last name, Parent email',
      errors: {
        csv: [
          'Missing columns: Student first name, Student last name, Parent first name, Parent last name, Parent email',
        ],
      },
    });
    expect(expectStatus(await http.post('users/bulk-add-students', token, {}), 422).errors).toHaveProperty(
      'csv',
    );
    const flag = await http.post('users/bulk-add-students?confirm=yes', token, { csv: HEADER });
    expect(expectStatus(flag, 422).errors).toHaveProperty('confirm');
    const teachers = await http.post('users/bulk-add-teachers?send_invite=1', token, { csv: 'First name' });
    expect(expectStatus(teachers, 422).errors).toHaveProperty('send_invite');
  });

  it('refuses more than 5,000 rows at a time', async () => {
    const rows = Array.from(
      { length: 5001 },
      (_, i) => `S,Tu,s${i}@big.example.org,P,Ar,p${i}@big.example.org,,,`,
    );
    const res = await http.post('users/bulk-add-students', token, { csv: [HEADER, ...rows].join('\n') });
    expect(expectStatus(res, 422).message).toBe('At most 5000 rows at a time');
  });
});
